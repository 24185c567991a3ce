// gotk plugin for OpenCode 1.x: before the bash (or shell) tool runs, ask
// `gotk rewrite --json CMD` whether the command has a token-saving form and,
// if so, change output.args.command in place. OpenCode's own permission flow
// then judges the rewritten command as usual.
//
// Install: copy this one file to ~/.config/opencode/plugins/gotk.ts (or a
// project's .opencode/plugins/). OpenCode runs TypeScript directly; the only
// import from @opencode-ai/plugin is a type, so nothing needs installing.
//
// Contract with gotk: `gotk rewrite --json CMD` exits 0 and prints one line
// {"verdict":"allow|ask|deny|passthrough","command":"…","rule":"…"}. Only
// allow and ask rewrite. The exit status is never read as a verdict: a
// non-zero exit, a timeout, a missing binary or an unreadable answer all
// leave the command as it was, with one warning per process on stderr.
//
// Environment: GOTK_BIN (the gotk binary; default "gotk" found on PATH),
// GOTK_DISABLED=1 or RTK_DISABLED=1 (do nothing).
//
// Kilo Code CLI (an OpenCode fork that sets KILO=1) loads this same file
// from ~/.config/kilo/plugin/ or a project's .kilo/plugin/. There the
// plugin asks `gotk rewrite --json --host kilo`, which reads Kilo's own
// permission rules, and tells gotk which agent asked for the command
// (GOTK_KILO_AGENT, learned from the chat.params hook of the same session):
// Kilo's plan, ask and explore agents keep their own bash rules.
//
// Keep this file free of named exports: the 1.x loader calls every exported
// function of a module without a default plugin object as a plugin.
//
// This file, plugins/pi/gotk.ts and plugins/openclaw/gotk.ts share the block between the >>> and <<< lines
// on purpose: each host installs exactly one self-contained file.

import { execFile, type ChildProcess } from "node:child_process"
import { statSync } from "node:fs"
import type { Hooks, Plugin, PluginModule } from "@opencode-ai/plugin"

// Kilo Code CLI sets KILO=1 and loads this same file.
const KILO = process.env.KILO === "1"
const HOST = KILO ? "kilo" : "opencode"
const SHELL_TOOLS = new Set(["bash", "shell"])

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

// agents remembers, in Kilo, the agent of each session's latest model call:
// the agent whose tool call comes next.
const agents = new Map<string, string>()

const server: Plugin = async (ctx) => {
  const cwd = directory(ctx?.directory)
  const hooks: Hooks = {
    "tool.execute.before": async (input, output) => {
      try {
        if (!SHELL_TOOLS.has(input?.tool) || disabled()) return
        // OpenCode runs the object it passed in; a new output.args is ignored.
        const args = output?.args
        if (typeof args !== "object" || args === null) return
        const command: unknown = args.command
        if (typeof command !== "string" || command.trim() === "") return
        const rewritten = await rewrite(command, cwd, agents.get(input?.sessionID))
        if (rewritten !== undefined) args.command = rewritten
      } catch (err) {
        // A throw here would block the tool; gotk must never do that.
        warnOnce(`unexpected error: ${err instanceof Error ? err.message : String(err)}`)
      }
    },
  }
  if (KILO) {
    hooks["chat.params"] = async (input) => {
      const agent: unknown = (input as { agent?: unknown })?.agent
      const session: unknown = input?.sessionID
      if (typeof session !== "string") return
      if (typeof agent === "string" && agent !== "") agents.set(session, agent)
      else agents.delete(session)
    }
  }
  return hooks
}

export default { id: "gotk", server } satisfies PluginModule
