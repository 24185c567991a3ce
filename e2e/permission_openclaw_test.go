package e2e

import "path/filepath"

// Permission parity (scenario 4) for OpenClaw: gotk rewrites only under an
// exec policy that checks no command (core/permission/openclaw.go), so
// there both runs must run every call; under any other mode gotk steps
// aside and OpenClaw judges the original alone.
func init() {
	execMode := func(mode string) func(e *Env) {
		return func(e *Env) {
			goModule(e)
			e.editJSON(filepath.Join(e.Home, ".openclaw", "openclaw.json"), func(m map[string]any) {
				m["tools"] = map[string]any{"exec": map[string]any{"mode": mode}}
			})
		}
	}
	permCases = append(permCases, permCase{
		agent: "openclaw", name: "exec-mode-full",
		setup: execMode("full"),
		calls: []permCall{
			{"git status", `tools.exec.mode "full"`, Ran},
			{"go vet ./...", `tools.exec.mode "full"`, Ran},
		},
	})
}
