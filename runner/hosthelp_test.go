package runner

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/hosts"
)

// TestHostHelpNamesEveryHost: the --host help of rewrite and explain is made
// from the hosts core defines, so it names each of them (it once named 9 of
// 13).
func TestHostHelpNamesEveryHost(t *testing.T) {
	for _, cmd := range []string{"rewrite", "explain"} {
		var out bytes.Buffer
		a := &app{stdout: &out, stderr: &out, getenv: os.Getenv, getwd: os.Getwd}
		a.command([]string{cmd, "--help"})
		help := strings.Join(strings.Fields(out.String()), " ")
		if !strings.Contains(help, "--host=HOST") {
			t.Fatalf("gotk %s --help has no --host:\n%s", cmd, out.String())
		}
		for _, h := range hosts.Names() {
			if !strings.Contains(help, h+",") && !strings.Contains(help, h+" (default") {
				t.Errorf("gotk %s --help does not name host %q:\n%s", cmd, h, help)
			}
		}
	}
}
