package registry

import (
	"strings"
	"testing"
)

// TestLongRunningNeverRewritten: dev servers, watchers, followers and
// REPLs run until the user stops them; gotk shows output when a command
// ends, so it must never take one over (once, make serve and
// pytest --looponfail were rewritten and showed nothing until killed).
func TestLongRunningNeverRewritten(t *testing.T) {
	forms := []string{
		"make serve", "make run", "make watch", "make dev", "make start", "make -j4 dev", "make build serve", "make PORT=8080 serve", "make up",
		"npm start", "npm run start", "npm run dev", "npm run serve", "npm run watch", "npm run preview", "npm test -- --watch",
		"pnpm start", "pnpm dev", "pnpm run dev", "pnpm run serve", "pnpm run watch",
		"yarn start", "yarn dev", "yarn run dev", "yarn serve", "yarn watch",
		"yarn workspace web dev", "yarn workspace web run dev", "yarn workspace web run start", "yarn workspace web test --watch",
		"bun run dev", "bun run start",
		"go run .", "go run ./cmd/server", "go -C svc run .",
		"cargo run", "cargo run --release", "cargo watch -x test", "cargo +nightly run",
		"pytest -f", "pytest --looponfail", "py.test -f tests", "python -m pytest --looponfail",
		"docker compose up", "docker compose up web", "docker-compose up", "docker logs -f web", "docker compose logs -f", "docker compose logs --follow",
		"kubectl port-forward svc/web 8080:80", "kubectl attach pod/web", "kubectl logs -f pod/web", "kubectl get pods -w", "kubectl get pods --watch",
		"tail -f app.log", "tail -F app.log", "tail --follow app.log",
		"tsc -w", "tsc --watch", "vitest watch", "vitest dev", "jest --watch", "jest --watchAll",
		"ruff check --watch", "ruff check -w",
		"python", "node", "python -m http.server",
	}
	for _, f := range forms {
		if m, ok := Classify(strings.Fields(f)); ok {
			t.Errorf("%q is rewritten (rule %s); a long-running command must run untouched", f, m.Rule.ID)
		}
	}
	// The same programs' finite forms still are (bare vitest runs once
	// when its output is not a terminal, as under gotk).
	for _, f := range []string{"make", "make build", "make test", "pytest", "pytest -x tests", "npm run build", "vitest", "docker compose logs web", "tail -n 20 app.log"} {
		if _, ok := Classify(strings.Fields(f)); !ok {
			t.Errorf("%q is no longer rewritten", f)
		}
	}
}
