package hosts

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/host"
)

var updateReadme = flag.Bool("update-readme", false, "rewrite the README's agent table from the list")

// The README's agent table is made from All and Others, between these
// markers.
const (
	tableStart = "<!-- the table below is made from core/hosts: go test ./hosts -update-readme (in core) -->\n"
	tableEnd   = "<!-- end of the table made from core/hosts -->\n"
)

// table returns the README's agent table: a row for each host in all, then
// one for each agent in others that gotk does not serve, and why.
func table(all []*host.Def, others []host.Row) string {
	var b strings.Builder
	b.WriteString("| agent | `gotk-install --agent` | how gotk hooks in | proven in the real CLI (`make e2e`) |\n|---|---|---|---|\n")
	for _, d := range all {
		name := d.Table.Name
		if name == "" {
			name = d.Title
		}
		agent := "`" + d.Name + "`"
		if d.Table.Install != "" {
			agent += " " + d.Table.Install
		}
		b.WriteString("| " + name + " | " + agent + " | " + d.Table.How + " | " + d.Table.Proven + " |\n")
	}
	for _, r := range others {
		b.WriteString("| " + r.Name + " | " + r.Install + " | " + r.How + " | " + r.Proven + " |\n")
	}
	return b.String()
}

// TestReadmeTable: the README's agent table has a row for every host in
// the list and every agent gotk does not serve, as core/hosts says (the
// table once named 6 of 9 hooks).
func TestReadmeTable(t *testing.T) {
	path := filepath.Join("..", "..", "README.md")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i, j := strings.Index(s, tableStart), strings.Index(s, tableEnd)
	if i < 0 || j < i {
		t.Fatalf("README.md has no generated agent table (markers %q … %q)", tableStart, tableEnd)
	}
	want := table(All, Others)
	got := s[i+len(tableStart) : j]
	if got == want {
		return
	}
	if *updateReadme {
		if err := os.WriteFile(path, []byte(s[:i+len(tableStart)]+want+s[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README.md's agent table differs from core/hosts; run go test ./hosts -update-readme in core.\ngot:\n%swant:\n%s", got, want)
}
