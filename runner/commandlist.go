package runner

import (
	"fmt"
	"text/tabwriter"

	"github.com/gotk-dev/gotk/core/registry"
)

// commands prints `gotk commands`: every command the registry compacts, as a
// person types it, with its family, families in the table's order.
func (a *app) commands() int {
	var order []registry.Category
	seen := map[registry.Category]bool{}
	for _, r := range registry.Rules() {
		if !seen[r.Category] {
			seen[r.Category] = true
			order = append(order, r.Category)
		}
	}
	cmds := registry.Commands()
	tw := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "FAMILY\tCOMMAND")
	for _, c := range order {
		for _, name := range cmds[c] {
			fmt.Fprintf(tw, "%s\t%s\n", c, name)
		}
	}
	tw.Flush()
	return 0
}
