package runner

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gotk-dev/gotk/core/config"
	"github.com/gotk-dev/gotk/runner/discover"
	"github.com/gotk-dev/gotk/runner/store"
)

type discoverCmd struct {
	Since      string `default:"30d" placeholder:"DURATION|DATE" help:"Only calls since then: 7d, 2w, 36h, 2026-01-31, or all (default 30d)."`
	Project    string `placeholder:"DIR" help:"Only commands run in DIR or below it."`
	Agent      string `placeholder:"NAME" help:"Only this agent (claude, codex, gemini, copilot, opencode, pi, auggie, openclaw; a comma-separated list works)."`
	Limit      int    `default:"15" help:"Rows per list (0: all)."`
	JSON       bool   `name:"json" help:"Print JSON (a stable contract: README.md)."`
	ShowOutput bool   `help:"Also print recorded output text (never printed otherwise)."`
}

func (a *app) discover(c discoverCmd) int {
	since, err := parseSince(c.Since, a.now())
	if err != nil {
		return a.usage(fmt.Sprintf("discover: --since %q: %v", c.Since, err))
	}
	if c.Limit < 0 {
		return a.usage("discover: --limit must be 0 (all) or more")
	}
	var names []string
	if c.Agent != "" {
		for _, n := range strings.Split(c.Agent, ",") {
			n = strings.ToLower(strings.TrimSpace(n))
			if !contains(discover.AgentNames(), n) {
				return a.usage(fmt.Sprintf("discover: --agent %q: not one of %s", n, strings.Join(discover.AgentNames(), ", ")))
			}
			names = append(names, n)
		}
	}
	scope := "all projects"
	project := c.Project
	if project != "" {
		if !filepath.IsAbs(project) {
			wd, err := a.getwd()
			if err != nil {
				return a.fail("discover: --project %s: %v", project, err)
			}
			project = filepath.Join(wd, project)
		}
		project = filepath.Clean(project)
		scope = project
	}
	home := a.getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	// gotk's own run log: which calls went through gotk when a transcript
	// does not say, and what gotk saves per rule. Missing is fine.
	var runs []store.Run
	if path, err := store.DefaultPath(a.getenv); err == nil {
		if s, err := store.OpenExisting(path); err == nil {
			runs, err = s.Runs("")
			s.Close()
			if err != nil {
				a.warn("discover: %s: %v (not counting gotk's own runs)", path, err)
			}
		} else if !errors.Is(err, store.ErrNoDatabase) {
			a.warn("discover: %s: %v (not counting gotk's own runs)", path, err)
		}
	}
	rep := discover.Scan(discover.Options{
		Env:     discover.Env{Home: home, Getenv: a.getenv},
		Since:   since,
		Project: project, Agents: names, Limit: c.Limit, ShowOutput: c.ShowOutput,
		Runs: runs, Prices: a.prices(home),
	})
	if c.JSON {
		if err := rep.JSON(a.stdout); err != nil {
			return a.fail("discover: %v", err)
		}
		return 0
	}
	rep.Text(a.stdout, scope)
	return 0
}

// gainSessions is `gotk gain --sessions`: discover's session view over
// every transcript, with the runs of s (nil: none recorded).
func (a *app) gainSessions(s *store.Store, project string, since time.Time, asJSON bool) int {
	var runs []store.Run
	if s != nil {
		var err error
		if runs, err = s.Runs(project); err != nil {
			return a.fail("gain: %s: %v", s.Path(), err)
		}
	}
	home := a.getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	rep := discover.Scan(discover.Options{Env: discover.Env{Home: home, Getenv: a.getenv}, Project: project,
		Since: since, Runs: runs, Prices: a.prices(home)})
	if asJSON {
		enc := json.NewEncoder(a.stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep.Sessions); err != nil {
			return a.fail("gain: %v", err)
		}
		return 0
	}
	scope := "all projects"
	if project != "" {
		scope = project
	}
	if !since.IsZero() {
		scope += ", since " + since.Local().Format("2006-01-02 15:04")
	}
	rep.Sessions.Text(a.stdout, scope)
	return 0
}

// prices are the per-model prices of config.toml ([prices."MODEL"]); none
// when it sets none or cannot be read (said on stderr).
func (a *app) prices(home string) map[string]discover.Price {
	path := config.Path(config.Env{Getenv: a.getenv, Home: home})
	data, err := os.ReadFile(path)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			a.warn("%s: %v (no prices: no cost)", path, err)
		}
		return nil
	}
	p, err := discover.ParsePrices(string(data))
	if err != nil {
		a.warn("%s: %s (no prices: no cost)", path, strings.Join(strings.Fields(err.Error()), " "))
	}
	return p
}

// parseSince reads --since: "all", a duration back from now (36h, 7d,
// 2w), or a date (2026-01-31, local midnight) or RFC 3339 time.
func parseSince(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "" || s == "all":
		return time.Time{}, nil
	case strings.HasSuffix(s, "d") || strings.HasSuffix(s, "w"):
		n, err := strconv.Atoi(s[:len(s)-1])
		if err == nil && n >= 0 {
			days := n
			if strings.HasSuffix(s, "w") {
				days = 7 * n
			}
			return now.AddDate(0, 0, -days), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	if t, err := time.ParseInLocation(time.DateOnly, s, time.Local); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	return time.Time{}, errors.New("want a duration (7d, 2w, 36h), a date (2026-01-31), or all")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
