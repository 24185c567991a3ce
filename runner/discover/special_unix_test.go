//go:build unix

package discover

import (
	"path/filepath"
	"testing"

	"github.com/gotk-dev/gotk/core/regfile/regfiletest"
)

// TestSpecialFiles: a transcript, database or project file that is a
// FIFO, a link to /dev/zero or a device is skipped and reported as
// unreadable; the scan neither hangs nor dies.
func TestSpecialFiles(t *testing.T) {
	for _, path := range []string{
		".copilot/session-state/s1/events.jsonl",
		".pi/agent/sessions/p/s.jsonl",
		".local/share/opencode/opencode.db",
		".gemini/tmp/p/.project_root",
		".gemini/projects.json",
	} {
		for _, kind := range regfiletest.Kinds {
			if kind == "directory" {
				continue // not a file the globs and walks name
			}
			t.Run(path+"/"+kind, func(t *testing.T) {
				home := t.TempDir()
				// A Gemini session for the project files to be looked up.
				writeFile(t, filepath.Join(home, ".gemini", "tmp", "p", "chats", "session-1.jsonl"), "{}\n")
				regfiletest.Make(t, kind, filepath.Join(home, path))
				var rep *Report
				regfiletest.Within(t, func() { rep = Scan(Options{Env: Env{Home: home}, Workers: 1}) })
				if filepath.Base(path) == ".project_root" || filepath.Base(path) == "projects.json" {
					return // the project is then unknown; nothing to report
				}
				if len(rep.Scanned.Unreadable) != 1 {
					t.Errorf("unreadable %q, want the one special file", rep.Scanned.Unreadable)
				}
			})
		}
	}
}
