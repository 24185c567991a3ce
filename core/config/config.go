// Package config reads gotk's user configuration: $GOTK_CONFIG, else
// $XDG_CONFIG_HOME/gotk/config.toml, else ~/.config/gotk/config.toml. A
// missing file is the defaults; a broken file is the defaults plus a
// one-line warning naming the file and line. Config never fails a command.
package config

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/gotk-dev/gotk/core/regfile"
)

// Config is the whole user configuration.
type Config struct {
	Hooks Hooks `toml:"hooks"`
}

// Hooks holds the settings that shape rewrite decisions.
type Hooks struct {
	// ExcludeCommands: commands never rewritten. An entry is a whole-word
	// prefix ("git push" excludes "git push -f" but not "git pushx"), or a
	// regular expression when it starts with '^'.
	ExcludeCommands []string `toml:"exclude_commands"`
	// TransparentPrefixes: wrappers gotk sees through, like the built-in
	// timeout or nice ("direnv exec .", "docker exec app").
	TransparentPrefixes []string `toml:"transparent_prefixes"`
}

// Env is what config needs from the process environment.
type Env struct {
	Getenv func(string) string
	Home   string
}

// Path returns the config file path for env.
func Path(env Env) string {
	if p := env.Getenv("GOTK_CONFIG"); p != "" {
		return p
	}
	if x := env.Getenv("XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, "gotk", "config.toml")
	}
	return filepath.Join(env.Home, ".config", "gotk", "config.toml")
}

// Load reads the config. The returned warning, when not empty, is one line
// for stderr; the config is then the defaults.
func Load(env Env) (Config, string) {
	p := Path(env)
	data, err := regfile.Read(p, regfile.MaxRules)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Config{}, ""
		}
		return Config{}, fmt.Sprintf("gotk: %s: %v; using defaults", p, oneLine(err))
	}
	return Parse(p, data)
}

// Parse decodes config data read from the file named name.
func Parse(name string, data []byte) (Config, string) {
	var c Config
	data = []byte(strings.TrimPrefix(string(data), "\uFEFF"))
	md, err := toml.Decode(string(data), &c)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return Config{}, fmt.Sprintf("gotk: %s:%d: %s; using defaults", name, pe.Position.Line, oneLine(errors.New(pe.Message)))
		}
		return Config{}, fmt.Sprintf("gotk: %s: %s; using defaults", name, oneLine(err))
	}
	if und := md.Undecoded(); len(und) > 0 {
		// Unknown keys are not an error (newer gotk versions may add some),
		// but a typo in a known table deserves a word.
		for _, k := range und {
			if len(k) > 0 && k[0] == "hooks" {
				return c, fmt.Sprintf("gotk: %s: unknown key %q ignored", name, k.String())
			}
		}
	}
	return c, ""
}

func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}

// Exclusion is a compiled exclude_commands list.
type Exclusion struct {
	res []*regexp.Regexp
}

// CompileExcludes compiles exclude_commands. Bad entries are returned as
// warnings and skipped.
func CompileExcludes(entries []string) (Exclusion, []string) {
	var ex Exclusion
	var warn []string
	for _, e := range entries {
		e = strings.TrimSpace(e)
		if e == "" || e == "^" {
			warn = append(warn, fmt.Sprintf("gotk: ignoring empty exclude_commands entry %q", e))
			continue
		}
		src := e
		if !strings.HasPrefix(e, "^") {
			src = "^" + regexp.QuoteMeta(e) + `($|[ \t\n])`
		}
		re, err := regexp.Compile(src)
		if err != nil {
			warn = append(warn, fmt.Sprintf("gotk: invalid exclude_commands pattern %q: %v", e, err))
			continue
		}
		ex.res = append(ex.res, re)
	}
	return ex, warn
}

// Match reports the first pattern matching any of the given spellings of a
// command, or "".
func (x Exclusion) Match(forms ...string) string {
	for _, re := range x.res {
		for _, f := range forms {
			if f != "" && re.MatchString(f) {
				return re.String()
			}
		}
	}
	return ""
}

// Prefixes splits transparent_prefixes into word lists, dropping empty
// entries.
func (h Hooks) Prefixes() [][]string {
	var out [][]string
	for _, p := range h.TransparentPrefixes {
		if f := strings.Fields(p); len(f) > 0 {
			out = append(out, f)
		}
	}
	return out
}
