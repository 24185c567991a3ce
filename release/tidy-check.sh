#!/usr/bin/env bash
# tidy-check.sh fails when `go mod tidy` would change any module's go.mod or
# go.sum. gotk's own modules require each other at a version the module
# proxy does not serve (go.work joins them), so each module is tidied
# through a temporary copy of its go.mod that replaces its siblings with
# their folders; the module's files are written only with -w (which tidies
# them, the sibling replaces left out).
set -euo pipefail
write=false
[ "${1:-}" = -w ] && write=true
cd "$(dirname "$0")/.."
root=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mods=$(go work edit -json | sed -n 's/.*"DiskPath": "\.\/\(.*\)".*/\1/p')
bad=0
for m in $mods; do
	cp "$m/go.mod" "$tmp/go.mod"
	[ -f "$m/go.sum" ] && cp "$m/go.sum" "$tmp/go.sum" || : >"$tmp/go.sum"
	added=()
	for s in $mods; do
		p=$(sed -n 's/^module //p' "$s/go.mod")
		# A module's own replace of a sibling (e2e's) stays as it is.
		if [ "$s" != "$m" ] && ! grep -q "^replace $p \|^	$p " <(sed -n '/^replace/,$p' "$m/go.mod"); then
			go mod edit -replace "$p=$root/$s" "$tmp/go.mod"
			added+=("$p")
		fi
	done
	if $write; then
		(cd "$m" && GOWORK=off go mod tidy -modfile="$tmp/go.mod")
		for p in "${added[@]}"; do go mod edit -dropreplace "$p" "$tmp/go.mod"; done
		cp "$tmp/go.mod" "$m/go.mod"
		if [ -s "$tmp/go.sum" ]; then cp "$tmp/go.sum" "$m/go.sum"; else rm -f "$m/go.sum"; fi
		continue
	fi
	if ! out=$(cd "$m" && GOWORK=off go mod tidy -modfile="$tmp/go.mod" -diff 2>&1); then
		echo "== $m: go mod tidy would change it (run go mod tidy in $m):"
		echo "$out" | grep -v '^[-+ ]*replace \|^[-+ ]*=> ' || true
		bad=1
	fi
done
exit $bad
