// gotk plugin for OpenClaw (npm openclaw 2026.9.x): before the exec tool
// runs, ask `gotk rewrite --json --host openclaw CMD` whether the command has
// a token-saving form and, if so, return {params: {command}} from the
// before_tool_call hook. OpenClaw merges the returned params into the call's
// own (shallowly), so every other exec argument stays as the model sent it.
//
// Install: gotk-install --agent openclaw writes this file as index.ts,
// beside openclaw.plugin.json, in ~/.openclaw/extensions/gotk/
// ($OPENCLAW_STATE_DIR/extensions/gotk/), which OpenClaw discovers on its
// own. OpenClaw compiles TypeScript itself; the file imports nothing but
// node's own modules.
//
// OpenClaw BLOCKS the tool call when a before_tool_call handler throws or
// does not settle within its budget (15 s by default): the handler catches
// everything, and gotk gets TIMEOUT_MS (2 s) at most.
//
// Contract with gotk: `gotk rewrite --json CMD` exits 0 and prints one line
// {"verdict":"allow|ask|deny|passthrough","command":"…","rule":"…"}. Only
// allow and ask rewrite. The exit status is never read as a verdict: a
// non-zero exit, a timeout, a missing binary or an unreadable answer all
// leave the command as it was, with one warning per process on stderr.
// gotk answers for host openclaw with OpenClaw's own exec policy in mind
// (core/permission/openclaw.go): it rewrites only where OpenClaw runs any
// command without an allowlist or approval check, which would otherwise
// judge `gotk …` instead of the original.
//
// Environment: GOTK_BIN (the gotk binary; default "gotk" found on PATH),
// GOTK_DISABLED=1 or RTK_DISABLED=1 (do nothing).
//
// This file, opencode/gotk.ts and pi/gotk.ts share the block between the >>>
// and <<< lines on purpose: each host installs exactly one self-contained
// file.

import { execFile, type ChildProcess } from "node:child_process"
import { statSync } from "node:fs"

const HOST = "openclaw"
const SHELL_TOOL = "exec"

// >>> shared by opencode/gotk.ts, pi/gotk.ts and openclaw/gotk.ts, byte for byte (plugins_test.go checks it)
const TIMEOUT_MS = 2000
const MAX_ANSWER_BYTES = 1 << 20

let warned = false

// warnOnce prints at most one line per process, so a missing gotk does not
// repeat itself on every command.
function warnOnce(problem: string): void {
  if (warned) return
  warned = true
  const line = `gotk: ${HOST} plugin: ${problem}; commands run unchanged`
  console.error(line.replace(/\s+/g, " "))
}

function disabled(): boolean {
  return process.env.GOTK_DISABLED === "1" || process.env.RTK_DISABLED === "1"
}

// directory returns dir when it names an existing directory, so that a stale
// project path makes gotk run in the inherited cwd instead of failing.
function directory(dir: unknown): string | undefined {
  if (typeof dir !== "string" || dir === "") return undefined
  try {
    return statSync(dir).isDirectory() ? dir : undefined
  } catch {
    return undefined
  }
}

type Answer = { command?: string; problem?: string }

// readAnswer turns gotk's stdout into the command to run instead, if any.
function readAnswer(stdout: string, original: string): Answer {
  let answer: unknown
  try {
    answer = JSON.parse(stdout)
  } catch {
    return { problem: `gotk rewrite --json printed no JSON (${JSON.stringify(stdout.slice(0, 60))})` }
  }
  if (typeof answer !== "object" || answer === null) {
    return { problem: "gotk rewrite --json printed no JSON object" }
  }
  const { verdict, command } = answer as Record<string, unknown>
  if (typeof verdict !== "string" || typeof command !== "string") {
    return { problem: "gotk rewrite --json answer lacks a string verdict or command" }
  }
  if ((verdict === "allow" || verdict === "ask") && command !== "" && command !== original) {
    return { command }
  }
  return {}
}

// failure names what went wrong with the gotk process, in one line.
function failure(bin: string, err: { code?: unknown; signal?: unknown; message: string }): string {
  if (err.code === "ENOENT") return `${bin} not found (install gotk or set GOTK_BIN)`
  if (typeof err.code === "number") return `${bin} rewrite --json exited with status ${err.code}`
  if (typeof err.signal === "string" && err.signal !== "") return `${bin} rewrite --json was killed by ${err.signal}`
  return `cannot run ${bin}: ${err.message.split("\n")[0]}`
}

// rewrite resolves to the command to run instead, or undefined to leave the
// command alone. It never rejects and settles within TIMEOUT_MS.
function rewrite(command: string, cwd: string | undefined, agent?: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const bin = process.env.GOTK_BIN || "gotk"
    let child: ChildProcess | undefined
    let settled = false
    const settle = (answer: Answer) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      if (answer.problem) warnOnce(answer.problem)
      resolve(answer.command)
    }
    // Our own timer rather than execFile's timeout option: execFile reports
    // only when stdout closes, which a grandchild holding the pipe can delay.
    const timer = setTimeout(() => {
      child?.kill("SIGKILL")
      child?.stdout?.destroy()
      child?.stderr?.destroy()
      settle({ problem: `${bin} rewrite --json did not answer within ${TIMEOUT_MS / 1000} s` })
    }, TIMEOUT_MS)
    try {
      // --host: gotk answers with this host's rules and answer policy, not
      // Claude Code's (the default).
      const args = ["rewrite", "--json", "--host", HOST, "--", command]
      const env = (HOST as string) === "kilo" ? { ...process.env, GOTK_KILO_AGENT: agent ?? "" } : process.env
      child = execFile(
        bin,
        args,
        { cwd, env, encoding: "utf8", maxBuffer: MAX_ANSWER_BYTES, windowsHide: true },
        (err, stdout) => {
          if (err) settle({ problem: failure(bin, err) })
          else settle(readAnswer(String(stdout), command))
        },
      )
      child.stdin?.end()
    } catch (err) {
      // execFile throws synchronously on arguments it cannot pass (a NUL byte).
      settle({ problem: `cannot run ${bin}: ${err instanceof Error ? err.message : String(err)}` })
    }
  })
}
// <<< shared

// The parts of OpenClaw's plugin API this file uses (openclaw/plugin-sdk
// types, written out so that the installed file imports nothing).
type ToolCallEvent = {
  toolName?: unknown
  toolKind?: unknown
  toolInputKind?: unknown
  params?: unknown
}
type ToolCallContext = { cwd?: unknown; workspaceDir?: unknown }
type ToolCallResult = { params?: Record<string, unknown> }
type PluginApi = {
  on(
    hook: "before_tool_call",
    handler: (event: ToolCallEvent, ctx: ToolCallContext) => Promise<ToolCallResult | undefined>,
    options: { matcher: string[] },
  ): void
}

// beforeToolCall returns the params to merge into the exec call, or
// undefined to leave the call alone. It never throws.
async function beforeToolCall(event: ToolCallEvent, ctx: ToolCallContext): Promise<ToolCallResult | undefined> {
  try {
    if (event?.toolName !== SHELL_TOOL || disabled()) return undefined
    // Code Mode's outer exec carries JavaScript, not a shell command.
    if (event.toolKind !== undefined || event.toolInputKind !== undefined) return undefined
    const params = event.params
    if (typeof params !== "object" || params === null) return undefined
    const command: unknown = (params as Record<string, unknown>).command
    if (typeof command !== "string" || command.trim() === "") return undefined
    const workdir: unknown = (params as Record<string, unknown>).workdir
    const cwd =
      (typeof workdir === "string" && workdir.startsWith("/") ? directory(workdir) : undefined) ??
      directory(ctx?.cwd) ??
      directory(ctx?.workspaceDir)
    const rewritten = await rewrite(command, cwd)
    return rewritten === undefined ? undefined : { params: { command: rewritten } }
  } catch (err) {
    // A throw here would block the tool; gotk must never do that.
    warnOnce(`unexpected error: ${err instanceof Error ? err.message : String(err)}`)
    return undefined
  }
}

export default {
  id: "gotk",
  name: "gotk",
  description: "Runs shell commands through gotk for compact, faithful output.",
  register(api: PluginApi): void {
    try {
      api.on("before_tool_call", beforeToolCall, { matcher: [SHELL_TOOL] })
    } catch (err) {
      warnOnce(`cannot register: ${err instanceof Error ? err.message : String(err)}`)
    }
  },
}
