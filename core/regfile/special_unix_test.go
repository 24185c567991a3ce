//go:build unix

package regfile

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/gotk-dev/gotk/core/regfile/regfiletest"
)

func TestReadRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	for i, kind := range regfiletest.Kinds {
		t.Run(kind, func(t *testing.T) {
			p := filepath.Join(dir, string(rune('a'+i)))
			regfiletest.Make(t, kind, p)
			regfiletest.Within(t, func() {
				_, err := Read(p, MaxRules)
				if !errors.Is(err, ErrNotRegular) || !Skipped(err) {
					t.Errorf("Read(%s) = %v, want ErrNotRegular", p, err)
				}
				if f, err := Open(p); err == nil {
					f.Close()
					t.Errorf("Open(%s) succeeded", p)
				}
				if _, err := ReadDir(p); kind != "directory" && !Skipped(err) {
					t.Errorf("ReadDir(%s) = %v, want ErrNotRegular", p, err)
				}
			})
		})
	}
}
