package check

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gotk-dev/gotk/core/agentconf"
	"github.com/gotk-dev/gotk/core/host"
	"github.com/gotk-dev/gotk/core/hosts"
)

// probe.go: what a hook gets and should answer. Each hook is asked about
// one command its agent lets it rewrite in a clean session; a working hook
// with gotk on its PATH answers with `gotk <command>`.

// probeOf is the agent's probe (core/hosts/<name>), or nil.
func probeOf(agent string) *host.Probe {
	if d := hosts.ByName(agent); d != nil {
		return d.Probe
	}
	return nil
}

// gotkMissing is what every hook says on stderr when it finds no gotk
// (core/hookio).
const gotkMissing = "gotk is not on PATH"

// judge reads a hook's answer to p: the rewritten command it carries, or an
// error saying how the answer is wrong. An empty answer is "".
func judge(p *host.Probe, out []byte) (string, error) {
	line := strings.TrimSpace(string(out))
	if line == "" || line == "{}" {
		return "", nil
	}
	if strings.Contains(line, "\n") {
		return "", fmt.Errorf("printed more than one line: %.80q", line)
	}
	var v any
	if err := json.Unmarshal([]byte(line), &v); err != nil {
		return "", fmt.Errorf("printed something that is not JSON: %.80q", line)
	}
	for _, k := range p.Answer {
		switch x := v.(type) {
		case map[string]any:
			v = x[k]
		case []any:
			// A list element, by its index.
			i, err := strconv.Atoi(k)
			if err != nil || i < 0 || i >= len(x) {
				return "", nil
			}
			v = x[i]
		default:
			return "", nil
		}
	}
	if v == nil {
		return "", nil
	}
	cmd, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("answered %s that is not a string: %.80q", strings.Join(p.Answer, "."), line)
	}
	return cmd, nil
}

// want checks a rewrite of p's command: `gotk <command>`, or for an
// agent whose rewrites name gotk by absolute path, an absolute path to an
// executable gotk.
func want(p *host.Probe, cmd string, isExec func(string) bool) error {
	word := agentconf.Program(cmd)
	rest := strings.TrimSpace(cmd)
	if word == "" {
		return fmt.Errorf("rewrote %q to %q", p.Command, cmd)
	}
	if q := rest[:1]; q == "'" || q == `"` {
		rest = rest[len(word)+2:]
	} else {
		rest = rest[len(word):]
	}
	rest = strings.TrimSpace(rest)
	switch {
	case rest != p.Command:
		return fmt.Errorf("rewrote %q to %q, not to gotk %s", p.Command, cmd, p.Command)
	case p.Absolute && !filepath.IsAbs(word):
		return fmt.Errorf("rewrote %q to %q: its agent needs gotk named by absolute path", p.Command, cmd)
	case p.Absolute && !isExec(word):
		return fmt.Errorf("rewrites %q to %q, but %s is not an executable", p.Command, cmd, word)
	case !p.Absolute && word != "gotk":
		return fmt.Errorf("rewrote %q to %q, not to gotk %s", p.Command, cmd, p.Command)
	}
	return nil
}
