package hookio

import (
	"fmt"
	"io"

	"github.com/gotk-dev/gotk/core/version"
)

// OwnFlags answers the command line a person (or `gotk doctor`) gives a
// hook binary, which no agent ever passes: --version prints
// "gotk-hook-NAME VERSION", --help a short usage. Neither reads stdin. It
// reports whether it answered; anything else is left to Run.
func OwnFlags(a Agent, args []string, w io.Writer) bool {
	if len(args) != 1 {
		return false
	}
	name := "gotk-hook-" + a.Name
	switch args[0] {
	case "--version":
		fmt.Fprintln(w, version.Line(name))
	case "--help", "-h":
		fmt.Fprintf(w, "Usage: %s < payload.json\n\n"+
			"The %s agent's pre-tool hook for gotk: it reads the agent's JSON payload on\n"+
			"stdin and prints the agent's answer (a token-saving rewrite, or its no-op).\n"+
			"It always exits 0. Install it with `gotk-install --agent %s`; check it with\n"+
			"`gotk verify`.\n", name, a.Name, a.Name)
	default:
		return false
	}
	return true
}
