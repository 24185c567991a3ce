package agentconf

import (
	"os"
	"os/exec"
	"path/filepath"

	"github.com/gotk-dev/gotk/core/permission"
)

// Env is what reading an installation needs from the outside world; tests
// build one.
type Env struct {
	Home     string
	Cwd      string
	Getenv   func(string) string
	LookPath func(string) (string, error)
}

// OSEnv returns the process's environment.
func OSEnv() Env {
	home, _ := os.UserHomeDir()
	cwd, _ := os.Getwd()
	return Env{Home: home, Cwd: cwd, Getenv: os.Getenv, LookPath: exec.LookPath}
}

func (e *Env) perm() permission.Env { return permission.Env{Getenv: e.Getenv, Home: e.Home} }

// dirFrom returns $name when set, else the home-relative default.
func (e *Env) dirFrom(name string, def ...string) string {
	if v := e.Getenv(name); v != "" {
		return filepath.Clean(v)
	}
	return filepath.Join(append([]string{e.Home}, def...)...)
}

// DataDir is gotk's data folder: $XDG_DATA_HOME/gotk, or
// ~/.local/share/gotk when XDG_DATA_HOME is unset or not absolute (as the
// XDG spec says, and as the runner's store reads it).
func (e *Env) DataDir() string {
	if x := e.Getenv("XDG_DATA_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(filepath.Clean(x), "gotk")
	}
	return filepath.Join(e.Home, ".local", "share", "gotk")
}

// ConfigHome is $XDG_CONFIG_HOME or ~/.config.
func (e *Env) ConfigHome() string { return e.dirFrom("XDG_CONFIG_HOME", ".config") }

// The agents' configuration folders. Those the permission rules also read
// come from core/permission, so each is defined once.

// ClaudeDir is $CLAUDE_CONFIG_DIR or ~/.claude.
func ClaudeDir(e *Env) string { return filepath.Clean(permission.ClaudeDir(e.perm())) }

// CodexDir is $CODEX_HOME or ~/.codex.
func CodexDir(e *Env) string { return filepath.Clean(permission.CodexHome(e.perm())) }

// VibeDir is $VIBE_HOME or ~/.vibe.
func VibeDir(e *Env) string { return filepath.Clean(permission.VibeHome(e.perm())) }

// GeminiDir is ~/.gemini, where GEMINI_CLI_HOME replaces the home folder
// (gemini-cli packages/core/src/utils/paths.ts homedir()).
func GeminiDir(e *Env) string { return filepath.Clean(permission.GeminiDir(e.perm())) }

// CursorDir is ~/.cursor, where core/permission reads Cursor's rules.
func CursorDir(e *Env) string { return permission.CursorDir(e.perm()) }

// CopilotDir is $COPILOT_HOME or ~/.copilot.
func CopilotDir(e *Env) string { return e.dirFrom("COPILOT_HOME", ".copilot") }

// PiDir is $PI_CODING_AGENT_DIR or ~/.pi/agent.
func PiDir(e *Env) string { return e.dirFrom("PI_CODING_AGENT_DIR", ".pi", "agent") }

// OpenCodeDir is $XDG_CONFIG_HOME/opencode.
func OpenCodeDir(e *Env) string { return filepath.Join(e.ConfigHome(), "opencode") }

// HermesDir is ~/.hermes.
func HermesDir(e *Env) string { return filepath.Join(e.Home, ".hermes") }

// ClineDir is $CLINE_DIR or ~/.cline (@cline/shared: its hooks are in
// hooks/ there).
func ClineDir(e *Env) string { return e.dirFrom("CLINE_DIR", ".cline") }

// DroidDir is ~/.factory, where FACTORY_HOME_OVERRIDE replaces the home
// folder.
func DroidDir(e *Env) string { return filepath.Clean(permission.DroidHome(e.perm())) }

// KiloDir is $XDG_CONFIG_HOME/kilo.
func KiloDir(e *Env) string { return filepath.Join(e.ConfigHome(), "kilo") }

// CrushConfig is Crush's global crush.json: in $CRUSH_GLOBAL_CONFIG, else
// $XDG_CONFIG_HOME/crush (crush internal/config GlobalConfig).
func CrushConfig(e *Env) string {
	if d := e.Getenv("CRUSH_GLOBAL_CONFIG"); d != "" {
		return filepath.Join(filepath.Clean(d), "crush.json")
	}
	return filepath.Join(e.ConfigHome(), "crush", "crush.json")
}

// IsExec reports whether p is a regular file someone may execute.
func IsExec(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}
