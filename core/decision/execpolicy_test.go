package decision

// The decision tests read Codex's execpolicy files, as gotk-hook-codex and
// the gotk binary do.
import _ "github.com/gotk-dev/gotk/core/execpolicy/register"
