#!/bin/sh
# Refresh installer/assets/ from their sources under plugins/ (the table is
# assets.Sources in installer/assets/assets.go). Run from anywhere.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
sync() { # asset source
	if [ -f "$root/$2" ]; then
		cp "$root/$2" "$here/assets/$1"
		echo "synced assets/$1 from $2"
	else
		echo "skipped assets/$1: $2 does not exist yet (placeholder kept)" >&2
	fi
}
sync opencode/gotk.ts plugins/opencode/gotk.ts
sync pi/gotk.ts plugins/pi/gotk.ts
sync hermes/gotk/plugin.yaml plugins/hermes/gotk/plugin.yaml
sync hermes/gotk/__init__.py plugins/hermes/gotk/__init__.py
sync rules.md plugins/rules/gotk.md
