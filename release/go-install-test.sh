#!/usr/bin/env bash
# go-install-test.sh proves that every gotk binary installs the way a Go
# user installs it:
#
#   GOWORK=off go install github.com/gotk-dev/gotk/<module>/cmd/<binary>@<version>
#
# It publishes the working tree's modules at a test version into a file
# module proxy (release/modproxy: the proxy's own zip rules, siblings required
# at that version exactly as `make release` sets them), installs each binary
# from it into a temporary GOBIN with the workspace off, and checks the
# binaries' names and that each prints "<name> <test version>" for --version.
#
# Third-party modules come from the local module cache (itself a file proxy)
# or the real proxy; the test's own module cache is kept between runs (under
# the user cache dir) so that a rerun extracts and builds nothing it already
# has; gotk's modules are removed from it after each run. Usage:
#
#   release/go-install-test.sh            (make test runs it)
#   GOTK_TEST_VERSION=v0.3.0-rc.1 release/go-install-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
start=$(date +%s)

# A version no real release has, unique per run (two runs may overlap).
version=${GOTK_TEST_VERSION:-v0.0.0-installtest.$(date +%s).$$}
prefix=github.com/gotk-dev/gotk

# The modules a release publishes: every module in go.work but e2e (a test
# harness, never installed) and release (this tooling).
mods=()
while read -r m; do
	case $m in e2e | release) ;; *) mods+=("$m") ;; esac
done < <(go work edit -json | sed -n 's/.*"DiskPath": "\.\/\(.*\)".*/\1/p')
# The binaries: every main package at <module>/cmd/<name>.
cmds=()
for d in "${mods[@]}"; do
	for c in "$d"/cmd/*/main.go; do [ -e "$c" ] && cmds+=("$(dirname "$c")"); done
done
[ ${#cmds[@]} -gt 0 ] || { echo "go-install-test: no cmd/<binary>/main.go found" >&2; exit 1; }

work=$(mktemp -d)
realcache=$(go env GOMODCACHE)
testcache=${GOTK_TEST_MODCACHE:-$(go env GOCACHE)/../gotk-go-install-modcache}
mkdir -p "$testcache"
testcache=$(cd "$testcache" && pwd)
cleanup() {
	# The module cache is read-only by design; drop this run's gotk modules.
	chmod -R u+w "$testcache/$prefix" "$testcache/cache/download/$prefix" 2>/dev/null || true
	rm -rf "$testcache/$prefix"/*@"$version" "$testcache/$prefix"/agents/*@"$version"
	find "$testcache/cache/download/$prefix" -name "$version.*" -delete 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

go run ./release/modproxy -version "$version" -out "$work/proxy" "${mods[@]}" >"$work/proxy.log"

(
	cd "$work" # outside the repo: no go.work, no go.mod
	# No -mod=mod: a user's plain `go install` must need no flag, so each
	# go.mod must already list what its build needs. GONOSUMDB: the test
	# versions are in no checksum database (third-party modules still are
	# checked against it, through the proxy).
	export GOWORK=off GOFLAGS= GOTOOLCHAIN=local CGO_ENABLED=0
	export GOPROXY="file://$work/proxy,file://$realcache/cache/download,https://proxy.golang.org"
	export GONOSUMDB=$prefix GOMODCACHE=$testcache GOBIN=$work/bin
	# One go install per module: packages named @version must share one.
	for d in "${mods[@]}"; do
		pkgs=()
		for c in "${cmds[@]}"; do
			case $c in "$d"/cmd/*) pkgs+=("$prefix/$c@$version") ;; esac
		done
		[ ${#pkgs[@]} -eq 0 ] || go install -trimpath "${pkgs[@]}"
	done
)

fail=0
want=$(for c in "${cmds[@]}"; do basename "$c"; done | sort)
got=$(ls "$work/bin" | sort)
if [ "$want" != "$got" ]; then
	echo "go-install-test: installed binaries differ from the cmd/ directories:" >&2
	diff <(echo "$want") <(echo "$got") >&2 || true
	fail=1
fi
for b in $want; do
	[ -x "$work/bin/$b" ] || continue
	v=$("$work/bin/$b" --version </dev/null 2>&1 || true)
	if [ "$v" != "$b $version" ]; then
		echo "go-install-test: $b --version printed \"$v\", want \"$b $version\"" >&2
		fail=1
	fi
done
[ $fail -eq 0 ] || exit 1
echo "go-install-test: ok: $(echo $want | wc -w) binaries installed with go install …@$version (GOWORK=off, file proxy) in $(($(date +%s) - start))s: $(echo $want)"
