package proc

import (
	"io"
	"os"
	"sync"
)

// Collected is what a side run printed: both streams, each kept up to a
// limit (Total counts all), and its exit code.
type Collected struct {
	Stdout, Stderr []byte
	Total          int64
	Exit           int
}

// Collect starts argv with env added to the environment and stdin closed,
// and returns a function that waits for it. It is the side run of a
// command gotk asked for machine-readable output: what the command as
// typed prints. spool, when not nil, gets both streams as they arrive
// (0 stdout, 1 stderr), like Capture's.
func Collect(argv []string, env []string, limit int, spool func(stream int, p []byte) error) (wait func() (Collected, error), err error) {
	cmd, err := command(argv)
	if err != nil {
		return nil, err
	}
	cmd.Env = append(os.Environ(), env...)
	var c Collected
	var mu sync.Mutex
	cmd.Stdout = &capped{b: &c.Stdout, total: &c.Total, limit: limit, mu: &mu, stream: 0, spool: &spool}
	cmd.Stderr = &capped{b: &c.Stderr, total: &c.Total, limit: limit, mu: &mu, stream: 1, spool: &spool}
	setProcAttr(cmd)
	if err := start(cmd); err != nil {
		return nil, startError(argv[0], err)
	}
	return func() (Collected, error) {
		err := cmd.Wait()
		if cmd.ProcessState != nil {
			c.Exit = exitCode(cmd.ProcessState)
			err = nil
		}
		return c, err
	}, nil
}

// capped is a writer that keeps the first limit bytes (and spools all).
type capped struct {
	b      *[]byte
	total  *int64
	limit  int
	mu     *sync.Mutex
	stream int
	spool  *func(stream int, p []byte) error // shared by both streams; nil after an error
}

func (w *capped) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	*w.total += int64(len(p))
	if *w.spool != nil && (*w.spool)(w.stream, p) != nil {
		*w.spool = nil
	}
	if room := w.limit - len(*w.b); room > 0 {
		*w.b = append(*w.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

var _ io.Writer = (*capped)(nil)
