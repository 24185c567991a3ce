package filter

import (
	"fmt"
	"slices"
	"strings"
)

// psList renders ps listings (ps aux, ps -ef, ps -eo …): every process of
// the user's stays as ps printed it; the kernel's own threads — a command
// in brackets, with no memory when ps shows it (VSZ and RSS 0) — fold into
// one line naming each with a count ("kworker/* ×23"), since most of a
// listing on Linux is those. The rest goes through the systemctl/ps
// declarative filter: long lines cut and the listing capped, each saying
// how to see the rest.
type psList struct{ same }

// Render folds kernel threads, then applies the declarative filter.
func (psList) Render(in Input) (Output, error) {
	rest := builtinFilter("systemctl")
	if rest == nil {
		return raw(in), nil
	}
	ls := lines(in.Stdout)
	if len(ls) < 2 {
		return rest.Render(in)
	}
	head := strings.Fields(ls[0])
	cmdCol := len(head) - 1 // the command is the last column and holds blanks
	if cmdCol < 1 || !slices.Contains(head, "PID") || !slices.Contains([]string{"COMMAND", "CMD", "ARGS"}, head[cmdCol]) {
		return rest.Render(in)
	}
	vsz, rss := slices.Index(head, "VSZ"), slices.Index(head, "RSS")
	kept := []string{ls[0]}
	var names []string
	count := map[string]int{}
	threads := 0
	for _, l := range ls[1:] {
		f := strings.Fields(l)
		if len(f) <= cmdCol {
			kept = append(kept, l)
			continue
		}
		cmd := strings.Join(f[cmdCol:], " ")
		if !kernelThread(f, cmd, vsz, rss) {
			kept = append(kept, l)
			continue
		}
		threads++
		name := strings.Trim(cmd, "[]")
		if i := strings.IndexByte(name, '/'); i > 0 {
			name = name[:i] + "/*" // kworker/0:1-events, ksoftirqd/1: one name each
		}
		if count[name] == 0 {
			names = append(names, name)
		}
		count[name]++
	}
	if threads < 2 {
		return rest.Render(in)
	}
	for i, n := range names {
		if count[n] > 1 {
			names[i] = fmt.Sprintf("%s ×%d", n, count[n])
		}
	}
	in.Stdout = join(kept)
	out, err := rest.Render(in)
	if err != nil {
		return out, err
	}
	// after the declarative pass, which would cut this line like the others
	note := fmt.Sprintf("(%s not shown: %s; %s)", plural(threads, "kernel thread", "kernel threads"), strings.Join(names, ", "), in.Recall())
	out.Stdout = append(out.Stdout, note+"\n"...)
	return out, nil
}

// kernelThread: a bracketed command (cmd, the line's fields from the
// command column on) with no memory of its own (where ps shows VSZ and
// RSS: columns before the command's, of the fields f).
func kernelThread(f []string, cmd string, vsz, rss int) bool {
	if !strings.HasPrefix(cmd, "[") || !strings.HasSuffix(cmd, "]") {
		return false
	}
	for _, c := range []int{vsz, rss} {
		if c >= 0 && (c >= len(f) || f[c] != "0") {
			return false
		}
	}
	return true
}
