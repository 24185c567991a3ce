#!/usr/bin/env bash
# release.sh VERSION tags a release of every published module of the repo
# at one version (docs/release.md): make release VERSION=v0.2.0.
#
#  1. every module's requirements on its siblings, and go.work's replaces of
#     those versions, are set to VERSION, and committed if that changed them;
#  2. release/go-install-test.sh installs every binary at VERSION from a
#     file proxy built from that commit (GOWORK=off), and checks --version;
#  3. the tags are made, each module after the modules it requires:
#     core/VERSION, installer/VERSION, agents/<agent>/VERSION,
#     runner/VERSION, and VERSION itself (what `git describe` and make read).
#
# It pushes nothing: it prints the command that publishes the tags.
set -euo pipefail
cd "$(dirname "$0")/.."
version=${1:-}
prefix=github.com/gotk-dev/gotk

if ! [[ $version =~ ^v[01]\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?$ ]]; then
	echo "release: VERSION must be vX.Y.Z (X 0 or 1; a -pre suffix is allowed), e.g. make release VERSION=v0.2.0" >&2
	exit 2
fi
if [ -n "$(git status --porcelain)" ]; then
	echo "release: the working tree has changes; commit or stash them first (nothing was changed)" >&2
	exit 1
fi

mods=()
while read -r m; do
	case $m in e2e | release) ;; *) mods+=("$m") ;; esac
done < <(go work edit -json | sed -n 's/.*"DiskPath": "\.\/\(.*\)".*/\1/p')
for m in "${mods[@]}" ""; do
	if git rev-parse -q --verify "refs/tags/${m:+$m/}$version" >/dev/null; then
		echo "release: tag ${m:+$m/}$version already exists (nothing was changed)" >&2
		exit 1
	fi
done

# siblings MODULE-DIR prints the module dirs whose modules it requires.
siblings() {
	local req
	for req in $(cd "$1" && go mod edit -json | tr -d ' \t\n' | grep -o '"Require":\[[^]]*\]' | grep -o '"Path":"[^"]*"' | cut -d'"' -f4); do
		for m in "${mods[@]}"; do
			if [ "$req" = "$prefix/$m" ] && [ "$m" != "$1" ]; then echo "$m"; fi
		done
	done
}

# 1. Requirements and go.work at VERSION.
for m in "${mods[@]}"; do
	for s in $(siblings "$m"); do
		(cd "$m" && go mod edit -require="$prefix/$s@$version")
	done
done
for r in $(go work edit -json | tr -d ' \t\n' | grep -o '"Old":{"Path":"'"$prefix"'/[^"]*","Version":"[^"]*"}' | sed 's/.*"Path":"\([^"]*\)","Version":"\([^"]*\)".*/\1@\2/'); do
	go work edit -dropreplace="$r"
done
for m in "${mods[@]}"; do
	for s in $(siblings "$m"); do
		go work edit -replace="$prefix/$s@$version=./$s"
	done
done
if [ -n "$(git status --porcelain)" ]; then
	git commit -q -am "release $version: every module requires its siblings at $version"
	echo "release: committed $(git rev-parse --short HEAD): siblings required at $version"
fi

# 2. The commit installs.
GOTK_TEST_VERSION=$version release/go-install-test.sh

# 3. Tags, dependencies first.
tagged=() tags=()
while [ ${#tagged[@]} -lt ${#mods[@]} ]; do
	progress=0
	for m in "${mods[@]}"; do
		[[ " ${tagged[*]} " == *" $m "* ]] && continue
		ready=1
		for s in $(siblings "$m"); do
			[[ " ${tagged[*]} " == *" $s "* ]] || ready=0
		done
		[ $ready -eq 1 ] || continue
		git tag -a -m "gotk $version: $prefix/$m" "$m/$version"
		tagged+=("$m") tags+=("$m/$version") progress=1
		echo "release: tagged $m/$version"
	done
	[ $progress -eq 1 ] || { echo "release: the modules require each other in a cycle" >&2; exit 1; }
done
git tag -a -m "gotk $version" "$version"
tags+=("$version")
echo "release: tagged $version"
echo "release: nothing was pushed; to publish, push the commit and then the tags in this order:"
echo "  git push origin HEAD && git push origin ${tags[*]}"
