package registry

import (
	"strings"

	"github.com/gotk-dev/gotk/core/shell"
)

// Claude Code 2.1.328's read-only tables for commands a flag can turn into
// a writer or a launcher (its safeFlags: an option's value kind, "none",
// "number" or "string"). Claude runs such a command without asking only
// when every option is in the table; claudeFlags mirrors its check (Nht),
// erring narrow where gotk cannot tell.
var (
	grepFlags = map[string]string{"-e": "string", "--regexp": "string", "-f": "string", "--file": "string", "-F": "none", "--fixed-strings": "none",
		"-G": "none", "--basic-regexp": "none", "-E": "none", "--extended-regexp": "none", "-P": "none", "--perl-regexp": "none", "-i": "none",
		"--ignore-case": "none", "--no-ignore-case": "none", "-v": "none", "--invert-match": "none", "-w": "none", "--word-regexp": "none",
		"-x": "none", "--line-regexp": "none", "-c": "none", "--count": "none", "--color": "string", "--colour": "string", "-L": "none",
		"--files-without-match": "none", "-l": "none", "--files-with-matches": "none", "-m": "number", "--max-count": "number", "-o": "none",
		"--only-matching": "none", "-q": "none", "--quiet": "none", "--silent": "none", "-s": "none", "--no-messages": "none", "-b": "none",
		"--byte-offset": "none", "-H": "none", "--with-filename": "none", "-h": "none", "--no-filename": "none", "--label": "string", "-n": "none",
		"--line-number": "none", "-T": "none", "--initial-tab": "none", "-u": "none", "--unix-byte-offsets": "none", "-Z": "none", "--null": "none",
		"-z": "none", "--null-data": "none", "-A": "number", "--after-context": "number", "-B": "number", "--before-context": "number", "-C": "number",
		"--context": "number", "--group-separator": "string", "--no-group-separator": "none", "-a": "none", "--text": "none", "--binary-files": "string",
		"-I": "none", "-D": "string", "--devices": "string", "-d": "string", "--directories": "string", "--exclude": "string", "--exclude-from": "string",
		"--exclude-dir": "string", "--include": "string", "-r": "none", "--recursive": "none", "-R": "none", "--dereference-recursive": "none",
		"--line-buffered": "none", "-U": "none", "--binary": "none", "--help": "none", "-V": "none", "--version": "none"}
	rgFlags = map[string]string{"-e": "string", "--regexp": "string", "-f": "string", "-i": "none", "--ignore-case": "none", "-S": "none",
		"--smart-case": "none", "-F": "none", "--fixed-strings": "none", "-w": "none", "--word-regexp": "none", "-v": "none", "--invert-match": "none",
		"-c": "none", "--count": "none", "-l": "none", "--files-with-matches": "none", "--files-without-match": "none", "-n": "none",
		"--line-number": "none", "-o": "none", "--only-matching": "none", "-A": "number", "--after-context": "number", "-B": "number",
		"--before-context": "number", "-C": "number", "--context": "number", "-H": "none", "-h": "none", "--heading": "none", "--no-heading": "none",
		"-q": "none", "--quiet": "none", "--column": "none", "-g": "string", "--glob": "string", "-t": "string", "--type": "string", "-T": "string",
		"--type-not": "string", "--type-list": "none", "--hidden": "none", "--no-ignore": "none", "-u": "none", "-m": "number", "--max-count": "number",
		"-d": "number", "--max-depth": "number", "-a": "none", "--text": "none", "-L": "none", "--follow": "none", "--color": "string", "--json": "none",
		"--stats": "none", "--help": "none", "--version": "none", "--debug": "none", "--": "none"}
	treeFlags = map[string]string{"-a": "none", "-d": "none", "-l": "none", "-f": "none", "-x": "none", "-L": "number", "-P": "string", "-I": "string",
		"--gitignore": "none", "--gitfile": "string", "--ignore-case": "none", "--matchdirs": "none", "--metafirst": "none", "--prune": "none",
		"--info": "none", "--infofile": "string", "--noreport": "none", "--charset": "string", "--filelimit": "number", "-q": "none", "-N": "none",
		"-Q": "none", "-p": "none", "-u": "none", "-g": "none", "-s": "none", "-h": "none", "--si": "none", "--du": "none", "-D": "none",
		"--timefmt": "string", "-F": "none", "--inodes": "none", "--device": "none", "-v": "none", "-t": "none", "-c": "none", "-U": "none", "-r": "none",
		"--dirsfirst": "none", "--filesfirst": "none", "--sort": "string", "-i": "none", "-A": "none", "-S": "none", "-n": "none", "-C": "none",
		"-X": "none", "-J": "none", "-H": "string", "--nolinks": "none", "--hintro": "string", "--houtro": "string", "-T": "string", "--hyperlink": "none",
		"--scheme": "string", "--authority": "string", "--fromfile": "none", "--fromtabfile": "none", "--fflinks": "none", "--help": "none", "--version": "none"}
	blameFlags = map[string]string{"--color": "none", "--no-color": "none", "-L": "string", "--porcelain": "none", "-p": "none",
		"--line-porcelain": "none", "--incremental": "none", "--root": "none", "--show-stats": "none", "--show-name": "none", "--show-number": "none",
		"-n": "none", "--show-email": "none", "-e": "none", "-f": "none", "--date": "string", "-w": "none", "--ignore-rev": "string",
		"--ignore-revs-file": "string", "-M": "none", "-C": "none", "--score-debug": "none", "--abbrev": "number", "-s": "none", "-l": "none", "-t": "none"}
	lsFilesFlags = map[string]string{"--cached": "none", "-c": "none", "--deleted": "none", "-d": "none", "--modified": "none", "-m": "none",
		"--others": "none", "-o": "none", "--ignored": "none", "-i": "none", "--stage": "none", "-s": "none", "--killed": "none", "-k": "none",
		"--unmerged": "none", "-u": "none", "--directory": "none", "--no-empty-directory": "none", "--eol": "none", "--full-name": "none",
		"--abbrev": "number", "--debug": "none", "-z": "none", "-t": "none", "-v": "none", "-f": "none", "--exclude": "string", "-x": "string",
		"--exclude-from": "string", "-X": "string", "--exclude-per-directory": "string", "--exclude-standard": "none", "--error-unmatch": "none",
		"--recurse-submodules": "none"}
)

// claudeFlags is Claude's option check over a table: prog names the
// program for its special cases (git's -NUM; grep's and rg's -A3); a `--`
// ends the options where respectsDoubleDash (the default), else is
// skipped.
func claudeFlags(table map[string]string, prog string, respectsDoubleDash bool) func([]string) bool {
	return func(args []string) bool {
		for i := 0; i < len(args); i++ {
			a := args[i]
			switch {
			case a == Unknown:
				return false
			case a == "--" && respectsDoubleDash:
				return true
			case a == "--" && table["--"] == "":
				continue
			case !strings.HasPrefix(a, "-") || a == "-":
				continue // an operand
			}
			name, value, hasValue := strings.Cut(a, "=")
			kind, ok := table[name]
			if !ok {
				short := !strings.HasPrefix(name, "--") && len(name) > 2
				switch {
				case prog == "git" && shell.IsDigits(name[1:]):
				case short && (prog == "grep" || prog == "rg") && shell.IsDigits(name[2:]) && (table[name[:2]] == "number" || table[name[:2]] == "string") && !hasValue:
				case short && !hasValue && bundleOfNone(table, name):
				default:
					return false
				}
				continue
			}
			if kind == "none" {
				if hasValue {
					return false
				}
				continue
			}
			if !hasValue {
				if i+1 >= len(args) || args[i+1] == Unknown || len(args[i+1]) > 1 && strings.HasPrefix(args[i+1], "-") {
					return false
				}
				i++
				value = args[i]
			}
			switch {
			case kind == "number" && !shell.IsDigits(value):
				return false
			case kind == "string" && strings.HasPrefix(value, "-") && !(prog == "git" && name == "--sort"):
				return false
			}
		}
		return true
	}
}

// bundleOfNone: every letter of a short bundle (-rn) is an option that
// takes no value.
func bundleOfNone(table map[string]string, bundle string) bool {
	for _, c := range bundle[1:] {
		if table["-"+string(c)] != "none" {
			return false
		}
	}
	return true
}

// Claude's tables for commands gotk does not rewrite but counts as read-only
// in a compound line (readOnlyOther).
var (
	revParseFlags = map[string]string{"--verify": "none", "--short": "string", "--abbrev-ref": "none", "--symbolic": "none",
		"--symbolic-full-name": "none", "--show-toplevel": "none", "--show-cdup": "none", "--show-prefix": "none", "--git-dir": "none",
		"--git-common-dir": "none", "--absolute-git-dir": "none", "--is-inside-work-tree": "none", "--is-inside-git-dir": "none",
		"--is-bare-repository": "none", "--is-shallow-repository": "none", "--is-shallow-update": "none", "--path-prefix": "none"}
	dateFlags = map[string]string{"-d": "string", "--date": "string", "-r": "string", "--reference": "string", "-u": "none", "--utc": "none",
		"--universal": "none", "-I": "none", "--iso-8601": "string", "-R": "none", "--rfc-email": "none", "--rfc-3339": "string", "--debug": "none",
		"--help": "none", "--version": "none"}
	whichFlags = map[string]string{"-a": "none", "--all": "none", "-s": "none", "-p": "none", "-w": "none", "--skip-dot": "none",
		"--skip-tilde": "none", "--show-dot": "none", "--show-tilde": "none", "--skip-alias": "none", "--skip-functions": "none", "-v": "none",
		"-V": "none", "--version": "none", "--help": "none"}
	fileFlags = map[string]string{"--brief": "none", "-b": "none", "--mime": "none", "-i": "none", "--mime-type": "none", "--mime-encoding": "none",
		"--apple": "none", "--check-encoding": "none", "-c": "none", "--exclude": "string", "--exclude-quiet": "string", "--print0": "none",
		"-0": "none", "-F": "string", "--separator": "string", "--help": "none", "--version": "none", "-v": "none", "--no-dereference": "none",
		"-h": "none", "--dereference": "none", "-L": "none", "--keep-going": "none", "-k": "none", "--list": "none", "-l": "none",
		"--no-buffer": "none", "-n": "none", "--preserve-date": "none", "-p": "none", "--raw": "none", "-r": "none", "-s": "none",
		"--special-files": "none"}
)

// dateReadOnly: date with Claude's options and, as its check wants, no
// operand but a +FORMAT (any other sets the clock).
func dateReadOnly(args []string) bool {
	if !claudeFlags(dateFlags, "date", true)(args) {
		return false
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case strings.HasPrefix(a, "--") && strings.Contains(a, "="):
		case strings.HasPrefix(a, "-"):
			if k := dateFlags[a]; k == "string" {
				i++
			}
		case !strings.HasPrefix(a, "+"):
			return false
		}
	}
	return true
}
