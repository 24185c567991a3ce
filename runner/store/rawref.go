package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
)

// A read of regular files (a plain `cat FILE…`) past a few megabytes is
// not copied into its raw file: the spool keeps the output's first part
// as usual, then one SpoolRef frame names the files and the checksum of
// the rest of the output, which recall reads from the files themselves.
// Recall checks that checksum first: a file changed since (rewritten,
// truncated, removed) gives an error, never other lines; a file that only
// grew still gives the lines the run printed.

// SpoolRef is the stream of the frame that ends a raw file whose output
// continues in files (a RawRef).
const SpoolRef = 4

// RawRef says where the rest of an output is: the concatenation of the
// first Size bytes of each file, from byte From (the bytes before are
// the spool's stdout frames), with the CRC-32C of that rest.
type RawRef struct {
	Files []RefFile `json:"files"`
	From  int64     `json:"from"`
	CRC   uint32    `json:"crc"`
}

// RefFile is one file of a RawRef: its absolute path and the size read.
type RefFile struct {
	Path string `json:"path"`
	Size int64  `json:"size"`
}

// RefTable is the CRC-32C table RawRef checksums use.
var RefTable = crc32.MakeTable(crc32.Castagnoli)

// WriteRef ends the spool with ref (its last frame; Keep follows).
func (s *Spool) WriteRef(ref RawRef) error {
	b, err := json.Marshal(ref)
	if err != nil {
		return err
	}
	return s.Write(SpoolRef, b)
}

// errChanged is why a RawRef's rest cannot be read.
var errChanged = errors.New("changed since the run")

// readRef writes the rest of an output a RawRef names to w, after
// checking it is what the run read. from is how many stdout bytes the
// spool's frames held.
func readRef(ref RawRef, from int64, w io.Writer) error {
	if ref.From != from {
		return fmt.Errorf("raw file: %d bytes before the files, %d expected", from, ref.From)
	}
	open := make([]*os.File, len(ref.Files))
	defer func() {
		for _, f := range open {
			if f != nil {
				f.Close()
			}
		}
	}()
	parts := func() io.Reader {
		var rs []io.Reader
		skip := ref.From
		for i, rf := range ref.Files {
			n := rf.Size - min(skip, rf.Size)
			if n > 0 {
				rs = append(rs, io.NewSectionReader(open[i], rf.Size-n, n))
			}
			skip -= rf.Size - n
		}
		return io.MultiReader(rs...)
	}
	for i, rf := range ref.Files {
		f, err := os.Open(rf.Path)
		if err != nil {
			return fmt.Errorf("the rest of this output is %s as the run read it: %w", rf.Path, err)
		}
		open[i] = f
		if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() || fi.Size() < rf.Size {
			return fmt.Errorf("the rest of this output is %s as the run read it, which %w", rf.Path, errChanged)
		}
	}
	h := crc32.New(RefTable)
	if _, err := io.CopyBuffer(h, parts(), make([]byte, 256<<10)); err != nil {
		return err
	}
	if h.Sum32() != ref.CRC {
		return fmt.Errorf("the rest of this output is what the run read of %s, which %w", refNames(ref.Files), errChanged)
	}
	_, err := io.CopyBuffer(w, parts(), make([]byte, 256<<10))
	return err
}

func refNames(fs []RefFile) string {
	if len(fs) == 1 {
		return fs[0].Path
	}
	return fmt.Sprintf("%s and %d more files", fs[0].Path, len(fs)-1)
}

// readRefFrame reads a SpoolRef frame's body of n bytes.
func readRefFrame(r io.Reader, n uint64) (RawRef, error) {
	var ref RawRef
	if n > 64<<20 {
		return ref, errors.New("raw file: reference frame too large")
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return ref, err
	}
	return ref, json.Unmarshal(b, &ref)
}
