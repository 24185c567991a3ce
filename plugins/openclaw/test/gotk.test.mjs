// Tests build/gotk.js (compiled from gotk.ts by `make -C plugins test`)
// against ../testdata/fake-gotk.mjs, the way OpenClaw calls it: the default
// export's register(api) registers a before_tool_call handler for exec,
// which OpenClaw awaits (a throw or a timeout would block the call) and
// whose {params} it merges shallowly into the call's own.
import { test, beforeEach, afterEach, mock } from "node:test"
import assert from "node:assert/strict"
import { chmodSync, copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const here = dirname(fileURLToPath(import.meta.url))
const built = pathToFileURL(join(here, "..", "build", "gotk.js")).href

let dir, fake, log, errors, savedEnv, loads = 0

beforeEach(() => {
  savedEnv = { ...process.env }
  dir = mkdtempSync(join(tmpdir(), "gotk-openclaw-"))
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

// handler loads a fresh copy of the plugin (its warn-once state is per
// module), registers it the way OpenClaw does and returns its handler.
async function handler() {
  const mod = await import(`${built}?load=${++loads}`)
  const regs = []
  mod.default.register({ on: (hook, fn, opts) => regs.push({ hook, fn, opts }) })
  assert.equal(regs.length, 1)
  assert.equal(regs[0].hook, "before_tool_call")
  assert.deepEqual(regs[0].opts, { matcher: ["exec"] })
  return regs[0].fn
}

function calls() {
  return readFileSync(log, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l))
}

// run calls the handler as OpenClaw does and applies its answer as OpenClaw
// does ({...params, ...result.params}); the event's params stay untouched.
async function run(h, command, toolName = "exec", extra = {}, ctx = { cwd: dir }) {
  const params = { command, workdir: "", yieldMs: 10000, ...extra }
  const before = JSON.stringify(params)
  const result = await h({ toolName, params, toolCallId: "c", runId: "r" }, ctx)
  assert.equal(JSON.stringify(params), before, "the event's params must not be changed")
  if (result !== undefined) {
    assert.deepEqual(Object.keys(result), ["params"])
    assert.deepEqual(Object.keys(result.params), ["command"])
  }
  return { ...params, ...result?.params }
}

test("module shape: a default {id, name, description, register} and nothing else", async () => {
  const mod = await import(`${built}?load=${++loads}`)
  assert.deepEqual(Object.keys(mod), ["default"])
  assert.equal(mod.default.id, "gotk")
  assert.equal(typeof mod.default.register, "function")
  const manifest = JSON.parse(readFileSync(join(here, "..", "openclaw.plugin.json"), "utf8"))
  assert.equal(manifest.id, mod.default.id)
})

test("allow rewrites, passes the command as one argv element, keeps other params", async () => {
  const params = await run(await handler(), "allow git status", "exec", { timeoutSeconds: 30 })
  assert.deepEqual(params, { command: "gotk allow git status", workdir: "", yieldMs: 10000, timeoutSeconds: 30 })
  assert.deepEqual(calls().map((c) => c.argv), [["rewrite", "--json", "--host", "openclaw", "--", "allow git status"]])
  assert.equal(errors.mock.callCount(), 0)
})

test("ask rewrites too", async () => {
  assert.equal((await run(await handler(), "ask git log -n 3")).command, "gotk ask git log -n 3")
})

for (const command of ["deny rm -rf x", "pass htop", "same git status", "odd git status"]) {
  test(`no rewrite and no warning: ${command}`, async () => {
    const h = await handler()
    const result = await h({ toolName: "exec", params: { command } }, { cwd: dir })
    assert.equal(result, undefined)
    assert.equal(calls().length, 1)
    assert.equal(errors.mock.callCount(), 0)
  })
}

for (const [command, needle] of [
  ["garbage git status", "no JSON"],
  ["empty git status", "no JSON"],
  ["nonzero git status", "status 3"],
]) {
  test(`no rewrite, one warning: ${command}`, async () => {
    const params = await run(await handler(), command)
    assert.equal(params.command, command)
    assert.equal(errors.mock.callCount(), 1)
    const line = errors.mock.calls[0].arguments.join(" ")
    assert.match(line, new RegExp(needle))
    assert.match(line, /^gotk: openclaw plugin: .*; commands run unchanged$/)
  })
}

test("a gotk that hangs is abandoned after 2 s, well inside OpenClaw's 15 s", { timeout: 10_000 }, async () => {
  const h = await handler()
  const start = Date.now()
  const params = await run(h, "sleep git status")
  const took = Date.now() - start
  assert.equal(params.command, "sleep git status")
  assert.ok(took >= 1900 && took < 3500, `took ${took} ms`)
  assert.match(errors.mock.calls[0].arguments[0], /did not answer within 2 s/)
})

test("missing binary: unchanged, warned once for many calls", async () => {
  process.env.GOTK_BIN = join(dir, "no-such-gotk")
  const h = await handler()
  for (const c of ["allow git status", "ask ls", "garbage x"]) {
    assert.equal((await run(h, c)).command, c)
  }
  assert.equal(errors.mock.callCount(), 1)
  assert.match(errors.mock.calls[0].arguments[0], /no-such-gotk not found/)
})

test("without GOTK_BIN, gotk is found on PATH (execFile, no shell)", async () => {
  delete process.env.GOTK_BIN
  process.env.PATH = `${dir}:${process.env.PATH}`
  assert.equal((await run(await handler(), "allow git diff")).command, "gotk allow git diff")
})

test("GOTK_DISABLED=1 and RTK_DISABLED=1 skip gotk entirely", async () => {
  const h = await handler()
  process.env.GOTK_DISABLED = "1"
  assert.equal((await run(h, "allow git status")).command, "allow git status")
  delete process.env.GOTK_DISABLED
  process.env.RTK_DISABLED = "1"
  assert.equal((await run(h, "allow git status")).command, "allow git status")
  assert.equal(calls().length, 0)
})

test("other tools, and Code Mode's exec (JavaScript), are untouched and gotk is not asked", async () => {
  const h = await handler()
  for (const tool of ["process", "read", "write", "apply_patch", "bash", "Exec"]) {
    assert.equal((await run(h, "allow git status", tool)).command, "allow git status")
  }
  const code = await h({ toolName: "exec", toolKind: "code_mode_exec", toolInputKind: "javascript", params: { command: "allow x" } }, {})
  assert.equal(code, undefined)
  assert.equal(calls().length, 0)
})

test("shell syntax reaches gotk byte for byte as one argument", async () => {
  const command = `allow echo "$HOME" 'a  b' \`id\` ; ls | wc -l > out 2>&1\n# é ✓`
  assert.equal((await run(await handler(), command)).command, "gotk " + command)
  assert.deepEqual(calls()[0].argv, ["rewrite", "--json", "--host", "openclaw", "--", command])
})

test("gotk runs in the call's absolute workdir, else the session's cwd, else the inherited one", async () => {
  const h = await handler()
  const sub = mkdtempSync(join(dir, "w-"))
  await run(h, "pass a", "exec", { workdir: sub })
  await run(h, "pass b", "exec", { workdir: "rel" })
  await run(h, "pass c", "exec", {}, { workspaceDir: dir })
  await run(h, "pass d", "exec", {}, { cwd: join(dir, "gone") })
  assert.deepEqual(calls().map((c) => c.cwd), [sub, dir, dir, process.cwd()])
})

test("a throwing params object does not escape the handler", async () => {
  const h = await handler()
  const params = { get command() { throw new Error("boom") } }
  assert.equal(await h({ toolName: "exec", params }, {}), undefined)
  assert.equal(errors.mock.callCount(), 1)
  assert.match(errors.mock.calls[0].arguments[0], /unexpected error: boom/)
})

test("odd inputs never throw and change nothing", async () => {
  const h = await handler()
  for (const event of [undefined, null, {}, { toolName: "exec" }, { toolName: "exec", params: null }, { toolName: "exec", params: "x" }]) {
    assert.equal(await h(event, undefined), undefined)
  }
  for (const command of [undefined, 42, "", "   ", ["allow", "x"]]) {
    assert.equal(await h({ toolName: "exec", params: { command } }, {}), undefined)
  }
  assert.equal(calls().length, 0)
  assert.equal((await run(h, "allow a\0b")).command, "allow a\0b")
  assert.equal(errors.mock.callCount(), 1)
})

test("an api whose on() throws does not escape register", async () => {
  const mod = await import(`${built}?load=${++loads}`)
  mod.default.register({ on() { throw new Error("nope") } })
  assert.match(errors.mock.calls[0].arguments[0], /cannot register: nope/)
})
