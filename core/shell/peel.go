package shell

import "strings"

// maxLayers bounds how many wrappers Peel sees through; deeper nesting is
// left alone.
const maxLayers = 10

// Peeled is a simple command seen through its transparent layers.
type Peeled struct {
	Prog     int      // index in Command.Words of the program word
	Layers   []string // the wrappers seen through, outermost first
	Disabled bool     // GOTK_DISABLED or RTK_DISABLED is assigned for this command
}

// Peel sees through leading NAME=value assignments, env (with its options
// and assignments), and the wrappers that run their operand unchanged:
// timeout, nice, nohup, time, command, exec, noglob, nocorrect, and the
// user's transparent prefixes (each a list of literal words). It returns
// false when the program cannot be found with certainty, or when putting
// gotk in front of it would not run the same program: a wrapper with an
// option it does not know, `command -v` or `-p` (the default PATH has no
// gotk), `env -i`, `-u`, `-S` or `PATH=…`, `builtin` (gotk is no builtin),
// `exec -a`/`-c`, too many layers, or a Command that is not Simple.
func (c *Command) Peel(prefixes [][]string) (Peeled, bool) {
	var p Peeled
	if c.Kind != Simple {
		return p, false // no program: a statement of the shell
	}
	for _, a := range c.Assigns {
		if isDisableVar(a.Name) {
			p.Disabled = true
		}
	}
	w := c.Words
	i := 0
	for depth := 0; ; depth++ {
		if i >= len(w) || depth > maxLayers {
			return p, false
		}
		if !w[i].Literal {
			p.Prog = i
			return p, true
		}
		if n := matchPrefix(w[i:], prefixes); n > 0 {
			p.Layers = append(p.Layers, joinValues(w[i:i+n]))
			i += n
			continue
		}
		head := w[i].Value
		next, ok := -1, true
		switch head {
		case "env":
			next, ok = peelEnv(w, i+1, &p)
		case "timeout":
			next, ok = peelTimeout(w, i+1)
		case "nice":
			next, ok = peelNice(w, i+1)
		case "nohup", "noglob", "nocorrect":
			next = skipDashDash(w, i+1)
		case "builtin":
			ok = false // `builtin gotk` is an error, not gotk
		case "command":
			next = i + 1
			if next < len(w) && (!w[next].Literal || strings.HasPrefix(w[next].Value, "-")) {
				ok = false // -v / -V only look the name up; -p searches a PATH without gotk
			}
		case "exec":
			next = i + 1
			if next < len(w) && (!w[next].Literal || strings.HasPrefix(w[next].Value, "-")) {
				ok = false // exec -a NAME changes argv[0]
			}
		case "time":
			next = i + 1
			for next < len(w) && w[next].Literal && (w[next].Value == "-p" || w[next].Value == "--") {
				next++
			}
		default:
			p.Prog = i
			return p, true
		}
		if !ok {
			return p, false
		}
		p.Layers = append(p.Layers, head)
		i = next
	}
}

func isDisableVar(name string) bool {
	return name == "GOTK_DISABLED" || name == "RTK_DISABLED"
}

func skipDashDash(w []Word, i int) int {
	if i < len(w) && w[i].Literal && w[i].Value == "--" {
		return i + 1
	}
	return i
}

func peelEnv(w []Word, i int, p *Peeled) (int, bool) {
	for i < len(w) {
		if !w[i].Literal {
			return i, false
		}
		v := w[i].Value
		switch {
		case v == "--":
			return i + 1, true
		case v == "-0" || v == "--null" || v == "-v" || v == "--debug":
			i++
		case v == "-C" || v == "--chdir":
			i += 2
		case strings.HasPrefix(v, "--chdir=") || (len(v) > 2 && strings.HasPrefix(v, "-C")):
			i++
		case v == "-u" || v == "--unset":
			if i+1 >= len(w) || !w[i+1].Literal || w[i+1].Value == "PATH" {
				return i, false
			}
			i += 2
		case strings.HasPrefix(v, "--unset=") || (len(v) > 2 && strings.HasPrefix(v, "-u")):
			if name := strings.TrimPrefix(strings.TrimPrefix(v, "--unset="), "-u"); name == "PATH" {
				return i, false
			}
			i++
		case strings.HasPrefix(v, "-"):
			// -i empties the environment gotk runs in (PATH goes with it);
			// -S splits a string into a command.
			return i, false
		case isAssignment(v):
			name := v[:strings.IndexByte(v, '=')]
			if isDisableVar(name) {
				p.Disabled = true
			}
			if name == "PATH" {
				return i, false // the program is looked up in another PATH
			}
			i++
		default:
			return i, true
		}
	}
	return i, true
}

func isAssignment(v string) bool {
	eq := strings.IndexByte(v, '=')
	if eq <= 0 {
		return false
	}
	for k, r := range v[:eq] {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || k > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

func peelTimeout(w []Word, i int) (int, bool) {
	for i < len(w) && w[i].Literal && strings.HasPrefix(w[i].Value, "-") {
		v := w[i].Value
		switch {
		case v == "--":
			i++
			goto duration
		case v == "-s" || v == "-k" || v == "--signal" || v == "--kill-after":
			i += 2
		case v == "--preserve-status" || v == "--foreground" || v == "-v" || v == "--verbose" ||
			strings.HasPrefix(v, "--signal=") || strings.HasPrefix(v, "--kill-after=") ||
			(len(v) > 2 && (strings.HasPrefix(v, "-s") || strings.HasPrefix(v, "-k"))):
			i++
		default:
			return i, false
		}
	}
duration:
	if i >= len(w) || !w[i].Literal || !isDuration(w[i].Value) {
		return i, false
	}
	return i + 1, true
}

func isDuration(v string) bool {
	v = strings.TrimRight(v, "smhd")
	if v == "" {
		return false
	}
	for _, r := range v {
		if !(r >= '0' && r <= '9' || r == '.') {
			return false
		}
	}
	return true
}

func peelNice(w []Word, i int) (int, bool) {
	if i < len(w) && w[i].Literal {
		v := w[i].Value
		switch {
		case v == "-n" || v == "--adjustment":
			i += 2
		case strings.HasPrefix(v, "--adjustment=") || (strings.HasPrefix(v, "-n") && len(v) > 2) ||
			(len(v) > 1 && v[0] == '-' && isSignedInt(v[1:])):
			i++
		case strings.HasPrefix(v, "-") && v != "--":
			return i, false
		}
	}
	return skipDashDash(w, i), true
}

func isSignedInt(v string) bool {
	return IsDigits(strings.TrimPrefix(v, "-"))
}

func matchPrefix(w []Word, prefixes [][]string) int {
	best := 0
	for _, pre := range prefixes {
		if len(pre) == 0 || len(pre) > len(w) || len(pre) <= best {
			continue
		}
		ok := true
		for k, s := range pre {
			if !w[k].Literal || w[k].Value != s {
				ok = false
				break
			}
		}
		if ok {
			best = len(pre)
		}
	}
	return best
}

func joinValues(w []Word) string {
	parts := make([]string, len(w))
	for i, x := range w {
		parts[i] = x.Value
	}
	return strings.Join(parts, " ")
}
