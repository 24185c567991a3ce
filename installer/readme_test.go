package installer_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeForANewcomer: the README stays short (reference lives in
// docs/), and every link in it resolves to a file of this repository.
func TestReadmeForANewcomer(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n"); n > 150 {
		t.Errorf("README.md has %d lines; at most 150 (move reference to docs/)", n)
	}
}

// TestDocLinksResolve: every relative link of the README, CONTRIBUTING and
// docs/ resolves to a file of this repository, and none leaves it.
func TestDocLinksResolve(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "docs", "*.md"))
	files = append(files, filepath.Join("..", "README.md"), filepath.Join("..", "CONTRIBUTING.md"))
	root, _ := filepath.Abs("..")
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(b), -1) {
			target := strings.SplitN(m[1], "#", 2)[0]
			if target == "" || strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue // an anchor, or a page on the web
			}
			p, _ := filepath.Abs(filepath.Join(filepath.Dir(f), target))
			if !strings.HasPrefix(p, root+string(filepath.Separator)) {
				t.Errorf("%s links outside the repository: %s", f, m[1])
				continue
			}
			if _, err := os.Stat(p); err != nil {
				t.Errorf("%s links to %s, which does not exist", f, m[1])
			}
		}
	}
}
