package install

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPromptOnTerminal: on a terminal, gotk-install asks first; anything
// but y leaves every file as it was. --yes does not ask.
func TestPromptOnTerminal(t *testing.T) {
	e, home := testEnv(t)
	e.IsTTY = true
	e.Stdin = strings.NewReader("n\n")
	out := &bytes.Buffer{}
	e.Stdout = out
	if c := Main([]string{"--agent", "claude"}, e); c != 1 {
		t.Fatalf("exit %d", c)
	}
	if !strings.Contains(out.String(), "Apply these changes? [y/N] nothing was changed") {
		t.Fatalf("output:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(home, ".claude")); !os.IsNotExist(err) {
		t.Fatal("a refused install wrote files")
	}
	e.Stdin = strings.NewReader("y\n")
	if c := Main([]string{"--agent", "claude"}, e); c != 0 {
		t.Fatalf("exit %d", c)
	}
	e.Stdin = strings.NewReader("")
	out.Reset()
	if c := Main([]string{"--agent", "claude", "--uninstall", "--yes"}, e); c != 0 || strings.Contains(out.String(), "Apply") {
		t.Fatalf("exit %d:\n%s", c, out)
	}
}
