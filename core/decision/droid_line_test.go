package decision

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/hosts/droid"

	"github.com/gotk-dev/gotk/core/permission"
)

// TestDroidLineSplit: Droid splits a line with its own scanner, not bash's
// grammar — a quote in a comment, a carriage return or a path before the
// program change what one of its parts holds — and matches each part
// against its lists. A list entry that matches across what bash runs as
// two commands keeps gotk out (no rewrite: Droid judges the original, so
// nothing is widened or narrowed); the same commands without the entry's
// words are still rewritten.
func TestDroidLineSplit(t *testing.T) {
	home := t.TempDir()
	p := filepath.Join(home, ".factory", "settings.json")
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(`{"commandDenylist":["chown -R","npm publish"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	e := &Engine{Host: droid.Host, Env: permission.Env{Getenv: func(string) string { return "" }, Home: home, Cwd: home}}
	within := Request{AutoAllow: true} // the model's risk within the session's autonomy
	run(t, e, within, []tc{
		{"ls -R", AllowRewrite, "gotk ls -R"},
		{"chown me f\nls", AllowRewrite, "chown me f\ngotk ls"},
		{"git status\nls -la", AllowRewrite, "gotk git status\ngotk ls -la"},
		{"chown me f\nls -R", Passthrough, ""},
		{"chown me f\r\nls -R", Passthrough, ""},
		{"chown me f # it's\nls -R", Passthrough, ""},
		{`/usr/bin/chown "-R" me f && ls`, Passthrough, ""},
		{`np"m" publish; git status`, Passthrough, ""},
	})
	// joined by a newline, any entry whose words fall in two commands
	for _, entry := range []string{"chown -R", "npm publish"} {
		w := strings.Fields(entry)
		for _, sep := range []string{"\n", "\r\n", " # '\n", " \\\n "} {
			cmd := w[0] + " x" + sep + "ls " + w[1]
			req := within
			req.Command = cmd
			if d := e.Decide(req); d.Verdict == AllowRewrite {
				t.Errorf("%q: allowed (%s)", cmd, d.Command)
			}
		}
	}
}
