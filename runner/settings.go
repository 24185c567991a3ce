package runner

import (
	"errors"
	"io/fs"
	"os"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/gotk-dev/gotk/core/config"
)

// settings are the runner's keys of config.toml (the file core/config
// reads for the hooks; core ignores tables it does not know):
//
//	[store]
//	keep_raw = false   # record sizes only: no output text is kept for recall
type settings struct {
	keepRaw bool
}

type settingsFile struct {
	Store struct {
		KeepRaw *bool `toml:"keep_raw"`
	} `toml:"store"`
}

// settings reads config.toml. A file gotk cannot read or parse keeps no
// raw output (the user may have written keep_raw = false in it) and costs
// one warning line.
func (a *app) settings() settings {
	s := settings{keepRaw: true}
	p := config.Path(config.Env{Getenv: a.getenv, Home: a.getenv("HOME")})
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return s
	}
	var f settingsFile
	if err == nil {
		_, err = toml.Decode(strings.TrimPrefix(string(data), "\uFEFF"), &f)
	}
	if err != nil {
		a.warn("%s: %s; no output is kept for recall until it is fixed", p, strings.Join(strings.Fields(err.Error()), " "))
		return settings{keepRaw: false}
	}
	if f.Store.KeepRaw != nil {
		s.keepRaw = *f.Store.KeepRaw
	}
	return s
}
