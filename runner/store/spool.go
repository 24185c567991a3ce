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
	"sync"
	"time"

	"github.com/klauspost/compress/s2"
)

// A spool file holds a running command's output as it arrives, so that
// `gotk recall` has it should gotk be killed before it records the run.
// It starts with spoolMagic and one line of JSON naming the command (as
// typed and as run: gotk may have asked the tool for machine-readable
// output, which recall then renders in the tool's own format), then one
// frame per write: the stream (a byte), the length (uvarint), the bytes.
// A frame cut short by a kill is read as far as it goes. A frame whose
// stream byte has spoolZ set holds its bytes as one S2 block (the length
// is the block's): most large outputs are paths and lines that repeat
// their neighbours, and writing a tenth of them costs gotk less than the
// page cache's copy of all of them (a find of 90 MB: about 1 MB written).
const spoolMagic = "gotk-spool 1\n"

// spoolZ marks a frame whose body is an S2 block; the stream is the byte
// without it.
const spoolZ = 0x80

// zMin is the least frame compressed, and a block is written only when
// it saves an eighth.
const zMin = 256

// maxZFrame bounds what one compressed frame may decode to (a frame is
// one read of the capture, far below): a larger claim is a damaged file.
const maxZFrame = 64 << 20

// Streams of a spool file.
const (
	SpoolStdout     = 0 // the program's stdout
	SpoolStderr     = 1 // its stderr
	SpoolTwinStdout = 2 // the command as typed, run alongside (filter.Twin)
	SpoolTwinStderr = 3
)

// SpoolMeta names the command a spool file is the output of.
type SpoolMeta struct {
	Argv []string `json:"argv"` // as typed
	Ran  []string `json:"ran"`  // as run
}

// Spool is a spool file; its writes are safe for concurrent use. It may
// start in memory (CreateSpoolAfter): most runs end in milliseconds, and
// creating a file costs most of a millisecond on some file systems.
type Spool struct {
	mu      sync.Mutex
	f       *os.File
	buf     []byte
	path    string
	meta    SpoolMeta // for the header, written when the file is made
	held    []byte    // frames written before the file is made
	z       []byte    // room for a compressed frame
	timer   *time.Timer
	failed  bool  // the file could not be made or written: writes are dropped
	err     error // why it failed
	discard bool
	// The file's size, and how far settle went: write-back started up to
	// settled (the step before from prevSettled), the page cache let go
	// up to dropped.
	size, settled, prevSettled, dropped int64
}

// settleStep is how many bytes a spool file grows between two settles.
const settleStep = 8 << 20

// spoolHold bounds the frames a spool holds in memory before it makes its
// file (however young the run): a quarter megabyte, as a larger output
// costs more in the memory that holds it (on some machines a fresh page
// costs ten times its copy) than the file's making.
const spoolHold = 256 << 10

// CreateSpool starts the spool file for id (0600, in the private data
// directory next to the database at dbPath): for a run that may end soon,
// the file is made once the run has lasted after (or held spoolHold);
// until then its frames are held in memory, and a gotk killed before that
// leaves no spool. With after <= 0 the file is made at once. A file that
// cannot be made drops the writes: the run just is not recallable should
// gotk be killed.
func CreateSpool(dbPath, id string, meta SpoolMeta, after time.Duration) *Spool {
	s := newSpool(dbPath, id, meta)
	if after <= 0 {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.create()
		return s
	}
	s.timer = time.AfterFunc(after, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.f == nil && !s.failed && !s.discard {
			s.create()
		}
	})
	return s
}

func newSpool(dbPath, id string, meta SpoolMeta) *Spool {
	// The header is encoded only if the file is made: most runs end
	// before, and encoding/json's first Marshal costs a cold process ~0.1 ms.
	return &Spool{path: SpoolPath(dbPath, id), meta: meta}
}

// create makes the file and writes the header and the held frames; s.mu
// is held.
func (s *Spool) create() error {
	if err := privateDir(filepath.Dir(s.path)); err != nil {
		s.failed, s.err = true, err
		return err
	}
	f, err := os.OpenFile(s.path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, fileMode)
	if err != nil {
		s.failed, s.err = true, err
		return err
	}
	head, _ := json.Marshal(s.meta)
	head = append(append([]byte(spoolMagic), head...), '\n')
	// Two writes, not one of a copy: what is held may be spoolHold. A
	// kill between them leaves a spool with no frame, as one before the
	// file was made leaves none.
	_, err = f.Write(head)
	if err == nil && len(s.held) > 0 {
		_, err = f.Write(s.held)
	}
	if err != nil {
		f.Close()
		os.Remove(s.path)
		s.failed, s.err = true, err
		return err
	}
	s.size = int64(len(head) + len(s.held))
	s.f, s.held = f, nil
	return nil
}

// Write appends p as one frame of stream; one write to the file, so a
// kill leaves at most the last frame cut short.
func (s *Spool) Write(stream int, p []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failed || s.discard {
		return nil
	}
	s.buf = append(s.buf[:0], byte(stream))
	s.buf = binary.AppendUvarint(s.buf, uint64(len(p)))
	if s.f == nil {
		if need := len(s.held) + len(s.buf) + len(p); need <= spoolHold {
			if need > cap(s.held) && need > 32<<10 {
				// A large output: the room for all that is held, once
				// (grown by append, the buffer would touch several times
				// its size in memory).
				s.held = append(make([]byte, 0, spoolHold), s.held...)
			}
			s.held = append(append(s.held, s.buf...), p...)
			return nil
		}
		// Past what is held: the file is made, and the frame written
		// to it.
		if err := s.create(); err != nil {
			return err
		}
	}
	var err error
	switch frame := s.compress(stream, p); {
	case frame != nil:
		_, err = s.f.Write(frame)
		s.size += int64(len(frame))
	case len(p) > 4<<10:
		// A large frame is written as its head then its bytes, not
		// copied into one buffer first; a kill between the two leaves a
		// frame cut short, which reading takes as the end.
		if _, err = s.f.Write(s.buf); err == nil {
			_, err = s.f.Write(p)
		}
		s.size += int64(len(s.buf) + len(p))
	default:
		s.buf = append(s.buf, p...)
		_, err = s.f.Write(s.buf)
		s.size += int64(len(s.buf))
	}
	if err != nil {
		// A full disk: what is written stays readable, nothing more is
		// added (a frame cut short ends the reading).
		s.failed, s.err = true, err
		return err
	}
	if s.size-s.settled >= settleStep {
		settle(s.f, s.settled, s.size, s.dropped, s.prevSettled)
		s.dropped = max(s.dropped, s.prevSettled)
		s.prevSettled, s.settled = s.settled, s.size
	}
	return nil
}

// compress returns p's frame as an S2 block, head included (one write),
// or nil where that would not save an eighth of p.
func (s *Spool) compress(stream int, p []byte) []byte {
	const room = 1 + binary.MaxVarintLen64
	bound := s2.MaxEncodedLen(len(p))
	if len(p) < zMin || bound < 0 || stream > SpoolTwinStderr {
		return nil
	}
	if cap(s.z) < room+bound {
		s.z = make([]byte, room+bound)
	}
	block := s2.Encode(s.z[room:room+bound], p)
	if len(block) > len(p)-len(p)/8 {
		return nil
	}
	var head [room]byte
	head[0] = byte(stream) | spoolZ
	k := 1 + binary.PutUvarint(head[1:], uint64(len(block)))
	copy(s.z[room-k:], head[:k])
	return s.z[room-k : room+len(block)]
}

// zFrame reads the body of a compressed frame, n bytes, and decodes it
// (body and out are reused buffers). cut: the file ended inside it.
func zFrame(r io.Reader, n uint64, body, out *[]byte) (p []byte, cut bool, err error) {
	if n > maxZFrame {
		return nil, false, errDamaged
	}
	if uint64(cap(*body)) < n {
		*body = make([]byte, n)
	}
	in := (*body)[:n]
	if _, err := io.ReadFull(r, in); err != nil {
		return nil, true, nil
	}
	size, err := s2.DecodedLen(in)
	if err != nil || size > maxZFrame {
		return nil, false, errDamaged
	}
	if cap(*out) < size {
		*out = make([]byte, size)
	}
	if p, err = s2.Decode((*out)[:size], in); err != nil {
		return nil, false, errDamaged
	}
	return p, false, nil
}

// errDamaged: a compressed frame that does not decode.
var errDamaged = errors.New("spool: a compressed frame does not decode (the file is damaged)")

// Discard closes and removes the spool file: the run was recorded.
func (s *Spool) Discard() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.discard = true
	if s.timer != nil {
		s.timer.Stop()
	}
	s.held = nil
	if s.f != nil {
		s.f.Close()
		os.Remove(s.path)
	}
}

// SpoolData is a spool file read back.
type SpoolData struct {
	Meta SpoolMeta // zero for a spool written before the header existed
	// Streams are the bytes of each stream (SpoolStdout…); Combined is
	// stdout and stderr interleaved as they arrived.
	Streams  [4][]byte
	Combined []byte
}

// ReadSpool reads the spool file for id. A file without the header (an
// older gotk spooled raw bytes) is all stdout.
func ReadSpool(dbPath, id string) (SpoolData, error) {
	var sp SpoolData
	data, err := os.ReadFile(SpoolPath(dbPath, id))
	if err != nil {
		return sp, err
	}
	rest, framed := bytes.CutPrefix(data, []byte(spoolMagic))
	if !framed {
		sp.Streams[SpoolStdout], sp.Combined = data, data
		return sp, nil
	}
	head, frames, ok := bytes.Cut(rest, []byte("\n"))
	if !ok {
		return sp, nil // killed while writing the header
	}
	if err := json.Unmarshal(head, &sp.Meta); err != nil {
		return sp, errors.New("spool header: " + err.Error())
	}
	r := bufio.NewReader(bytes.NewReader(frames))
	var body, out []byte
	for {
		b, err := r.ReadByte()
		stream := b &^ spoolZ
		if err != nil || stream > SpoolTwinStderr {
			return sp, nil
		}
		n, err := binary.ReadUvarint(r)
		if err != nil {
			return sp, nil
		}
		var p []byte
		cut := false
		if b&spoolZ != 0 {
			if p, cut, err = zFrame(r, n, &body, &out); err != nil {
				return sp, err
			}
		} else {
			p = make([]byte, min(n, uint64(len(frames))))
			got, _ := io.ReadFull(r, p)
			p, cut = p[:got], uint64(got) < n
		}
		sp.Streams[stream] = append(sp.Streams[stream], p...)
		if stream <= SpoolStderr {
			sp.Combined = append(sp.Combined, p...)
		}
		if cut {
			return sp, nil // cut short by a kill
		}
	}
}
