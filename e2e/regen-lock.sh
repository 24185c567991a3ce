#!/usr/bin/env bash
# regen-lock.sh — rewrite e2e/package-lock.json after a version bump in package.json.
#
# Why not just `npm install --package-lock-only`: a registry mirror may not
# serve every platform build of an agent (here opencode-ai's darwin/windows/
# arm64/musl packages answer 404). npm then leaves them out of the lock, and
# `npm ci` refuses the lock as "not in sync". We add each missing platform
# package back with the exact version its parent pins and the os/cpu/libc npm
# needs to skip it on other platforms (no integrity: it is never fetched here).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
rm -f package-lock.json
timeout 600 npm install --package-lock-only --ignore-scripts --no-audit --no-fund --loglevel=error
node - <<'EOF'
const fs = require("fs");
const lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8"));
const pk = lock.packages;
const added = [];
for (const [path, meta] of Object.entries(pk)) {
  for (const [name, spec] of Object.entries(meta.optionalDependencies || {})) {
    const key = "node_modules/" + name;
    if (pk[key] || !/^\d+\.\d+\.\d+/.test(spec)) continue;
    const entry = { version: spec, optional: true };
    const os = /darwin/.test(name) ? "darwin" : /win(32|dows)/.test(name) ? "win32" : /linux/.test(name) ? "linux" : null;
    const cpu = /arm64/.test(name) ? "arm64" : /x64/.test(name) ? "x64" : null;
    if (!os || !cpu) throw new Error(`cannot tell platform of missing optional ${name}`);
    entry.cpu = [cpu];
    entry.os = [os];
    if (/musl/.test(name)) entry.libc = ["musl"];
    pk[key] = entry;
    added.push(`${name}@${spec}`);
  }
}
const sorted = { "": pk[""] };
for (const k of Object.keys(pk).filter((k) => k !== "").sort()) sorted[k] = pk[k];
lock.packages = sorted;
fs.writeFileSync("package-lock.json", JSON.stringify(lock, null, 2) + "\n");
if (added.length) console.log("regen-lock.sh: added platform entries the registry did not serve:\n  " + added.join("\n  "));
EOF
echo "regen-lock.sh: wrote $here/package-lock.json"
