// Package proc runs the program behind `gotk <program> args…`: either with
// stdio passed straight through (no rule, no filter, --raw), or with both
// output streams captured for a filter. In both cases the program's own
// exit code comes back (128+n when signal n ended it, and which signal),
// and a program that cannot start is reported the way a shell would (127,
// 126).
//
// The program stays in gotk's process group: whatever stops a command
// without gotk stops the same processes with it. A signal to the group (an
// agent's `kill -PGID`, timeout(1), ^C) reaches the program and everything
// it started directly, SIGKILL included; SIGINT, SIGTERM, SIGHUP and
// SIGQUIT sent to gotk alone are passed on to the program alone (except ^C
// and ^\ from a terminal, which the program got already); and SIGKILL of
// gotk alone kills the program (Pdeathsig on Linux), as it would have
// killed the program itself.
package proc

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mattn/go-isatty"
)

// StartError says why a program could not start, with the exit code a
// shell gives in the same case: 127 (not found), 126 (not executable).
type StartError struct {
	Program string
	Reason  string // "command not found", "permission denied", …
	Code    int
}

func (e *StartError) Error() string { return e.Program + ": " + e.Reason }

// Result is a finished run.
type Result struct {
	Exit     int           // the program's exit code; 128+n for signal n
	Duration time.Duration // from start to exit
	// Signal is the first of SIGINT, SIGTERM, SIGHUP, SIGQUIT that reached
	// gotk while the program ran (nil: none): the run was interrupted.
	Signal os.Signal
	// Died is the signal that ended the program (nil: it exited).
	Died os.Signal
}

// Run runs argv with gotk's own stdin, stdout and stderr: the program writes
// to them directly (it keeps its terminal, colours and speed) and gotk never
// sees the bytes.
func Run(argv []string) (Result, error) {
	cmd, err := command(argv)
	if err != nil {
		return Result{}, err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	setProcAttr(cmd)
	return wait(cmd)
}

// Output is what a captured program wrote.
type Output struct {
	Stdout   []byte
	Stderr   []byte
	Combined []byte // both streams interleaved in arrival order
	// Total is how many bytes the program wrote on both streams, including
	// any passed through after Overflow.
	Total int64
	// Overflow is set when the output went past the capture limit: what was
	// held was written out and the rest passed straight through, so the
	// buffers above are empty and the output has already been shown.
	Overflow bool
	// Live is set when the run went live (Options.LiveAfter): everything
	// after the switch was passed to GoLive's writers as it arrived. The
	// buffers above still hold the whole output from the start, or, past
	// the capture limit (Cut), its beginning.
	Live bool
	// Cut is set when a live run's output outgrew the capture limit: the
	// buffers hold only its beginning.
	Cut bool
	// Stopped is set when Options.Stop closed a pipe: the output is what
	// came before (and with the read that ended it).
	Stopped bool
}

// Options say where a captured run's output goes besides gotk's memory.
type Options struct {
	// Limit bounds the bytes held in memory (the three buffers together).
	Limit int
	// Stdout and Stderr get the output past Limit.
	Stdout, Stderr io.Writer
	// Spool, when not nil, gets every byte of both streams as it arrives,
	// with its stream (0 stdout, 1 stderr): the store's spool file, what
	// `gotk recall` finds when gotk is killed before it could record the
	// run. After an error it gets nothing more.
	Spool func(stream int, p []byte) error
	// LiveAfter, when positive, is how long the program may run with its
	// output held: still running then, it goes live. GoLive is called once
	// with the output held so far (valid only during the call; no output
	// is taken in until it returns) and returns where the rest goes as it
	// arrives, stream by stream. A run past Limit already passes through
	// and never goes live.
	LiveAfter time.Duration
	GoLive    func(held Output) (stdout, stderr io.Writer)
	// Stop, when not nil, is asked after each piece of output is taken in
	// (after Spool got it, under the same lock) which streams gotk reads
	// no further (an agent's head has its
	// lines): their pipes are closed at once, and the program meets a
	// closed pipe on its next write there, as it would have under head.
	Stop func() (stdout, stderr bool)
}

// Capture runs argv with gotk's stdin and both output streams captured.
// o.Limit bounds the bytes held in memory; past it, everything held and
// everything after is written to o.Stdout and o.Stderr as it arrives. A
// write error there (a closed pipe) stops the copying of that stream: the
// program then meets the closed pipe itself, as it would have without
// gotk. With o.LiveAfter, a program still running after it goes live: see
// Options.
func Capture(argv []string, o Options) (Output, Result, error) {
	cmd, err := command(argv)
	if err != nil {
		return Output{}, Result{}, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return Output{}, Result{}, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return Output{}, Result{}, err
	}
	growPipe(outW)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, outW, errW
	setProcAttr(cmd)
	c := &collector{limit: o.Limit, w: [2]io.Writer{o.Stdout, o.Stderr}, spool: o.Spool, goLive: o.GoLive, stop: o.Stop, r: [2]*os.File{outR, errR}}
	var wg sync.WaitGroup
	started := false
	var live *time.Timer
	res, err := startWait(argv[0], cmd, func() {
		// The child holds its own copies of the write ends now.
		started = true
		outW.Close()
		errW.Close()
		wg.Add(2)
		go c.drain(&wg, 0, outR)
		go c.drain(&wg, 1, errR)
		if o.LiveAfter > 0 && o.GoLive != nil {
			live = time.AfterFunc(o.LiveAfter, c.switchLive)
		}
	})
	if started {
		// The program has exited; what it wrote is in the pipes and the
		// readers reach EOF at once, unless something it started in the
		// background still holds them open. Don't wait for that.
		readers := make(chan struct{})
		go func() { wg.Wait(); close(readers) }()
		select {
		case <-readers:
		case <-time.After(LingerAfterExit):
			outR.Close()
			errR.Close()
			<-readers
		}
	} else {
		outW.Close()
		errW.Close()
	}
	if live != nil {
		live.Stop()
	}
	c.mu.Lock()
	c.done = true // a switch that has not begun never will
	out := c.output()
	c.mu.Unlock()
	outR.Close()
	errR.Close()
	if err != nil {
		return Output{}, Result{}, err
	}
	out.Overflow, out.Live, out.Cut, out.Stopped = c.overflow, c.live, c.cut, c.stopped[0] || c.stopped[1]
	return out, res, nil
}

// collector gathers both streams in arrival order.
//
// What it holds is read straight into chunks (a stream's bytes are the
// concatenation of its chunks) and nothing held is copied while only one
// stream has printed: on some machines (a VM whose host backs a guest
// page on its first touch) a fresh page costs ten times its copy, and a
// buffer grown by append touches several times what it ends up holding.
// Combined is then the one stream's bytes; it is kept as its own copy
// from the first byte of the second stream on.
type collector struct {
	mu       sync.Mutex
	limit    int
	held     int // both copies of what is held count (the limit's measure)
	chunks   [2][][]byte
	heldN    [2]int // bytes held of each stream
	comb     []byte // both streams interleaved; nil while one stream printed
	both     bool   // the two streams printed: comb is kept
	total    int64
	overflow bool
	w        [2]io.Writer
	broken   [2]bool
	spool    func(stream int, p []byte) error // nil, or after a failed write
	goLive   func(held Output) (stdout, stderr io.Writer)
	live     bool // w are GoLive's writers; the buffers keep what fits
	cut      bool // live, and past the limit: the buffers stopped growing
	done     bool // the run is over: too late to go live
	scratch  [2][]byte
	stop     func() (stdout, stderr bool)
	r        [2]*os.File // the read ends of the pipes
	stopped  [2]bool     // closed by stop
}

const (
	// chunkSize is the size of a chunk the capture reads into; past its
	// limit, of the buffer each stream is read into.
	chunkSize = 256 << 10
	// minRead is the least room a read is given: a chunk with less left
	// is followed by a new one.
	minRead = 16 << 10
)

func (c *collector) drain(wg *sync.WaitGroup, stream int, r io.Reader) {
	defer wg.Done()
	for {
		p := c.room(stream)
		n, err := r.Read(p)
		if n > 0 && !c.add(stream, p[:n]) {
			// The destination is gone: the program meets a closed pipe
			// now, as it would have writing there itself.
			if cl, ok := r.(io.Closer); ok {
				cl.Close()
			}
			return
		}
		if n > 0 && c.stopNow(stream) {
			return
		}
		if err != nil {
			return
		}
	}
}

// stopNow closes the pipes stop names (both drains may ask; each pipe
// is closed once) and reports whether stream's is closed.
func (c *collector) stopNow(stream int) bool {
	if c.stop == nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	out, errs := c.stop() // under the lock, as Spool is
	for s, now := range [2]bool{out, errs} {
		if now && !c.stopped[s] && c.r[s] != nil {
			c.stopped[s] = true
			c.r[s].Close() // a Read waiting on it returns at once
		}
	}
	return c.stopped[stream]
}

// room is where stream's next read goes: the free end of its last chunk
// while the output is held, else the stream's own scratch buffer (what
// is written through is not kept).
func (c *collector) room(stream int) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.holding() {
		if ch := c.chunks[stream]; len(ch) > 0 {
			last := ch[len(ch)-1]
			if cap(last)-len(last) >= minRead {
				return last[len(last):cap(last)]
			}
		}
		ch := make([]byte, 0, chunkSize)
		c.chunks[stream] = append(c.chunks[stream], ch)
		return ch[:cap(ch)]
	}
	if c.scratch[stream] == nil {
		c.scratch[stream] = make([]byte, chunkSize)
	}
	return c.scratch[stream]
}

// holding reports whether the next bytes may be held (c.mu is held).
func (c *collector) holding() bool {
	if c.live {
		return !c.cut
	}
	return !c.overflow
}

// switchLive hands what is held to goLive and passes the rest to the
// writers it returns.
func (c *collector) switchLive() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done || c.overflow || c.live {
		return
	}
	out, errw := c.goLive(c.output())
	c.w = [2]io.Writer{out, errw}
	c.live = true
}

// add keeps p, or passes it through once past the limit or live. It
// reports false when the stream's destination is broken.
func (c *collector) add(stream int, p []byte) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.total += int64(len(p))
	if c.spool != nil {
		if err := c.spool(stream, p); err != nil {
			c.spool = nil // a full disk costs the spool, not the run
		}
	}
	if c.live {
		c.write(stream, p)
		// The whole output is still held while it fits, for what recall
		// keeps; past the limit only its beginning.
		if !c.cut && c.held+2*len(p) > c.limit {
			c.cut = true
		}
		if !c.cut {
			c.hold(stream, p)
		}
		return !c.broken[stream]
	}
	if !c.overflow && c.held+2*len(p) > c.limit {
		c.overflow = true
		for s := range 2 {
			for _, ch := range c.chunks[s] {
				c.write(s, ch)
			}
			// A Writer keeps none of what it is given: the stream's
			// first chunk is its buffer from now on (no fresh memory).
			if ch := c.chunks[s]; len(ch) > 0 && cap(ch[0]) >= chunkSize {
				c.scratch[s] = ch[0][:cap(ch[0])]
			}
		}
		c.chunks, c.heldN, c.comb = [2][][]byte{}, [2]int{}, nil
	}
	if c.overflow {
		c.write(stream, p)
		return !c.broken[stream]
	}
	c.hold(stream, p)
	return true
}

// hold keeps p: in place when it was read into the free end of the
// stream's last chunk (room), else copied into a chunk of its own.
func (c *collector) hold(stream int, p []byte) {
	c.held += 2 * len(p)
	c.heldN[stream] += len(p)
	if !c.both && len(p) > 0 && c.heldN[1-stream] > 0 {
		// The second stream's first bytes: from now on the interleaving
		// is kept.
		c.both = true
		c.comb = join(c.chunks[1-stream])
	}
	ch := c.chunks[stream]
	if n := len(ch); n > 0 && len(p) > 0 {
		last := ch[n-1]
		if cap(last) > len(last) && &last[:len(last)+1][len(last)] == &p[0] {
			ch[n-1] = last[:len(last)+len(p)]
			if c.both {
				c.comb = append(c.comb, p...)
			}
			return
		}
	}
	c.chunks[stream] = append(ch, append([]byte(nil), p...))
	if c.both {
		c.comb = append(c.comb, p...)
	}
}

// output is what is held (c.mu is held).
func (c *collector) output() Output {
	o := Output{Stdout: join(c.chunks[0]), Stderr: join(c.chunks[1]), Total: c.total}
	switch {
	case c.both:
		o.Combined = c.comb
	case len(o.Stderr) > 0:
		o.Combined = o.Stderr
	default:
		o.Combined = o.Stdout
	}
	return o
}

// join is the chunks' bytes as one slice, capped at its length (an append
// to it copies: the same bytes may be two fields of an Output).
func join(chunks [][]byte) []byte {
	n, full := 0, 0
	var one []byte
	for _, ch := range chunks {
		if len(ch) > 0 {
			n += len(ch)
			full++
			one = ch
		}
	}
	switch full {
	case 0:
		return nil
	case 1:
		return one[:len(one):len(one)]
	}
	b := make([]byte, 0, n)
	for _, ch := range chunks {
		b = append(b, ch...)
	}
	return b
}

func (c *collector) write(stream int, p []byte) {
	if len(p) == 0 || c.broken[stream] {
		return
	}
	if _, err := c.w[stream].Write(p); err != nil {
		c.broken[stream] = true
	}
}

// command resolves argv[0] like a shell would, and reports failures the
// way a shell does.
func command(argv []string) (*exec.Cmd, error) {
	if len(argv) == 0 || argv[0] == "" {
		return nil, &StartError{Program: "''", Reason: "command not found", Code: 127}
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	if cmd.Err != nil {
		if errors.Is(cmd.Err, exec.ErrDot) {
			// A PATH entry like "." found it; a shell would run it.
			cmd.Err = nil
		} else {
			return nil, startError(argv[0], cmd.Err)
		}
	}
	if strings.ContainsRune(argv[0], os.PathSeparator) || strings.Contains(argv[0], "/") {
		if fi, err := os.Stat(argv[0]); err != nil {
			return nil, startError(argv[0], err)
		} else if fi.IsDir() {
			return nil, &StartError{Program: argv[0], Reason: "is a directory", Code: 126}
		}
	}
	return cmd, nil
}

func startError(prog string, err error) error {
	switch {
	case errors.Is(err, exec.ErrNotFound):
		return &StartError{Program: prog, Reason: "command not found", Code: 127}
	case errors.Is(err, fs.ErrNotExist):
		return &StartError{Program: prog, Reason: "no such file or directory", Code: 127}
	case errors.Is(err, fs.ErrPermission):
		return &StartError{Program: prog, Reason: "permission denied", Code: 126}
	}
	return &StartError{Program: prog, Reason: err.Error(), Code: 126}
}

func wait(cmd *exec.Cmd) (Result, error) {
	return startWait(cmd.Args[0], cmd, nil)
}

// LingerAfterExit is how long Capture keeps reading after the program
// exited while a background process it started still holds its output open.
var LingerAfterExit = 500 * time.Millisecond

// forwarded are the signals gotk passes on to the program instead of dying
// of them itself. A signal gotk was started with ignored (a background job
// ignores SIGINT) stays ignored, for gotk and for the program.
var forwarded = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

// fromTerminal reports whether s is a keyboard signal (^C, ^\\) that the
// program already received from the terminal: with a terminal on stdin the
// program is in the terminal's foreground group, as gotk is, so both got
// it. Elsewhere a SIGINT or SIGQUIT that reaches gotk alone is passed on.
func fromTerminal(s os.Signal) bool {
	if s != os.Interrupt && s != syscall.SIGQUIT {
		return false
	}
	return isatty.IsTerminal(os.Stdin.Fd())
}

// startWait starts cmd, calls started once it runs, forwards signals until
// the program exits, and decodes the exit status.
func startWait(prog string, cmd *exec.Cmd, started func()) (Result, error) {
	t0 := time.Now()
	p, err := spawn(cmd)
	if err != nil {
		return Result{}, startError(prog, err)
	}
	// Signals are caught from here on, not before the start: os/signal's
	// first Notify starts two threads (~0.25 ms of a cold process), which
	// now overlaps the program's own start-up instead of delaying it. A
	// signal in the instant before is as if it came before gotk ran at all
	// (the program, with Pdeathsig on Linux, goes with gotk).
	sigs := make(chan os.Signal, 4)
	for _, s := range forwarded {
		if !signal.Ignored(s) {
			signal.Notify(sigs, s)
		}
	}
	defer signal.Stop(sigs)
	SurviveClosedOutput()
	if started != nil {
		started()
	}
	done, forwarder := make(chan struct{}), make(chan struct{})
	var got os.Signal
	go func() {
		defer close(forwarder)
		for {
			select {
			case s := <-sigs:
				if got == nil {
					got = s
				}
				if fromTerminal(s) {
					// The terminal sent it to the whole foreground group, the
					// program included; a second one would mean "force quit"
					// to many tools (terraform, npm, go test).
					continue
				}
				p.signal(s)
			case <-done:
				return
			}
		}
	}()
	exit, died, err := p.wait()
	close(done)
	<-forwarder
	res := Result{Exit: exit, Duration: time.Since(t0), Signal: got, Died: died}
	return res, err
}

// SurviveClosedOutput makes a write to a closed stdout or stderr fail with
// EPIPE instead of killing gotk with SIGPIPE (Go's default for those two),
// so gotk still returns the program's exit code. It installs a handler,
// not SIG_IGN, so that programs started later begin with SIGPIPE at its
// default; a SIGPIPE gotk was started with ignored stays ignored.
func SurviveClosedOutput() {
	pipeOnce.Do(func() {
		if !signal.Ignored(syscall.SIGPIPE) {
			pipeSignals = make(chan os.Signal, 1)
			signal.Notify(pipeSignals, syscall.SIGPIPE)
		}
	})
}

var (
	pipeOnce sync.Once
	// pipeSignals gets a SIGPIPE when a write of gotk's met a closed pipe
	// (ClosedOutput); nil when SIGPIPE was ignored.
	pipeSignals chan os.Signal
)

// process is a started program.
type process interface {
	// signal passes s on to the program.
	signal(s os.Signal)
	// wait waits for the program to exit and returns its exit code as a
	// shell reports it, and the signal that ended it (nil: it exited).
	wait() (exit int, died os.Signal, err error)
}

// cmdProcess is a program started by os/exec.
type cmdProcess struct{ cmd *exec.Cmd }

// signal sends s to the program alone: a signal meant for its whole group
// reached it directly.
func (p cmdProcess) signal(s os.Signal) { p.cmd.Process.Signal(s) }

func (p cmdProcess) wait() (int, os.Signal, error) {
	err := p.cmd.Wait()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, nil, nil
	case errors.As(err, &ee):
		return exitCode(ee.ProcessState), diedOf(ee.ProcessState), nil
	}
	return 0, nil, err
}

// start starts cmd. "text file busy" means a script that was just written
// is still open for writing in some process (often a fork that has not
// reached exec yet): it clears within milliseconds, so try again briefly.
func start(cmd *exec.Cmd) error {
	return retryBusy(cmd.Start, func() error {
		// a Cmd starts once: the retry is a fresh copy
		retry := exec.Command(cmd.Path, cmd.Args[1:]...)
		retry.Args[0] = cmd.Args[0]
		retry.Stdin, retry.Stdout, retry.Stderr = cmd.Stdin, cmd.Stdout, cmd.Stderr
		retry.Env, retry.SysProcAttr = cmd.Env, cmd.SysProcAttr
		*cmd = *retry
		return cmd.Start()
	})
}

// retryBusy calls first, and while it fails with ETXTBSY (for at most
// about 200 ms) sleeps and calls again.
func retryBusy(first, again func() error) error {
	err := first()
	for wait := 5 * time.Millisecond; err != nil && errors.Is(err, syscall.ETXTBSY) && wait < 200*time.Millisecond; wait *= 2 {
		time.Sleep(wait)
		err = again()
	}
	return err
}

// diedOf is the signal that ended a process, nil when it exited.
func diedOf(ps *os.ProcessState) os.Signal {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ws.Signal()
	}
	return nil
}

// exitCode is the program's exit status as a shell reports it.
func exitCode(ps *os.ProcessState) int {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}
