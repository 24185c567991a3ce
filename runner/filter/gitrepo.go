package filter

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// gitLongFormatDefault reports whether `git status` as typed (argv, with
// its subcommand at index at) prints the long format as git does with its
// defaults, in English, outside any operation in progress: what Plain
// rebuilds. It looks where git would: the environment, the global options
// before the subcommand, the git directory found from the working
// directory (-C followed), its state files and every config file git
// reads. Anything it cannot vouch for is a no. With no environment known
// (in.Getenv nil: a stored run) it assumes the defaults.
func gitLongFormatDefault(in Input, at int) bool {
	getenv := in.Getenv
	if getenv == nil {
		return true
	}
	if !englishMessages(getenv) {
		return false
	}
	for _, k := range []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_INDEX_FILE", "GIT_CONFIG",
		"GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM"} {
		if getenv(k) != "" {
			return false
		}
	}
	dir := in.Dir
	if dir == "" {
		return false
	}
	for i := in.Tool + 1; i < at; i++ {
		switch a := in.Argv[i]; {
		case a == "-C" && i+1 < at:
			i++
			if p := in.Argv[i]; p != "" {
				if !filepath.IsAbs(p) {
					p = filepath.Join(dir, p)
				}
				dir = p
			}
		case slices.Contains([]string{"--no-pager", "-P", "--paginate", "-p", "--no-optional-locks", "--literal-pathspecs",
			"--glob-pathspecs", "--noglob-pathspecs", "--icase-pathspecs", "--no-replace-objects"}, a):
		default:
			return false // -c, --git-dir, --work-tree, --bare, …
		}
	}
	gitDir, common, ok := findGitDir(dir)
	if !ok {
		return false
	}
	// An operation in progress prints its own banner.
	for _, f := range []string{"MERGE_HEAD", "rebase-apply", "rebase-merge", "CHERRY_PICK_HEAD", "REVERT_HEAD", "BISECT_LOG", "sequencer"} {
		if _, err := os.Lstat(filepath.Join(gitDir, f)); err == nil {
			return false
		}
	}
	for _, f := range gitConfigFiles(getenv, gitDir, common) {
		data, err := os.ReadFile(f)
		if err != nil {
			continue // absent, as usual; unreadable, git would say so
		}
		if !defaultStatusConfig(data) {
			return false
		}
	}
	return true
}

// englishMessages reports whether git prints its messages untranslated:
// the C or POSIX locale (gettext then ignores LANGUAGE), or an English one
// with no other language first in LANGUAGE.
func englishMessages(getenv func(string) string) bool {
	loc := ""
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if loc = getenv(k); loc != "" {
			break
		}
	}
	if loc == "" || loc == "C" || loc == "POSIX" || strings.HasPrefix(loc, "C.") {
		return true
	}
	if !strings.HasPrefix(loc, "en") {
		return false
	}
	for _, l := range strings.Split(getenv("LANGUAGE"), ":") {
		if l != "" && !strings.HasPrefix(l, "en") {
			return false
		}
	}
	return true
}

// findGitDir walks up from dir as git's discovery does: the first .git
// directory, or .git file naming one (a linked worktree, a submodule).
// common is the directory holding the shared config (commondir).
func findGitDir(dir string) (gitDir, common string, ok bool) {
	for d := filepath.Clean(dir); ; {
		p := filepath.Join(d, ".git")
		fi, err := os.Stat(p)
		switch {
		case err == nil && fi.IsDir():
			gitDir = p
		case err == nil:
			data, err := os.ReadFile(p)
			rest, found := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir: ")
			if err != nil || !found {
				return "", "", false
			}
			if !filepath.IsAbs(rest) {
				rest = filepath.Join(d, rest)
			}
			gitDir = rest
		}
		if gitDir != "" {
			if _, err := os.Stat(filepath.Join(gitDir, "HEAD")); err != nil {
				return "", "", false
			}
			common = gitDir
			if c, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
				common = strings.TrimSpace(string(c))
				if !filepath.IsAbs(common) {
					common = filepath.Join(gitDir, common)
				}
			}
			return gitDir, common, true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", "", false
		}
		d = parent
	}
}

// gitConfigFiles are the files git reads its configuration from: system
// (at the usual prefixes), global, the repository's and the worktree's.
func gitConfigFiles(getenv func(string) string, gitDir, common string) []string {
	var files []string
	if getenv("GIT_CONFIG_NOSYSTEM") == "" {
		if f := getenv("GIT_CONFIG_SYSTEM"); f != "" {
			files = append(files, f)
		} else {
			files = append(files, "/etc/gitconfig", "/usr/local/etc/gitconfig", "/opt/homebrew/etc/gitconfig")
		}
	}
	if f := getenv("GIT_CONFIG_GLOBAL"); f != "" {
		files = append(files, f)
	} else {
		home := getenv("HOME")
		xdg := getenv("XDG_CONFIG_HOME")
		if xdg == "" && home != "" {
			xdg = filepath.Join(home, ".config")
		}
		if xdg != "" {
			files = append(files, filepath.Join(xdg, "git", "config"))
		}
		if home != "" {
			files = append(files, filepath.Join(home, ".gitconfig"))
		}
	}
	files = append(files, filepath.Join(common, "config"), filepath.Join(gitDir, "config.worktree"))
	return files
}

// defaultStatusConfig reports whether a config file leaves the long
// format as git prints it by default: no status.* key (short, branch,
// showStash, displayCommentPrefix, submoduleSummary, …), no
// advice.statusHints, no color or columns forced on for a pipe, no sparse
// checkout, and no include of another file (it could hold any of these).
func defaultStatusConfig(data []byte) bool {
	section := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if l == "" || l[0] == '#' || l[0] == ';' {
			continue
		}
		if l[0] == '[' {
			end := strings.IndexAny(l, " \t\"]")
			if end < 0 {
				return false
			}
			section = strings.ToLower(l[1:end])
			if section == "include" || section == "includeif" || section == "status" {
				return false
			}
			rest := strings.TrimSpace(l[strings.IndexByte(l, ']')+1:])
			if strings.IndexByte(l, ']') < 0 || rest == "" || rest[0] == '#' || rest[0] == ';' {
				continue
			}
			l = rest // a key on the section's line
		}
		key, val, _ := strings.Cut(l, "=")
		key = strings.ToLower(strings.TrimSpace(key))
		val = strings.ToLower(strings.Trim(strings.TrimSpace(val), `"`))
		switch section + "." + key {
		case "advice.statushints", "core.sparsecheckout":
			return false
		case "color.ui", "color.status", "column.ui", "column.status":
			if strings.Contains(val, "always") {
				return false
			}
		}
	}
	return sc.Err() == nil
}
