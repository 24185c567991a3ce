package runner

import (
	"maps"
	"slices"
	"testing"

	"github.com/alecthomas/kong"
)

// TestSubcommandsAreTheGrammars: the words main hands to gotk's own
// commands are exactly the commands kong's grammar defines (and help), so
// a command defined there is never run as a program, and no name here
// lacks a command.
func TestSubcommandsAreTheGrammars(t *testing.T) {
	var g grammar
	p, err := kong.New(&g, grammarVars("gotk"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"help"}
	for _, c := range p.Model.Children {
		want = append(want, c.Name)
	}
	slices.Sort(want)
	got := slices.Sorted(maps.Keys(subcommands))
	if !slices.Equal(got, want) {
		t.Errorf("subcommands %v, the grammar's %v", got, want)
	}
}
