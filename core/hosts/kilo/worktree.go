package kilo

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
)

// primaryDirs are the .kilocode and .kilo folders of the main checkout
// that Kilo also loads when its directory is in a linked git worktree
// (7.7.9, PrimaryWorktree.paths, spliced into its config folders after
// the global one): the main checkout's folders at the directory's place
// relative to the worktree's root, then at each level up to the main
// checkout's root. Kilo asks git (rev-parse, worktree list); gotk reads
// the same facts from the files: the worktree's .git file names its git
// folder, whose commondir file names the repository's; the main checkout
// is the folder holding that .git. A repository whose folder is not named
// .git and is not bare (a --separate-git-dir checkout) has a main
// checkout gotk cannot place: unsure is then true. Kilo's own working
// directory is the hook's, as for every project folder gotk reads.
func primaryDirs(cwd string) (dirs []string, unsure bool) {
	top := filepath.Clean(cwd)
	for {
		if fi, err := os.Lstat(filepath.Join(top, ".git")); err == nil {
			if fi.IsDir() {
				return nil, false // a main checkout: Kilo adds nothing
			}
			break
		}
		up := filepath.Dir(top)
		if up == top {
			return nil, false // not in a repository
		}
		top = up
	}
	gitDir, ok := gitdirOf(filepath.Join(top, ".git"))
	if !ok {
		return nil, true
	}
	common := gitDir
	switch data, err := os.ReadFile(filepath.Join(gitDir, "commondir")); {
	case err == nil:
		common = strings.TrimSpace(string(data))
		if !filepath.IsAbs(common) {
			common = filepath.Join(gitDir, common)
		}
	case os.IsNotExist(err):
		return nil, false // its own repository (a submodule): not linked
	default:
		return nil, true
	}
	common = filepath.Clean(common)
	var main string
	switch {
	case filepath.Base(common) == ".git":
		main = filepath.Dir(common)
	case isBare(common):
		return nil, false // git worktree list says bare: Kilo adds nothing
	default:
		return nil, true
	}
	if main == top {
		return nil, false
	}
	var parts []string
	if rel, err := filepath.Rel(top, filepath.Clean(cwd)); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
		parts = strings.Split(rel, string(filepath.Separator))
	}
	for n := len(parts); n >= 0; n-- {
		at := filepath.Join(append([]string{main}, parts[:n]...)...)
		dirs = append(dirs, filepath.Join(at, ".kilocode"), filepath.Join(at, ".kilo"))
	}
	return dirs, false
}

// gitdirOf reads a .git file: "gitdir: PATH", PATH relative to its folder.
func gitdirOf(file string) (string, bool) {
	data, err := os.ReadFile(file)
	if err != nil {
		return "", false
	}
	line, _, _ := bytes.Cut(data, []byte("\n"))
	d, ok := strings.CutPrefix(strings.TrimSpace(string(line)), "gitdir:")
	if d = strings.TrimSpace(d); !ok || d == "" {
		return "", false
	}
	if !filepath.IsAbs(d) {
		d = filepath.Join(filepath.Dir(file), d)
	}
	return filepath.Clean(d), true
}

// isBare: the repository's config says core.bare = true.
func isBare(common string) bool {
	f, err := os.Open(filepath.Join(common, "config"))
	if err != nil {
		return false
	}
	defer f.Close()
	section := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			section = strings.ToLower(strings.Trim(line, "[] \t"))
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if ok && section == "core" && strings.EqualFold(strings.TrimSpace(k), "bare") {
			return strings.EqualFold(strings.TrimSpace(v), "true")
		}
	}
	return false
}
