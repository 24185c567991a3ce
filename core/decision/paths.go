package decision

import (
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

// resolve returns the physical path of an absolute path: symlinks followed
// (and each `..` applied to where the link before it led, as the kernel
// does) for its longest existing prefix, the rest applied lexically — it
// does not exist, so no link can hide in it.
func resolve(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	sep := string(filepath.Separator)
	parts := strings.Split(p, sep)
	for k := len(parts) - 1; k > 0; k-- {
		prefix := strings.Join(parts[:k], sep)
		if prefix == "" {
			prefix = sep
		}
		if r, err := filepath.EvalSymlinks(prefix); err == nil {
			return filepath.Join(append([]string{r}, parts[k:]...)...)
		}
	}
	return filepath.Clean(p)
}
