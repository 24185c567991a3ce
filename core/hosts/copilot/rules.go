package copilot

import (
	"strings"

	"github.com/gotk-dev/gotk/core/permission"
	"github.com/gotk-dev/gotk/core/shell"
)

// Rules holds no rule of Copilot's (its rules are flags, read from its
// process): it only keeps gotk from rewriting a line that names a path
// outside the working directory or a URL. Under --allow-all-tools alone
// such a command still needs its own path or URL approval, and the
// hook's allow, which gotk answers with its rewrite, gets past it
// (measured on 1.0.102: `cat /etc/hostname` is refused in -p, and ran
// as gotk's rewrite).
func Rules(r *permission.Rules, env permission.Env) {
	r.Same = func(orig, _ string) bool { return !namesPathOrURL(orig) }
}

// namesPathOrURL: a word of line (or an option's value) is an absolute,
// home or parent-directory path, or a URL; a line gotk cannot parse counts
// as one.
func namesPathOrURL(line string) bool {
	s, err := shell.Parse(line)
	if err != nil {
		return true
	}
	for _, c := range s.Commands {
		for _, w := range c.Words {
			v := w.Value
			if !w.Literal {
				v = w.Raw
			}
			if _, after, ok := strings.Cut(v, "="); ok && strings.HasPrefix(v, "-") {
				v = after
			}
			if strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~") || v == ".." || strings.HasPrefix(v, "../") ||
				strings.Contains(v, "/../") || strings.HasSuffix(v, "/..") || strings.Contains(v, "://") {
				return true
			}
		}
	}
	return false
}
