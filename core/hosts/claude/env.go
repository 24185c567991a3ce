package claude

// safeEnv are the variables Claude Code strips from the front of a
// command before testing its allow rules (its set imt in the 2.1.328
// bundle, with values it checks further); every other assignment stays and
// keeps `FOO=1 git status` from matching `Bash(git status)`.
var safeEnv = map[string]bool{
	"GOEXPERIMENT": true, "GOOS": true, "GOARCH": true, "CGO_ENABLED": true, "GO111MODULE": true,
	"RUST_BACKTRACE": true, "RUST_LOG": true, "NODE_ENV": true, "PYTHONUNBUFFERED": true,
	"PYTHONDONTWRITEBYTECODE": true, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": true, "PYTEST_DEBUG": true,
	"ANTHROPIC_API_KEY": true, "LANG": true, "LANGUAGE": true, "LC_ALL": true, "LC_CTYPE": true,
	"LC_TIME": true, "CHARSET": true, "TERM": true, "COLORTERM": true, "NO_COLOR": true,
	"FORCE_COLOR": true, "TZ": true, "LS_COLORS": true, "LSCOLORS": true, "GREP_COLOR": true,
	"GREP_COLORS": true, "GCC_COLORS": true, "TIME_STYLE": true, "BLOCK_SIZE": true,
	"BLOCKSIZE": true, "COLUMNS": true, "LINES": true, "CLICOLOR": true, "CLICOLOR_FORCE": true,
	"CI": true, "DEBIAN_FRONTEND": true, "GIT_TERMINAL_PROMPT": true,
}
