// Tests build/gotk.js (compiled from gotk.ts by `make -C plugins test`)
// against ../testdata/fake-gotk.mjs, the way OpenCode 1.x calls it: the default
// export's server(ctx) returns hooks, and tool.execute.before(input, output)
// must change output.args.command in place.
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
  dir = mkdtempSync(join(tmpdir(), "gotk-opencode-"))
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

// hooks loads a fresh copy of the plugin (its warn-once state is per module)
// and runs its server the way OpenCode does.
async function hooks(ctx = { directory: dir }) {
  const mod = await import(`${built}?load=${++loads}`)
  return mod.default.server(ctx)
}

function calls() {
  return readFileSync(log, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l))
}

async function run(h, command, tool = "bash", extra = {}) {
  const args = { command, description: "d", timeout: 1000, workdir: "/w", ...extra }
  const output = { args }
  await h["tool.execute.before"]({ tool, sessionID: "s", callID: "c" }, output)
  assert.equal(output.args, args, "output.args must stay the same object")
  return args
}

test("module shape: a default {id, server} and nothing else the loader could call", async () => {
  const mod = await import(`${built}?load=${++loads}`)
  assert.deepEqual(Object.keys(mod), ["default"])
  assert.equal(mod.default.id, "gotk")
  assert.equal(typeof mod.default.server, "function")
  const h = await mod.default.server({ directory: dir })
  assert.deepEqual(Object.keys(h), ["tool.execute.before"])
})

test("allow rewrites in place, passes the command as one argv element, keeps other args", async () => {
  const h = await hooks()
  const args = await run(h, "allow git status")
  assert.deepEqual(args, { command: "gotk allow git status", description: "d", timeout: 1000, workdir: "/w" })
  assert.deepEqual(calls().map((c) => c.argv), [["rewrite", "--json", "--host", "opencode", "--", "allow git status"]])
  assert.equal(errors.mock.callCount(), 0)
})

test("ask rewrites too (OpenCode's own permission flow then applies)", async () => {
  const args = await run(await hooks(), "ask git log -n 3")
  assert.equal(args.command, "gotk ask git log -n 3")
})

test("the shell tool is rewritten like bash", async () => {
  const args = await run(await hooks(), "allow ls", "shell")
  assert.equal(args.command, "gotk allow ls")
})

for (const command of ["deny rm -rf x", "pass htop", "same git status", "odd git status"]) {
  test(`no rewrite and no warning: ${command}`, async () => {
    const args = await run(await hooks(), command)
    assert.equal(args.command, command)
    assert.equal(calls().length, 1)
    assert.equal(errors.mock.callCount(), 0)
  })
}

test("an answer equal to the original command is not written back", async () => {
  const h = await hooks()
  const writes = []
  const args = new Proxy({ command: "same git status" }, {
    set(target, key, value) {
      writes.push(key)
      target[key] = value
      return true
    },
  })
  const output = { args }
  await h["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: "c" }, output)
  assert.deepEqual(writes, [])
  await h["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: "c" }, output)
  assert.equal(calls().length, 2)
})

for (const [command, needle] of [
  ["garbage git status", "no JSON"],
  ["empty git status", "no JSON"],
  ["nonzero git status", "status 3"],
]) {
  test(`no rewrite, one warning: ${command}`, async () => {
    const args = await run(await hooks(), command)
    assert.equal(args.command, command)
    assert.equal(errors.mock.callCount(), 1)
    const line = errors.mock.calls[0].arguments.join(" ")
    assert.match(line, new RegExp(needle))
    assert.match(line, /^gotk: opencode plugin: .*; commands run unchanged$/)
  })
}

test("a gotk that hangs is abandoned after 2 s and the command runs unchanged", { timeout: 10_000 }, async () => {
  const h = await hooks()
  const start = Date.now()
  const args = await run(h, "sleep git status")
  const took = Date.now() - start
  assert.equal(args.command, "sleep git status")
  assert.ok(took >= 1900 && took < 3500, `took ${took} ms`)
  assert.match(errors.mock.calls[0].arguments[0], /did not answer within 2 s/)
})

test("missing binary: unchanged, warned once for many calls", async () => {
  process.env.GOTK_BIN = join(dir, "no-such-gotk")
  const h = await hooks()
  for (const c of ["allow git status", "ask ls", "garbage x"]) {
    assert.equal((await run(h, c)).command, c)
  }
  assert.equal(errors.mock.callCount(), 1)
  assert.match(errors.mock.calls[0].arguments[0], /no-such-gotk not found/)
})

test("different failures in one process still warn only once", async () => {
  const h = await hooks()
  await run(h, "garbage a")
  await run(h, "nonzero b")
  process.env.GOTK_BIN = join(dir, "missing")
  await run(h, "allow c")
  assert.equal(errors.mock.callCount(), 1)
})

test("without GOTK_BIN, gotk is found on PATH (execFile, no shell)", async () => {
  delete process.env.GOTK_BIN
  process.env.PATH = `${dir}:${process.env.PATH}`
  const args = await run(await hooks(), "allow git diff")
  assert.equal(args.command, "gotk allow git diff")
})

test("GOTK_DISABLED=1 and RTK_DISABLED=1 skip gotk entirely", async () => {
  const h = await hooks()
  process.env.GOTK_DISABLED = "1"
  assert.equal((await run(h, "allow git status")).command, "allow git status")
  delete process.env.GOTK_DISABLED
  process.env.RTK_DISABLED = "1"
  assert.equal((await run(h, "allow git status")).command, "allow git status")
  assert.equal(calls().length, 0)
  delete process.env.RTK_DISABLED
  process.env.GOTK_DISABLED = "0"
  assert.equal((await run(h, "allow git status")).command, "gotk allow git status")
})

test("other tools are untouched and gotk is not asked", async () => {
  const h = await hooks()
  for (const tool of ["read", "edit", "write", "grep", "task", "Bash"]) {
    const args = await run(h, "allow git status", tool)
    assert.equal(args.command, "allow git status")
  }
  assert.equal(calls().length, 0)
})

test("shell syntax reaches gotk byte for byte as one argument", async () => {
  const command = `allow echo "$HOME" 'a  b' \`id\` ; ls | wc -l > out 2>&1\n# é ✓`
  const args = await run(await hooks(), command)
  assert.equal(args.command, "gotk " + command)
  assert.deepEqual(calls()[0].argv, ["rewrite", "--json", "--host", "opencode", "--", command])
})

test("gotk runs in the project directory, or the inherited cwd when that is gone", async () => {
  await run(await hooks({ directory: dir }), "pass a")
  await run(await hooks({ directory: join(dir, "gone") }), "pass b")
  const [a, b] = calls()
  assert.equal(a.cwd, dir)
  assert.equal(b.cwd, process.cwd())
})

test("a throwing args object does not escape the hook", async () => {
  const h = await hooks()
  const args = { get command() { throw new Error("boom") } }
  await h["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: "c" }, { args })
  assert.equal(errors.mock.callCount(), 1)
  assert.match(errors.mock.calls[0].arguments[0], /unexpected error: boom/)
})

test("odd inputs never throw and change nothing", async () => {
  const h = await hooks({})
  const before = h["tool.execute.before"]
  await before({ tool: "bash" }, {})
  await before({ tool: "bash" }, { args: null })
  await before(undefined, undefined)
  for (const command of [undefined, 42, "", "   ", ["allow", "x"]]) {
    const args = { command }
    await before({ tool: "bash" }, { args })
    assert.deepEqual(args, { command })
  }
  assert.equal(calls().length, 0)
  const nul = await run(h, "allow a\0b")
  assert.equal(nul.command, "allow a\0b")
  assert.equal(errors.mock.callCount(), 1)
})

test("kilo (KILO=1): asks `gotk rewrite --json --host kilo -- CMD` with the agent of the session's latest model call", async () => {
  process.env.KILO = "1"
  const h = await hooks()
  assert.deepEqual(Object.keys(h).sort(), ["chat.params", "tool.execute.before"])
  // no model call seen for the session yet: no agent (gotk assumes any)
  let args = await run(h, "allow git status")
  assert.equal(args.command, "gotk allow git status")
  await h["chat.params"]({ sessionID: "s", agent: "plan", model: {}, provider: {}, message: {} }, {})
  await h["chat.params"]({ sessionID: "other", agent: "code", model: {}, provider: {}, message: {} }, {})
  args = await run(h, "ask go test")
  assert.equal(args.command, "gotk ask go test")
  await h["chat.params"]({ sessionID: "s", agent: "code", model: {}, provider: {}, message: {} }, {})
  await run(h, "pass ls")
  assert.deepEqual(calls().map((c) => [c.argv, c.agent]), [
    [["rewrite", "--json", "--host", "kilo", "--", "allow git status"], ""],
    [["rewrite", "--json", "--host", "kilo", "--", "ask go test"], "plan"],
    [["rewrite", "--json", "--host", "kilo", "--", "pass ls"], "code"],
  ])
  // a malformed chat.params forgets the session's agent, and never throws
  await h["chat.params"]({ sessionID: "s" }, {})
  await h["chat.params"](undefined, {})
  await run(h, "pass ls")
  assert.equal(calls().at(-1).agent, "")
  assert.equal(errors.mock.callCount(), 0)
})

test("kilo: a missing gotk warns as the kilo plugin", async () => {
  process.env.KILO = "1"
  process.env.GOTK_BIN = join(dir, "nope")
  const args = await run(await hooks(), "allow git status")
  assert.equal(args.command, "allow git status")
  assert.match(String(errors.mock.calls[0].arguments[0]), /^gotk: kilo plugin: .* not found/)
})
