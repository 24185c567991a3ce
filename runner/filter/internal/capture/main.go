// Command capture records one corpus case for package filter: it runs a
// command the way gotk would (with the flags the filter's Args adds) and
// writes testdata/<case>/{cmd,stdout,stderr}. When the filter added flags,
// it also runs the command as typed and writes testdata/<case>/baseline
// (both streams): what the model would have seen without gotk. The golden file is then
// written by `go test ./filter -run TestCorpus -update`.
//
//	go run ./filter/internal/capture -dir /some/repo -case git-status-mixed -- git status
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/gotk-dev/gotk/core/registry"
	"github.com/gotk-dev/gotk/runner/filter"
)

func main() {
	dir := flag.String("dir", ".", "directory to run the command in")
	name := flag.String("case", "", "case name (testdata/<case>)")
	note := flag.String("note", "", "what the case shows (a comment in cmd)")
	out := flag.String("testdata", "filter/testdata", "corpus directory")
	flag.Parse()
	argv := flag.Args()
	if *name == "" || len(argv) == 0 {
		fmt.Fprintln(os.Stderr, "capture: usage: capture -case NAME [-dir DIR] -- ARGV...")
		os.Exit(2)
	}
	m, ok := registry.Classify(argv)
	if !ok {
		fmt.Fprintf(os.Stderr, "capture: %q matches no registry rule; nothing was written\n", strings.Join(argv, " "))
		os.Exit(1)
	}
	f := filter.For(m.Rule.Handler)
	if f == nil {
		fmt.Fprintf(os.Stderr, "capture: no filter for handler %q\n", m.Rule.Handler)
		os.Exit(1)
	}
	ran := f.Args(argv, m.Tool)
	cmd := exec.Command(ran[0], ran[1:]...)
	cmd.Dir = *dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	code := 0
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			fmt.Fprintln(os.Stderr, "capture:", err)
			os.Exit(1)
		}
		code = ee.ExitCode()
	}
	caseDir := filepath.Join(*out, *name)
	if err := os.MkdirAll(caseDir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "capture:", err)
		os.Exit(1)
	}
	ranJSON, _ := json.Marshal(ran)
	var c strings.Builder
	fmt.Fprintf(&c, "# ran: %s\n", ranJSON)
	if *note != "" {
		fmt.Fprintf(&c, "# note: %s\n", *note)
	}
	if abs, err := filepath.Abs(*dir); err == nil {
		// the working directory: filters show paths under it relative
		fmt.Fprintf(&c, "# dir: %s\n", abs)
	}
	for _, a := range argv {
		c.WriteString(a + "\n")
	}
	fmt.Fprintf(&c, "exit %d\n", code)
	for file, data := range map[string][]byte{"cmd": []byte(c.String()), "stdout": stdout.Bytes(), "stderr": stderr.Bytes()} {
		if err := os.WriteFile(filepath.Join(caseDir, file), data, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "capture:", err)
			os.Exit(1)
		}
	}
	if strings.Join(ran, "\x00") != strings.Join(argv, "\x00") {
		// What the model would have seen without gotk: the bench measures
		// savings against this, not against the machine-readable form.
		base := exec.Command(argv[0], argv[1:]...)
		base.Dir = *dir
		var b bytes.Buffer
		base.Stdout, base.Stderr = &b, &b
		_ = base.Run()
		if err := os.WriteFile(filepath.Join(caseDir, "baseline"), b.Bytes(), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "capture:", err)
			os.Exit(1)
		}
	}
	fmt.Printf("%s: exit %d, %d+%d bytes (%s)\n", *name, code, stdout.Len(), stderr.Len(), strings.Join(ran, " "))
}
