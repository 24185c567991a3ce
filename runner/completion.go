package runner

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/alecthomas/kong"
	"github.com/gotk-dev/gotk/core/hosts"
)

// completionCmd is `gotk completion SHELL`.
type completionCmd struct {
	Shell string `arg:"" enum:"bash,zsh,fish" help:"bash, zsh or fish."`
}

// hostNames are the --host values of rewrite and explain (core/hosts).
var hostNames = strings.Join(hosts.Names(), " ")

// completion prints the completion script for shell, made from the command
// line's own model: gotk's commands and their flags, and, for any other
// first word, the commands on PATH and then that program's own completion.
func (a *app) completion(app *kong.Application, shell string) int {
	m := completionModel(app)
	switch shell {
	case "bash":
		m.bash(a.stdout)
	case "zsh":
		m.zsh(a.stdout)
	case "fish":
		m.fish(a.stdout)
	}
	return 0
}

type compFlag struct {
	name, help string
	takesValue bool
}

type compCmd struct {
	name, help string
	flags      []compFlag
}

type compModel struct {
	global []compFlag
	cmds   []compCmd
}

func completionModel(app *kong.Application) compModel {
	var m compModel
	m.global = flagsOf(app.Node)
	for _, c := range app.Children {
		if c.Hidden {
			continue
		}
		m.cmds = append(m.cmds, compCmd{c.Name, c.Help, flagsOf(c)})
	}
	sort.Slice(m.cmds, func(i, j int) bool { return m.cmds[i].name < m.cmds[j].name })
	return m
}

func flagsOf(n *kong.Node) []compFlag {
	var out []compFlag
	for _, f := range n.Flags {
		if f.Hidden {
			continue
		}
		out = append(out, compFlag{"--" + f.Name, f.Help, !f.IsBool()})
	}
	return out
}

func (m compModel) names() string {
	var s []string
	for _, c := range m.cmds {
		s = append(s, c.name)
	}
	return strings.Join(s, " ")
}

func flagNames(fs []compFlag) string {
	var s []string
	for _, f := range fs {
		s = append(s, f.name)
	}
	return strings.Join(s, " ")
}

// valueFlags lists the flags that take a value, as a shell case pattern.
func valueFlags(fs []compFlag) string {
	var s []string
	for _, f := range fs {
		if f.takesValue {
			s = append(s, f.name)
		}
	}
	if len(s) == 0 {
		return "--no-such-flag"
	}
	return strings.Join(s, "|")
}

// firstSentence is a help text cut for a completion menu.
func firstSentence(s string) string {
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSuffix(s, ".")
}

func (m compModel) bash(w io.Writer) {
	fmt.Fprintf(w, `# gotk completion for bash: source <(gotk completion bash), or save it as
# ~/.local/share/bash-completion/completions/gotk. After a program's name
# (gotk git st<TAB>) the program's own completion runs, where bash-completion
# is loaded.
_gotk_program() {
	# complete the words from index $1 on as a command line of their own
	if declare -F _command_offset >/dev/null; then
		_command_offset "$1"
	elif (( $1 == COMP_CWORD )); then
		COMPREPLY=($(compgen -c -- "${COMP_WORDS[COMP_CWORD]}"))
	else
		COMPREPLY=($(compgen -f -- "${COMP_WORDS[COMP_CWORD]}"))
	fi
}

_gotk() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} i=1
	while (( i < COMP_CWORD )); do
		case ${COMP_WORDS[i]} in
		--raw | --) _gotk_program $((i + 1)); return ;;
		-*) ((i++)) ;;
		*) break ;;
		esac
	done
	if (( i == COMP_CWORD )); then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W %q -- "$cur"))
		else
			COMPREPLY=($(compgen -W %q -- "$cur") $(compgen -c -- "$cur"))
		fi
		return
	fi
	case ${COMP_WORDS[i]} in
`, flagNames(m.global), m.names())
	for _, c := range m.cmds {
		fmt.Fprintf(w, "\t%s)\n", c.name)
		switch c.name {
		case "rewrite", "explain":
			fmt.Fprintf(w, `		local j=$((i + 1))
		while (( j < COMP_CWORD )); do
			case ${COMP_WORDS[j]} in
			%s) ((j += 2)) ;;
			-*) ((j++)) ;;
			*) break ;;
			esac
		done
		if (( j < COMP_CWORD )); then _gotk_program $j
		elif [[ $prev == --host ]]; then COMPREPLY=($(compgen -W %q -- "$cur"))
		elif [[ $prev == --mode ]]; then COMPREPLY=($(compgen -W "default acceptEdits plan bypassPermissions" -- "$cur"))
		elif [[ $cur == -* ]]; then COMPREPLY=($(compgen -W %q -- "$cur"))
		else _gotk_program $j
		fi
		;;
`, valueFlags(c.flags), hostNames, flagNames(c.flags))
		case "recall":
			fmt.Fprintf(w, `		if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W %q -- "$cur"))
		else COMPREPLY=($(compgen -W "$(gotk recall --list 2>/dev/null | cut -d' ' -f1)" -- "$cur"))
		fi
		;;
`, flagNames(c.flags))
		case "completion":
			fmt.Fprint(w, "\t\tCOMPREPLY=($(compgen -W \"bash zsh fish\" -- \"$cur\")) ;;\n")
		default:
			fmt.Fprintf(w, "\t\tCOMPREPLY=($(compgen -W %q -- \"$cur\")) ;;\n", flagNames(c.flags))
		}
	}
	fmt.Fprint(w, `	*) _gotk_program "$i" ;;
	esac
}
complete -F _gotk gotk
`)
}

// zq quotes s for a zsh _describe item ("name:help").
func zq(name, help string) string {
	help = strings.NewReplacer(`\`, `\\`, `:`, `\:`, `'`, `'\''`).Replace(firstSentence(help))
	return "'" + name + ":" + help + "'"
}

func (m compModel) zsh(w io.Writer) {
	fmt.Fprint(w, `#compdef gotk
# gotk completion for zsh: source <(gotk completion zsh), or save it as _gotk
# in a directory of $fpath. After a program's name (gotk git st<TAB>) the
# program's own completion runs.
_gotk() {
	local i=2
	while (( i < CURRENT )); do
		case $words[i] in
		--raw | --) shift $i words; (( CURRENT -= i )); _normal; return ;;
		-*) (( i++ )) ;;
		*) break ;;
		esac
	done
	if (( i == CURRENT )); then
		if [[ $PREFIX == -* ]]; then
			local -a opts=(`)
	for _, f := range m.global {
		fmt.Fprintf(w, "\n\t\t\t\t%s", zq(f.name, f.help))
	}
	fmt.Fprint(w, `
			)
			_describe -t options 'gotk option' opts
		else
			local -a cmds=(`)
	for _, c := range m.cmds {
		fmt.Fprintf(w, "\n\t\t\t\t%s", zq(c.name, c.help))
	}
	fmt.Fprint(w, `
			)
			_describe -t commands 'gotk command' cmds
			_command_names -e
		fi
		return
	fi
	local -a opts
	case $words[i] in
`)
	for _, c := range m.cmds {
		fmt.Fprintf(w, "\t%s)\n", c.name)
		fmt.Fprint(w, "\t\topts=(")
		for _, f := range c.flags {
			fmt.Fprintf(w, "\n\t\t\t%s", zq(f.name, f.help))
		}
		fmt.Fprint(w, "\n\t\t)\n")
		switch c.name {
		case "rewrite", "explain":
			fmt.Fprintf(w, `		local j=$((i + 1))
		while (( j < CURRENT )); do
			case $words[j] in
			%s) (( j += 2 )) ;;
			-*) (( j++ )) ;;
			*) break ;;
			esac
		done
		if (( j < CURRENT )); then shift $((j - 1)) words; (( CURRENT -= j - 1 )); _normal
		elif [[ $words[CURRENT-1] == --host ]]; then compadd -- %s
		elif [[ $words[CURRENT-1] == --mode ]]; then compadd -- default acceptEdits plan bypassPermissions
		elif [[ $PREFIX == -* ]]; then _describe -t options 'option' opts
		else _command_names -e
		fi
		;;
`, valueFlags(c.flags), hostNames)
		case "recall":
			fmt.Fprint(w, `		if [[ $PREFIX == -* ]]; then _describe -t options 'option' opts
		else compadd -- ${(f)"$(gotk recall --list 2>/dev/null | cut -d' ' -f1)"}
		fi
		;;
`)
		case "completion":
			fmt.Fprint(w, "\t\tcompadd -- bash zsh fish ;;\n")
		default:
			fmt.Fprint(w, "\t\t_describe -t options 'option' opts ;;\n")
		}
	}
	fmt.Fprint(w, `	*) shift $((i - 1)) words; (( CURRENT -= i - 1 )); _normal ;;
	esac
}
if [[ $funcstack[1] == _gotk ]]; then _gotk "$@"; else compdef _gotk gotk; fi
`)
}

// fq quotes s for fish.
func fq(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

func (m compModel) fish(w io.Writer) {
	fmt.Fprint(w, `# gotk completion for fish: gotk completion fish | source, or save it as
# ~/.config/fish/completions/gotk.fish. After a program's name
# (gotk git st<TAB>) the program's own completion runs.

# __gotk_sub prints the first word after gotk's own flags (--raw for
# --raw and --), and fails when there is none yet.
function __gotk_sub
    set -l words (commandline -opc)
    for w in $words[2..-1]
        switch $w
            case --raw --
                echo --raw
                return 0
            case '-*'
                continue
            case '*'
                echo $w
                return 0
        end
    end
    return 1
end

function __gotk_is
    test "$(__gotk_sub)" = $argv[1]
end

# __gotk_program: the first word is a program, not one of gotk's commands.
function __gotk_program
    set -l sub (__gotk_sub); or return 1
    not contains -- $sub `+m.names()+`
end

complete -c gotk -f
`)
	for _, f := range m.global {
		fmt.Fprintf(w, "complete -c gotk -n 'not __gotk_sub' -l %s -d %s\n", strings.TrimPrefix(f.name, "--"), fq(firstSentence(f.help)))
	}
	for _, c := range m.cmds {
		fmt.Fprintf(w, "complete -c gotk -n 'not __gotk_sub' -a %s -d %s\n", c.name, fq(firstSentence(c.help)))
	}
	fmt.Fprint(w, "complete -c gotk -n 'not __gotk_sub' -a '(__fish_complete_command)'\n")
	for _, c := range m.cmds {
		for _, f := range c.flags {
			req := ""
			switch {
			case f.name == "--host":
				req = " -x -a " + fq(hostNames)
			case f.name == "--mode":
				req = " -x -a 'default acceptEdits plan bypassPermissions'"
			case f.takesValue:
				req = " -r"
			}
			fmt.Fprintf(w, "complete -c gotk -n '__gotk_is %s' -l %s%s -d %s\n", c.name, strings.TrimPrefix(f.name, "--"), req, fq(firstSentence(f.help)))
		}
		switch c.name {
		case "recall":
			fmt.Fprint(w, "complete -c gotk -n '__gotk_is recall' -a '(gotk recall --list 2>/dev/null | string split -f1 \" \")'\n")
		case "completion":
			fmt.Fprint(w, "complete -c gotk -n '__gotk_is completion' -a 'bash zsh fish'\n")
		}
	}
	fmt.Fprint(w, "complete -c gotk -n '__gotk_program' -a '(__fish_complete_subcommand)'\n")
	fmt.Fprint(w, "complete -c gotk -n '__gotk_is --raw' -a '(__fish_complete_subcommand --fcs-skip=2)'\n")
}
