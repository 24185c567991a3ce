// Tests gotk.ts as Pi itself loads and calls it: the real loader of
// @mariozechner/pi-coding-agent 0.73.1 finds it in <agentDir>/extensions/,
// compiles it with jiti, and ExtensionRunner.emitToolCall fires tool_call.
// The extension talks to ../testdata/fake-gotk.mjs.
import { test, beforeEach, afterEach, mock } from "node:test"
import assert from "node:assert/strict"
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { discoverAndLoadExtensions, ExtensionRunner } from "@mariozechner/pi-coding-agent"

const here = dirname(fileURLToPath(import.meta.url))
const source = join(here, "..", "gotk.ts")

let dir, fake, log, errors, savedEnv

beforeEach(() => {
  savedEnv = { ...process.env }
  dir = mkdtempSync(join(tmpdir(), "gotk-pi-"))
  fake = join(dir, "gotk")
  copyFileSync(join(here, "..", "..", "testdata", "fake-gotk.mjs"), fake)
  chmodSync(fake, 0o755)
  log = join(dir, "calls.jsonl")
  writeFileSync(log, "")
  for (const k of ["GOTK_BIN", "GOTK_DISABLED", "RTK_DISABLED"]) delete process.env[k]
  process.env.GOTK_BIN = fake
  process.env.FAKE_GOTK_LOG = log
  errors = mock.method(console, "error", () => {})
})

afterEach(() => {
  mock.restoreAll()
  process.env = savedEnv
  rmSync(dir, { recursive: true, force: true })
})

// load installs gotk.ts the way a user does (~/.pi/agent/extensions/gotk.ts,
// outside any node_modules) and lets Pi discover and load it. Each load is a
// fresh module (Pi's jiti runs with moduleCache off), so warn-once resets.
async function load(cwd = dir) {
  const agentDir = mkdtempSync(join(dir, "agent-"))
  mkdirSync(join(agentDir, "extensions"))
  copyFileSync(source, join(agentDir, "extensions", "gotk.ts"))
  const { extensions, errors: loadErrors, runtime } = await discoverAndLoadExtensions([], cwd, agentDir)
  assert.deepEqual(loadErrors, [])
  assert.equal(extensions.length, 1)
  return new ExtensionRunner(extensions, runtime, cwd, undefined, undefined)
}

function calls() {
  return readFileSync(log, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l))
}

async function run(runner, command, toolName = "bash", extra = {}) {
  const input = { command, timeout: 30, ...extra }
  const event = { type: "tool_call", toolName, toolCallId: "call-1", input }
  const result = await runner.emitToolCall(event)
  assert.equal(result, undefined, "the extension must never block")
  assert.equal(event.input, input, "event.input must stay the same object")
  return input
}

test("Pi loads the installed file and it registers only tool_call", async () => {
  const agentDir = mkdtempSync(join(dir, "agent-"))
  mkdirSync(join(agentDir, "extensions"))
  copyFileSync(source, join(agentDir, "extensions", "gotk.ts"))
  const { extensions, errors: loadErrors } = await discoverAndLoadExtensions([], dir, agentDir)
  assert.deepEqual(loadErrors, [])
  assert.deepEqual(extensions.map((e) => [...e.handlers.keys()]), [["tool_call"]])
  assert.equal(extensions[0].tools.size, 0)
  assert.equal(extensions[0].commands.size, 0)
})

test("allow rewrites in place, passes the command as one argv element, keeps other input", async () => {
  const input = await run(await load(), "allow git status", "bash", { extra: "x" })
  assert.deepEqual(input, { command: "gotk allow git status", timeout: 30, extra: "x" })
  assert.deepEqual(calls().map((c) => c.argv), [["rewrite", "--json", "--host", "pi", "--", "allow git status"]])
  assert.equal(errors.mock.callCount(), 0)
})

test("ask rewrites too (Pi's own flow then applies)", async () => {
  assert.equal((await run(await load(), "ask git log")).command, "gotk ask git log")
})

for (const command of ["deny rm -rf x", "pass htop", "same git status", "odd git status"]) {
  test(`no rewrite and no warning: ${command}`, async () => {
    assert.equal((await run(await load(), command)).command, command)
    assert.equal(calls().length, 1)
    assert.equal(errors.mock.callCount(), 0)
  })
}

test("an answer equal to the original command is not written back", async () => {
  const runner = await load()
  const writes = []
  const input = new Proxy({ command: "same git status" }, {
    set(target, key, value) {
      writes.push(key)
      target[key] = value
      return true
    },
  })
  await runner.emitToolCall({ type: "tool_call", toolName: "bash", toolCallId: "x", input })
  assert.deepEqual(writes, [])
  assert.equal(calls().length, 1)
})

for (const [command, needle] of [
  ["garbage git status", "no JSON"],
  ["empty git status", "no JSON"],
  ["nonzero git status", "status 3"],
]) {
  test(`no rewrite, one warning: ${command}`, async () => {
    assert.equal((await run(await load(), command)).command, command)
    assert.equal(errors.mock.callCount(), 1)
    const line = errors.mock.calls[0].arguments.join(" ")
    assert.match(line, new RegExp(needle))
    assert.match(line, /^gotk: pi plugin: .*; commands run unchanged$/)
  })
}

test("a gotk that hangs is abandoned after 2 s and the command runs unchanged", { timeout: 10_000 }, async () => {
  const runner = await load()
  const start = Date.now()
  const input = await run(runner, "sleep git status")
  const took = Date.now() - start
  assert.equal(input.command, "sleep git status")
  assert.ok(took >= 1900 && took < 3500, `took ${took} ms`)
  assert.match(errors.mock.calls[0].arguments[0], /did not answer within 2 s/)
})

test("missing binary: unchanged, warned once for many calls", async () => {
  process.env.GOTK_BIN = join(dir, "no-such-gotk")
  const runner = await load()
  for (const c of ["allow git status", "ask ls", "garbage x"]) {
    assert.equal((await run(runner, c)).command, c)
  }
  assert.equal(errors.mock.callCount(), 1)
  assert.match(errors.mock.calls[0].arguments[0], /no-such-gotk not found/)
})

test("without GOTK_BIN, gotk is found on PATH (execFile, no shell)", async () => {
  delete process.env.GOTK_BIN
  process.env.PATH = `${dir}:${process.env.PATH}`
  assert.equal((await run(await load(), "allow git diff")).command, "gotk allow git diff")
})

test("GOTK_DISABLED=1 and RTK_DISABLED=1 skip gotk entirely", async () => {
  const runner = await load()
  process.env.GOTK_DISABLED = "1"
  assert.equal((await run(runner, "allow git status")).command, "allow git status")
  delete process.env.GOTK_DISABLED
  process.env.RTK_DISABLED = "1"
  assert.equal((await run(runner, "allow git status")).command, "allow git status")
  assert.equal(calls().length, 0)
  delete process.env.RTK_DISABLED
  assert.equal((await run(runner, "allow git status")).command, "gotk allow git status")
})

test("other tools are untouched and gotk is not asked", async () => {
  const runner = await load()
  for (const tool of ["read", "edit", "write", "grep", "ls", "my_tool", "Bash", "shell"]) {
    assert.equal((await run(runner, "allow git status", tool)).command, "allow git status")
  }
  assert.equal(calls().length, 0)
})

test("shell syntax reaches gotk byte for byte as one argument", async () => {
  const command = `allow echo "$HOME" 'a  b' \`id\` ; ls | wc -l > out 2>&1\n# é ✓`
  assert.equal((await run(await load(), command)).command, "gotk " + command)
  assert.deepEqual(calls()[0].argv, ["rewrite", "--json", "--host", "pi", "--", command])
})

test("gotk runs in Pi's cwd", async () => {
  const cwd = mkdtempSync(join(dir, "project-"))
  await run(await load(cwd), "pass a")
  assert.equal(calls()[0].cwd, cwd)
})

test("a throwing args object does not escape the hook", async () => {
  const runner = await load()
  const input = { get command() { throw new Error("boom") } }
  const event = { type: "tool_call", toolName: "bash", toolCallId: "x", input }
  assert.equal(await runner.emitToolCall(event), undefined)
  assert.equal(errors.mock.callCount(), 1)
  assert.match(errors.mock.calls[0].arguments[0], /unexpected error: boom/)
})

test("odd inputs never throw and change nothing", async () => {
  const runner = await load()
  for (const command of [undefined, 42, "", "   "]) {
    const input = { command }
    const event = { type: "tool_call", toolName: "bash", toolCallId: "x", input }
    assert.equal(await runner.emitToolCall(event), undefined)
    assert.deepEqual(input, { command })
  }
  assert.equal(calls().length, 0)
  assert.equal((await run(runner, "allow a\0b")).command, "allow a\0b")
  assert.equal(errors.mock.callCount(), 1)
})
