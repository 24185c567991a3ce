package runner

import (
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"

	"github.com/gotk-dev/gotk/runner/store"
)

// A plain `cat FILE…` of regular files prints what the files hold: past
// refAfter bytes its output is not spooled but checksummed, and the raw
// file names the files instead (store.RawRef), so that a gigabyte read
// costs no gigabyte written. Recall reads the files back once it has
// checked they still hold those bytes.

// refAfter is how much of a read's output the spool keeps before the
// rest is left in the files (more than a read holds before it streams:
// an output that is not streamed is kept whole, as any other). A
// variable: tests lower it.
var refAfter int64 = 4 << 20

// readRef is the files a run reads and what it saw of them.
type readRef struct {
	files []store.RefFile
	sizes []os.FileInfo // each file as it was before the run
	off   bool          // stderr came first: the spool keeps everything
	on    bool          // the spool stopped: the rest is in the files
	from  int64         // stdout bytes the spool kept
	seen  int64         // stdout bytes the program wrote
	crc   uint32        // of the bytes past from
	bad   string        // why the files are not the output (on only)
}

// newReadRef returns the files of argv when it is `cat` with only
// regular files as operands (no option, no stdin), nil otherwise; dir is
// where relative names are.
func newReadRef(argv []string, tool int, dir string) *readRef {
	if tool != 0 || len(argv) < 2 || filepath.Base(argv[0]) != "cat" {
		return nil
	}
	r := &readRef{}
	for _, a := range argv[1:] {
		if strings.HasPrefix(a, "-") || a == "" {
			return nil
		}
		p := a
		if !filepath.IsAbs(p) {
			if dir == "" {
				return nil
			}
			p = filepath.Join(dir, p)
		}
		fi, err := os.Stat(p)
		if err != nil || !fi.Mode().IsRegular() {
			return nil
		}
		r.files = append(r.files, store.RefFile{Path: p, Size: fi.Size()})
		r.sizes = append(r.sizes, fi)
	}
	return r
}

// add takes the program's next bytes; it reports whether they go on to
// the spool. spooled is how many bytes the spool has.
func (r *readRef) add(stream int, p []byte, spooled int64) bool {
	if r.off {
		return true
	}
	if stream == 1 {
		// An error message is not in the files.
		if r.on {
			r.bad = "cat wrote to stderr"
			return true
		}
		r.off = true
		return true
	}
	if !r.on && spooled+int64(len(p)) > refAfter {
		r.on, r.from = true, spooled
	}
	r.seen += int64(len(p))
	if !r.on {
		return true
	}
	r.crc = crc32.Update(r.crc, store.RefTable, p)
	return false
}

// ref is the raw file's reference to the files, or why there is none:
// the program did not write exactly what the files held before the run.
func (r *readRef) ref() (store.RawRef, string) {
	if r.bad != "" {
		return store.RawRef{}, r.bad
	}
	var total int64
	for i, f := range r.files {
		total += f.Size
		if fi, err := os.Stat(f.Path); err != nil || fi.Size() != f.Size || !fi.ModTime().Equal(r.sizes[i].ModTime()) {
			return store.RawRef{}, f.Path + " changed while it was read"
		}
	}
	if total != r.seen {
		return store.RawRef{}, "cat printed other than the files held"
	}
	return store.RawRef{Files: r.files, From: r.from, CRC: r.crc}, ""
}
