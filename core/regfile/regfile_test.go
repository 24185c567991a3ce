package regfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestReadBoundsAndPassesThrough(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	if err := os.WriteFile(p, []byte("12345"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, err := Read(p, 5); err != nil || string(b) != "12345" {
		t.Errorf("Read at the limit = %q, %v", b, err)
	}
	if _, err := Read(p, 4); !errors.Is(err, ErrTooLarge) || !Skipped(err) {
		t.Errorf("Read over the limit = %v, want ErrTooLarge", err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(p, link); err != nil {
		t.Fatal(err)
	}
	if b, err := Read(link, 5); err != nil || string(b) != "12345" {
		t.Errorf("Read through a symlink = %q, %v", b, err)
	}
	_, err := Read(filepath.Join(dir, "missing"), 5)
	if !errors.Is(err, fs.ErrNotExist) || Skipped(err) {
		t.Errorf("Read(missing) = %v, want ErrNotExist", err)
	}
}
