// Package execpolicy evaluates Codex's execpolicy rule files as Codex
// does: Starlark (go.starlark.net), with prefix_rule, host_executable and
// network_rule as its builtins. It is linked only where Codex's rules are
// read — gotk-hook-codex and the gotk binary (import
// core/execpolicy/register) — so no other hook carries a Starlark
// interpreter; core/permission, finding no evaluator, makes Codex's rules
// unreadable (gotk then never answers allow).
package execpolicy

import (
	"errors"
	"fmt"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// MaxSteps bounds evaluation: a rules file is data; a loop past this is not.
const MaxSteps = 1_000_000

// Eval evaluates src. Variables, loops and helper functions are fine; a
// file that does not evaluate, calls anything else or runs past MaxSteps
// is an error (one line).
// prefixRule receives each prefix_rule call: its line, its positional
// arguments and its keyword arguments, as strings, lists of them, nil and
// booleans.
func Eval(src string, prefixRule func(line int, args []any, kw map[string]any) error) error {
	call := func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		pos := make([]any, len(args))
		for i, a := range args {
			v, err := fromStarlark(a)
			if err != nil {
				return nil, fmt.Errorf("prefix_rule: %v", err)
			}
			pos[i] = v
		}
		kw := map[string]any{}
		for _, kv := range kwargs {
			k := string(kv[0].(starlark.String))
			v, err := fromStarlark(kv[1])
			if err != nil {
				return nil, fmt.Errorf("prefix_rule: %s: %v", k, err)
			}
			kw[k] = v
		}
		if err := prefixRule(int(th.CallFrame(1).Pos.Line), pos, kw); err != nil {
			return nil, err
		}
		return starlark.None, nil
	}
	ignore := func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
		return starlark.None, nil
	}
	predeclared := starlark.StringDict{
		"prefix_rule":     starlark.NewBuiltin("prefix_rule", call),
		"host_executable": starlark.NewBuiltin("host_executable", ignore),
		"network_rule":    starlark.NewBuiltin("network_rule", ignore),
	}
	th := &starlark.Thread{Name: "execpolicy"}
	th.SetMaxExecutionSteps(MaxSteps)
	opts := &syntax.FileOptions{TopLevelControl: true, GlobalReassign: true}
	if _, err := starlark.ExecFileOptions(opts, th, "rules", src, predeclared); err != nil {
		msg := err.Error()
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		return errors.New(msg)
	}
	return nil
}

// fromStarlark converts the values a prefix_rule takes: strings, lists
// (and tuples) of them, None, booleans.
func fromStarlark(v starlark.Value) (any, error) {
	switch x := v.(type) {
	case starlark.String:
		return string(x), nil
	case starlark.NoneType:
		return nil, nil
	case starlark.Bool:
		return bool(x), nil
	case starlark.Indexable: // list, tuple
		out := make([]any, x.Len())
		for i := range out {
			e, err := fromStarlark(x.Index(i))
			if err != nil {
				return nil, err
			}
			out[i] = e
		}
		return out, nil
	}
	return nil, fmt.Errorf("a %s is not a string, a list or None", v.Type())
}
