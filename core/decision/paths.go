package decision

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/gotk-dev/gotk/core/registry"
)

// where says whether the files a command names are inside the host's
// working directories.
type where int

const (
	inside  where = iota
	outside       // a path resolves outside: the host asks
	unsure        // gotk cannot tell (an expansion, a `cd` on the line, a cwd outside)
)

// workDirs resolves the host's working directories (relative entries are
// relative to the first), symlinks followed.
func workDirs(dirs []string) []string {
	var out []string
	for i, d := range dirs {
		if !filepath.IsAbs(d) {
			if i == 0 {
				continue
			}
			d = filepath.Join(dirs[0], d)
		}
		out = append(out, resolve(d))
	}
	return out
}

// locate says where the files named by argv (a read-only command) are:
// every operand, the value of every `--opt=value` and the attached value
// of every `-xVALUE` is taken for a path — relative to cwd, symlinks
// followed, `..` applied after the link it follows, as the kernel does.
// That covers file-valued options by construction (grep --file=F, -fF,
// tree --fromfile F, git diff --no-index A B, diff, wc, head, tail); a
// value that is not a path resolves inside cwd and costs nothing. The
// working directory itself must be inside too: a relative path, or none,
// means cwd.
func locate(argv []string, cwd string, dirs []string) where {
	if cwd == "" || len(dirs) == 0 || !filepath.IsAbs(cwd) {
		return unsure
	}
	here := within(resolve(cwd), dirs)
	verdict, named := inside, false
	for _, a := range argv[1:] {
		if a == registry.Unknown {
			return unsure
		}
		for _, p := range pathCandidates(a) {
			named = true
			if strings.HasPrefix(p, "~") {
				verdict = outside
				continue
			}
			if !filepath.IsAbs(p) {
				p = cwd + string(filepath.Separator) + p
			}
			if !within(resolve(p), dirs) {
				verdict = outside
			}
		}
	}
	if !here && !named {
		// Outside the working directories and naming nothing: the command
		// may read the directory itself (ls, git log); whether the host
		// asks then is not something gotk has measured.
		return unsure
	}
	return verdict
}

// locateAll is locate from every directory the line may be in.
func locateAll(argv []string, cwds []string, dirs []string) where {
	w := inside
	for _, c := range cwds {
		switch locate(argv, c, dirs) {
		case unsure:
			return unsure
		case outside:
			w = outside
		}
	}
	return w
}

// pathCandidates returns the parts of one argument that may name a file.
func pathCandidates(a string) []string {
	switch {
	case a == "" || a == "-" || a == "--":
		return nil
	case strings.HasPrefix(a, "--"):
		if _, v, ok := strings.Cut(a, "="); ok && v != "" {
			return []string{v}
		}
		return nil
	case strings.HasPrefix(a, "-"):
		var out []string
		if len(a) > 2 {
			out = append(out, a[2:])
		}
		if _, v, ok := strings.Cut(a, "="); ok && v != "" {
			out = append(out, v)
		}
		return out
	}
	return []string{a}
}

// within: p is one of dirs or below one.
func within(p string, dirs []string) bool {
	for _, d := range dirs {
		rel, err := filepath.Rel(d, p)
		if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// resolve returns the physical path of an absolute path, as the kernel
// would walk it: each symlink followed where it stands (also a dangling
// one: its target is where a later write or read would go), each `..`
// applied to the physical directory reached so far; from the first
// component that does not exist on, the rest is lexical — no link can hide
// in what does not exist. A loop of links resolves to "", which is inside
// nothing.
func resolve(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return walk(p, 0)
}

func walk(p string, hops int) string {
	const sep = string(filepath.Separator)
	parts := strings.Split(p, sep)
	cur := sep
	for i, c := range parts {
		switch c {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, c)
		fi, err := os.Lstat(next)
		if err != nil {
			return filepath.Join(append([]string{next}, parts[i+1:]...)...)
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			t, err := os.Readlink(next)
			if err != nil || hops >= 40 {
				return ""
			}
			if !filepath.IsAbs(t) {
				t = cur + sep + t
			}
			return walk(t+sep+strings.Join(parts[i+1:], sep), hops+1)
		}
		cur = next
	}
	return cur
}
