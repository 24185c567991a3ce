package filter

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/gotk-dev/gotk/core/registry"
	"github.com/gotk-dev/gotk/core/tomlfilter"
)

// tomlFilter applies a declarative filter (RTK's schema, core/tomlfilter):
// a built-in one from builtin/*.toml, or a user's. gotk's rules hold on
// top of the file's: the exit code is the program's (the runner keeps it);
// a failing run's output is never replaced by a match_output message or
// on_empty; every cut names `gotk recall`; stderr passes untouched unless
// filter_stderr merges it into what is filtered; and the runner prints
// the raw output when the filter would not make it smaller.
type tomlFilter struct {
	same
	f *tomlfilter.Filter
}

// Render applies the pipeline to stdout (stdout and stderr in arrival
// order with filter_stderr).
func (t tomlFilter) Render(in Input) (Output, error) {
	if t.f == nil {
		return Output{}, errors.New("no such filter")
	}
	src, errOut := in.Stdout, in.Stderr
	if t.f.FilterStderr {
		src, errOut = in.Combined, nil
		if len(src) == 0 {
			src = append(append([]byte{}, in.Stdout...), in.Stderr...)
		}
	}
	res := t.f.Apply(splitRaw(src), tomlfilter.Options{Failed: in.Exit != 0, Notes: tomlfilter.Notes{Where: in.Recall()}})
	out := res.Lines
	if res.Capped {
		out = append(out, fmt.Sprintf("... (the filter's replace rules made over twice the output and %d bytes: the rest is left out; %s)", tomlfilter.GrowthLimit, in.Recall()))
	}
	if res.Truncated > 0 {
		out = append(out, fmt.Sprintf("... (%s cut at %d characters; %s)", plural(res.Truncated, "line", "lines"), t.f.TruncateLinesAt, in.Recall()))
	}
	if res.Message && (res.Cut > 0 || len(lines(src)) > 1) {
		// a message stands for the whole output: say where it is
		out = append(out, "("+in.Recall()+" prints the output)")
	}
	if in.Exit != 0 && len(out) == 0 && len(errOut) == 0 && len(src) > 0 {
		return Output{}, errors.New("a failing run filtered to nothing")
	}
	return Output{Stdout: join(out), Stderr: errOut}, nil
}

// splitRaw splits at \n only: every other byte of a line (a CR ending
// included) stays; the filter's rules do not see a trailing CR.
func splitRaw(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

//go:generate go run ./internal/gentoml

// builtin compiles a built-in spec (they are checked by go test).
func builtin(s tomlfilter.Spec) Filter {
	f, err := tomlfilter.Compile(s)
	if err != nil {
		panic("built-in filter " + s.Name + ": " + err.Error())
	}
	return tomlFilter{f: f}
}

// BuiltinSpecs are the built-in declarative filters (builtin/*.toml,
// turned into Go by go generate: never parsed at run time).
func BuiltinSpecs() []tomlfilter.Spec { return builtinSpecs }

var (
	builtinOnce sync.Once
	builtins    map[string]Filter
)

// builtinFilter returns the built-in TOML filter named name, compiled on
// first use.
func builtinFilter(name string) Filter {
	builtinOnce.Do(func() {
		builtins = map[string]Filter{}
		for _, s := range builtinSpecs {
			s := s
			builtins[s.Name] = lazyTOML{spec: &s}
		}
	})
	return builtins[name]
}

// lazyTOML compiles its spec when first rendered: a run compiles only
// the regexes of the filter it uses.
type lazyTOML struct {
	same
	spec *tomlfilter.Spec
}

var compiled sync.Map // *tomlfilter.Spec → Filter

func (l lazyTOML) Render(in Input) (Output, error) {
	f, ok := compiled.Load(l.spec)
	if !ok {
		f, _ = compiled.LoadOrStore(l.spec, builtin(*l.spec))
	}
	return f.(Filter).Render(in)
}

// userFilter loads the filter a user rule's handler names
// ("toml:<file>#<name>"), from the file as it is now: a project file only
// while it is trusted.
func userFilter(handler string) Filter {
	ref := strings.TrimPrefix(handler, registry.UserHandlerPrefix)
	i := strings.LastIndexByte(ref, '#')
	if i < 0 {
		return nil
	}
	path, name := ref[:i], ref[i+1:]
	env := tomlfilter.SystemEnv()
	var data []byte
	if path == tomlfilter.ProjectFile(env) || path == tomlfilter.Abs(env, tomlfilter.ProjectFile(env)) {
		t, d, _ := tomlfilter.CheckTrust(env, path)
		if t != tomlfilter.Trusted {
			return nil
		}
		data = d
	} else {
		var err error
		if data, err = tomlfilter.ReadFile(path); err != nil {
			return nil
		}
	}
	specs, _ := tomlfilter.Parse(path, data)
	for _, s := range specs {
		if s.Name == name {
			f, err := tomlfilter.Compile(s)
			if err != nil {
				return nil
			}
			return tomlFilter{f: f}
		}
	}
	return nil
}
