package discover

import (
	"github.com/gotk-dev/gotk/runner/window"
	"regexp"
	"strings"
	"sync"

	"github.com/gotk-dev/gotk/core/registry"
	"github.com/gotk-dev/gotk/core/shell"
)

// A report groups calls by command: the program and the words that name
// what it does (git status, go test, npm run build, aws s3 ls), never the
// rest of the arguments (paths, messages, tokens a user would not want in
// a report).

// subWords is how many words after the program name the command, for
// programs that have subcommands; others are named by the program alone.
var subWords = sync.OnceValue(func() map[string]int {
	return map[string]int{
		"git": 1, "go": 1, "cargo": 1, "npm": 1, "pnpm": 1, "yarn": 1, "bun": 1, "deno": 1, "npx": 1, "bunx": 1,
		"pnpx": 1, "docker": 1, "podman": 1, "kubectl": 1, "helm": 1, "terraform": 1, "tofu": 1, "gh": 2,
		"glab": 2, "aws": 2, "gcloud": 2, "az": 2, "uv": 1, "pip": 1, "pip3": 1, "poetry": 1, "pipenv": 1,
		"conda": 1, "hatch": 1, "dotnet": 1, "rustup": 1, "brew": 1, "apt": 1, "apt-get": 1, "dnf": 1,
		"yum": 1, "systemctl": 1, "make": 1, "just": 1, "task": 1, "mvn": 1, "mvnw": 1, "gradle": 1,
		"gradlew": 1, "mix": 1, "flutter": 1, "dart": 1, "swift": 1, "nx": 1, "turbo": 1, "biome": 1,
		"ruff": 1, "golangci-lint": 1, "vitest": 1, "playwright": 1, "next": 1, "vite": 1, "prisma": 1,
		"wrangler": 1, "vercel": 1, "supabase": 2, "firebase": 1, "heroku": 1, "rails": 1, "rake": 1,
		"bundle": 1, "composer": 1, "nix": 1, "bazel": 1, "sbt": 1, "stack": 1, "cabal": 1, "zig": 1,
		"gem": 1, "ansible-galaxy": 1, "kind": 1, "minikube": 1, "kustomize": 1, "pulumi": 1, "fly": 1,
		"flyctl": 1, "railway": 1, "sst": 1, "tsx": 0, "ts-node": 0, "python": 0, "python3": 0, "py": 0,
	}
})

// moreWords: after these subcommands one more word names the command
// (npm run build, docker compose up, uv pip install, go mod tidy).
var moreWords = sync.OnceValue(func() map[string]map[string]bool {
	return map[string]map[string]bool{
		"npm": setOf("run", "run-script", "exec", "x"), "pnpm": setOf("run", "exec", "dlx"),
		"yarn": setOf("run", "exec", "dlx", "workspace"), "bun": setOf("run", "x"),
		"docker": setOf("compose", "buildx", "container", "image", "network", "volume", "system", "context"),
		"podman": setOf("compose", "container", "image", "network", "volume", "system"),
		"uv":     setOf("pip", "run", "tool"), "go": setOf("mod", "tool", "work"), "poetry": setOf("run"),
		"pipenv": setOf("run"), "bundle": setOf("exec"), "dotnet": setOf("tool"), "cargo": setOf("make"),
	}
})

// valued are options that take the next word as their value, before the
// subcommand (git -C dir status).
var valued = sync.OnceValue(func() map[string]map[string]bool {
	return map[string]map[string]bool{
		"git":     setOf("-C", "-c", "--git-dir", "--work-tree", "--namespace"),
		"docker":  setOf("-H", "--host", "--context", "-c", "--config", "-l", "--log-level"),
		"kubectl": setOf("-n", "--namespace", "--context", "--kubeconfig", "--cluster", "--user", "-s", "--server"),
		"helm":    setOf("-n", "--namespace", "--kube-context", "--kubeconfig"),
		"make":    setOf("-C", "-f", "--file", "--directory", "-I", "-o", "-W"),
		"npm":     setOf("--prefix", "-w", "--workspace"),
		"pnpm":    setOf("-C", "--dir", "--filter", "-F"),
		"yarn":    setOf("--cwd"),
		"go":      setOf("-C"),
		"cargo":   setOf("--manifest-path", "--config", "-Z", "--color"),
		"aws":     setOf("--profile", "--region", "--output", "--endpoint-url", "--query"),
		"gcloud":  setOf("--project", "--format", "--account"),
		"uv":      setOf("--directory", "--project", "-p", "--python"),
		"mvn":     setOf("-f", "-pl", "-P", "-s", "-T"),
		"gradle":  setOf("-p", "--project-dir"),
		"python":  setOf("-W", "-X"),
		"gh":      setOf("-R", "--repo"),
	}
})

// programAliases fold spellings of one program into one name.
var programAliases = sync.OnceValue(func() map[string]string {
	return map[string]string{"python3": "python", "py": "python", "pip3": "pip",
		"gradlew": "gradle", "mvnw": "mvn", "flyctl": "fly", "podman-compose": "podman"}
})

var subWord = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9@][A-Za-z0-9._:@+-]{0,39}$`) })

// programName is a program word without its directory or .exe.
func programName(w string) string {
	if i := strings.LastIndexAny(w, `/\`); i >= 0 {
		w = w[i+1:]
	}
	return strings.TrimSuffix(w, ".exe")
}

// commandKey names a simple command given its words from the program on
// (registry.Unknown where a word's value is not known until it runs).
func commandKey(argv []string) string {
	if len(argv) == 0 || argv[0] == registry.Unknown {
		return "(unknown)"
	}
	prog := programName(argv[0])
	if a, ok := programAliases()[prog]; ok {
		prog = a
	}
	words := []string{prog}
	n := subWords()[prog]
	opts := valued()[prog]
	if prog == "python" {
		if len(argv) > 2 && argv[1] == "-m" && subWord().MatchString(argv[2]) {
			return "python -m " + argv[2]
		}
		return prog
	}
	for i := 1; i < len(argv) && n > 0; i++ {
		w := argv[i]
		switch {
		case w == registry.Unknown:
			n = 0
		case strings.HasPrefix(w, "-"):
			if opts[w] {
				i++
			}
		case strings.HasPrefix(w, "+") && prog == "cargo": // cargo +nightly build
		case prog == "make" && strings.Contains(w, "="): // make VAR=value target
		case !subWord().MatchString(w):
			n = 0
		default:
			words = append(words, w)
			n--
			if len(words) == 2 && moreWords()[prog][w] {
				n++
			}
		}
	}
	return strings.Join(words, " ")
}

// segment is one simple command of a call: its words from the program on,
// when the program can be found.
type segment struct {
	argv []string
	ok   bool
}

// segments parses a command line into its simple commands (nil when it
// does not parse), seeing through wrappers and the transparent prefixes.
func segments(cmd string, prefixes [][]string) []segment {
	s, err := shell.Parse(cmd)
	if err != nil {
		return nil
	}
	out := make([]segment, len(s.Commands))
	for i := range s.Commands {
		c := &s.Commands[i]
		p, ok := c.Peel(prefixes)
		if !ok || p.Prog >= len(c.Words) {
			continue
		}
		w := c.Words[p.Prog:]
		argv := make([]string, len(w))
		for k, x := range w {
			argv[k] = registry.Unknown
			if x.Literal {
				argv[k] = x.Value
			}
		}
		out[i] = segment{argv: argv, ok: true}
	}
	return out
}

// fallbackKey names a command that does not parse: its first word.
func fallbackKey(cmd string) string {
	f := strings.Fields(cmd)
	if len(f) == 0 {
		return "(empty)"
	}
	return commandKey(f[:1])
}

// gotkCommands returns the commands a command line runs through gotk
// (gotk git status, /path/to/gotk ls): the words after gotk of each.
func gotkCommands(cmd string) [][]string {
	segs := segments(cmd, nil)
	if segs == nil {
		f := strings.Fields(cmd)
		if len(f) > 1 && programName(f[0]) == "gotk" {
			return [][]string{f[1:]}
		}
		return nil
	}
	var out [][]string
	for _, s := range segs {
		if s.ok && programName(s.argv[0]) == "gotk" {
			rest := s.argv[1:]
			for len(rest) > 0 && (rest[0] == "--raw" || rest[0] == "--") {
				rest = rest[1:]
			}
			// gotk --tail 30 go test …: the window the hook told gotk
			if _, after, err := window.Parse(rest); err == nil {
				rest = after
			}
			if len(rest) > 0 {
				out = append(out, rest)
			}
		}
	}
	return out
}

// isGotk reports whether a command line runs gotk in any of its simple
// commands.
func isGotk(cmd string) bool { return len(gotkCommands(cmd)) > 0 }

// setup are commands that only prepare a line (cd dir && …): a call is
// named after the first command that is not one, when there is one.
var setup = sync.OnceValue(func() map[string]bool {
	return setOf("cd", "pushd", "popd", "export", "set", "unset", "true", ":", "source", ".", "echo",
		"printf", "sleep", "clear", "shopt", "ulimit", "umask", "local", "declare", "alias")
})
