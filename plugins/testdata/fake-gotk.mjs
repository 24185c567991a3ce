#!/usr/bin/env node
// A stand-in for `gotk rewrite --json CMD` whose answer depends on the first
// word of CMD, so one binary covers every way the real one can answer or fail:
//   allow X / ask X        -> verdict allow / ask, command "gotk allow X" …
//   deny X / pass X        -> verdict deny / passthrough, command unchanged
//   same X                 -> verdict allow, command equal to the original
//   odd X                  -> verdict "maybe" (unknown to the plugin)
//   garbage X              -> prints text that is not JSON
//   empty X                -> prints nothing, exits 0
//   nonzero X              -> prints a valid allow answer but exits 3
//   sleep X                -> a child `sleep 5` holds stdout open (must time out)
//   anything else          -> verdict passthrough
// Each call's argv is appended as one JSON line to $FAKE_GOTK_LOG when set.
import { appendFileSync } from "node:fs"
import { spawn } from "node:child_process"

const argv = process.argv.slice(2)
if (process.env.FAKE_GOTK_LOG) {
  const line = { argv, cwd: process.cwd() }
  if (process.env.GOTK_KILO_AGENT !== undefined) line.agent = process.env.GOTK_KILO_AGENT
  appendFileSync(process.env.FAKE_GOTK_LOG, JSON.stringify(line) + "\n")
}
if (argv[0] !== "rewrite" || argv[1] !== "--json") {
  process.stderr.write("fake gotk: expected `rewrite --json CMD`\n")
  process.exit(2)
}
// `--host H` and a `--` before the command (the Kilo form) are skipped.
let rest = argv.slice(2)
if (rest[0] === "--host") rest = rest.slice(2)
if (rest[0] === "--") rest = rest.slice(1)
const command = rest.join(" ")
const word = command.split(" ")[0]
const say = (verdict, rewritten, rule = "") =>
  process.stdout.write(JSON.stringify({ verdict, command: rewritten, rule }) + "\n")

switch (word) {
  case "allow":
  case "ask":
    say(word, "gotk " + command, "fake." + word)
    break
  case "deny":
    say("deny", command, "fake.deny")
    break
  case "same":
    say("allow", command, "fake.same")
    break
  case "odd":
    say("maybe", "gotk " + command)
    break
  case "garbage":
    process.stdout.write("gotk: this is not JSON\n")
    break
  case "empty":
    break
  case "nonzero":
    say("allow", "gotk " + command, "fake.nonzero")
    process.exitCode = 3
    break
  case "sleep":
    // The grandchild keeps the stdout pipe open after this process is killed.
    spawn("sleep", ["5"], { stdio: ["ignore", "inherit", "inherit"] })
    setTimeout(() => say("allow", "gotk " + command), 5000)
    break
  default:
    say("passthrough", command)
}
