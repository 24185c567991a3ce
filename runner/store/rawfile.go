package store

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// An output too large to hold (the runner compacts it as it streams) is
// kept as its spool file, renamed to a raw file beside the database: the
// database keeps the run and what gotk printed, the raw file the output,
// which recall pages through without loading it. Raw files have their own
// caps (MaxRawFile each, MaxRawTotal together, the oldest dropped first):
// the database's (MaxEntry, MaxTotal) are for compressed outputs held in
// memory, far below what a streamed output is.
var (
	// MaxRawFile caps one raw file: the runner stops writing past it and
	// says which lines it did not keep.
	MaxRawFile int64 = 2 << 30
	// MaxRawTotal caps the raw files together; the oldest go first.
	MaxRawTotal int64 = 4 << 30
)

// RawPath is the raw file of the streamed run id.
func RawPath(dbPath, id string) string {
	return filepath.Join(filepath.Dir(dbPath), "raw-"+strings.ToLower(id))
}

// Err is why the spool could not be made or written (nil: it holds every
// byte written to it).
func (s *Spool) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Keep ends the spool as the raw file of its run (RawPath): made now if
// it was still held in memory, closed and renamed. An error means there
// is no raw file (the spool could not be made, written or renamed).
func (s *Spool) Keep() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.timer != nil {
		s.timer.Stop()
	}
	if s.err != nil {
		return s.err
	}
	if s.discard {
		return errors.New("spool already discarded")
	}
	if s.f == nil {
		if err := s.create(); err != nil {
			return err
		}
	}
	s.discard = true
	err := s.f.Close()
	s.f = nil
	dir, name := filepath.Split(s.path)
	kept := filepath.Join(dir, "raw-"+strings.TrimPrefix(name, "spool-"))
	if err == nil {
		err = os.Rename(s.path, kept)
	}
	if err != nil {
		os.Remove(s.path)
	}
	return err
}

// RawFile is a kept raw file.
type RawFile struct {
	ID   string
	Size int64
}

// TrimRaw drops the oldest raw files beside dbPath until they are within
// max together, never the one of keep (the run that just ended); it
// returns the ids it dropped.
func TrimRaw(dbPath, keep string, max int64) []string {
	m, _ := filepath.Glob(filepath.Join(filepath.Dir(dbPath), "raw-*"))
	type file struct {
		id   string
		size int64
		mod  int64
	}
	var fs []file
	var total int64
	for _, p := range m {
		fi, err := os.Stat(p)
		if err != nil {
			continue
		}
		fs = append(fs, file{strings.TrimPrefix(filepath.Base(p), "raw-"), fi.Size(), fi.ModTime().UnixNano()})
		total += fi.Size()
	}
	sort.Slice(fs, func(i, j int) bool { return fs[i].mod < fs[j].mod })
	var dropped []string
	for _, f := range fs {
		if total <= max {
			break
		}
		if f.id == strings.ToLower(keep) {
			continue
		}
		if os.Remove(RawPath(dbPath, f.id)) == nil {
			total -= f.size
			dropped = append(dropped, f.id)
		}
	}
	return dropped
}

// SpoolLines writes lines from..to (1-based, inclusive) of the spool or
// raw file at path to w: stdout and stderr as they arrived (the twin
// streams are not counted). It reads frame by frame, never the whole
// file, and stops after line to; the rest of a read of files (RawRef)
// comes from the files, once checked. It returns the command the file names
// and how many lines it read (all of them when to is past the end).
func SpoolLines(path string, from, to int64, w io.Writer) (meta SpoolMeta, lines int64, err error) {
	f, err := os.Open(path)
	if err != nil {
		return meta, 0, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 256<<10)
	magic, err := r.Peek(len(spoolMagic))
	framed := err == nil && string(magic) == spoolMagic
	lw := &lineWindow{from: from, to: to, w: w, line: 1}
	if !framed {
		_, err := io.Copy(lw, r) // an older gotk spooled the raw bytes alone
		if errors.Is(err, errWindowDone) {
			err = nil
		}
		return meta, lw.count(), err
	}
	r.Discard(len(spoolMagic))
	head, err := r.ReadBytes('\n')
	if err != nil {
		return meta, 0, nil // killed while writing the header
	}
	if err := json.Unmarshal(head, &meta); err != nil {
		return meta, 0, errors.New("spool header: " + err.Error())
	}
	var stdout int64 // bytes of stdout frames
	var body, out []byte
	for {
		b, err := r.ReadByte()
		stream := b &^ spoolZ
		if err != nil || stream > SpoolRef {
			return meta, lw.count(), nil
		}
		n, err := binary.ReadUvarint(r)
		if err != nil {
			return meta, lw.count(), nil
		}
		if b&spoolZ != 0 {
			p, cut, err := zFrame(r, n, &body, &out)
			if err != nil {
				return meta, lw.count(), err
			}
			if stream == SpoolStdout {
				stdout += int64(len(p))
			}
			if stream <= SpoolStderr {
				if _, err := lw.Write(p); err != nil {
					return meta, lw.count(), nil // the window is done
				}
			}
			if cut {
				return meta, lw.count(), nil // cut short by a kill
			}
			continue
		}
		if stream == SpoolRef {
			ref, err := readRefFrame(r, n)
			if err != nil {
				return meta, lw.count(), nil // cut short
			}
			if err := readRef(ref, stdout, lw); err != nil && !errors.Is(err, errWindowDone) {
				return meta, lw.count(), err
			}
			return meta, lw.count(), nil
		}
		if stream == SpoolStdout {
			stdout += int64(n)
		}
		dst := io.Discard
		if stream <= SpoolStderr {
			dst = lw
		}
		got, err := io.CopyN(dst, r, int64(n))
		if errors.Is(err, errWindowDone) {
			return meta, lw.count(), nil
		}
		if got < int64(n) {
			return meta, lw.count(), nil // cut short by a kill or a full disk
		}
	}
}

var errWindowDone = errors.New("window done")

// SpoolHeader reads the command a spool or raw file names (zero for a
// file without the header).
func SpoolHeader(path string) (SpoolMeta, error) {
	var meta SpoolMeta
	f, err := os.Open(path)
	if err != nil {
		return meta, err
	}
	defer f.Close()
	r := bufio.NewReader(f)
	if magic, err := r.Peek(len(spoolMagic)); err != nil || string(magic) != spoolMagic {
		return meta, nil
	}
	r.Discard(len(spoolMagic))
	head, err := readLine(r, maxHead)
	if err != nil {
		return meta, nil
	}
	if err := json.Unmarshal(head, &meta); err != nil {
		return meta, errors.New("spool header: " + err.Error())
	}
	return meta, nil
}

// lineWindow passes on the bytes of lines from..to and counts lines.
type lineWindow struct {
	from, to int64
	line     int64 // the line the next byte belongs to
	partial  bool  // bytes of line were seen (it has no newline yet)
	w        io.Writer
}

func (l *lineWindow) count() int64 {
	if l.partial {
		return l.line
	}
	return l.line - 1
}

func (l *lineWindow) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		if l.line > l.to {
			return n - len(p), errWindowDone
		}
		i := bytes.IndexByte(p, '\n')
		if l.line < l.from {
			if i < 0 {
				l.partial = true
				return n, nil
			}
			// Skip whole lines fast: count newlines up to the window.
			skip := l.from - l.line
			c := int64(bytes.Count(p, []byte{'\n'}))
			if c < skip {
				l.line += c
				l.partial = p[len(p)-1] != '\n'
				return n, nil
			}
			for ; l.line < l.from; l.line++ {
				p = p[bytes.IndexByte(p, '\n')+1:]
			}
			l.partial = false
			continue
		}
		end := len(p)
		if i >= 0 {
			end = i + 1
		}
		if _, err := l.w.Write(p[:end]); err != nil {
			return n - len(p), err
		}
		if i >= 0 {
			l.line++
			l.partial = false
		} else {
			l.partial = true
		}
		p = p[end:]
	}
	return n, nil
}
