package shell

import "strings"

// Quote returns s as one POSIX shell word: unchanged when it holds only
// characters no shell treats specially, else single-quoted. Hooks use it
// for the gotk path they insert, the runner for the commands it records.
func Quote(s string) string {
	if s == "" {
		return "''"
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_@%+=:,./-", r)) {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return s
}
