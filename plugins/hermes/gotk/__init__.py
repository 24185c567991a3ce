"""gotk plugin for the Hermes agent: rewrite terminal commands through gotk.

Before the ``terminal`` tool runs, ask ``gotk rewrite --json --host hermes -- CMD`` whether the
command has a token-saving form. If so, answer Hermes with
``{"action": "modify", "args": {...all args, command replaced}}`` (current
Hermes merges that over the tool's arguments) and also change ``args`` in
place (older Hermes ignores ``modify`` but runs the dict it passed in).
Hermes's own approval flow then judges the rewritten command.

Install: copy this directory to ``~/.hermes/plugins/gotk/`` and enable it
(``hermes plugins enable gotk``, or ``plugins.enabled: [gotk]`` in
``~/.hermes/config.yaml``). Standard library only.

Contract with gotk: ``gotk rewrite --json CMD`` exits 0 and prints one line
``{"verdict":"allow|ask|deny|passthrough","command":"…","rule":"…"}``. Only
allow and ask rewrite. The exit status is never read as a verdict: a non-zero
exit, a timeout, a missing binary or an unreadable answer leave the command as
it was, with one warning per process on stderr. The hook never raises: Hermes
turns a raising ``pre_tool_call`` callback into a block.

Environment: ``GOTK_BIN`` (the gotk binary; default ``gotk`` found on PATH),
``GOTK_DISABLED=1`` or ``RTK_DISABLED=1`` (do nothing).
"""

import json
import os
import subprocess
import sys

TIMEOUT_SECONDS = 2
SHELL_TOOLS = frozenset({"terminal"})
REWRITE_VERDICTS = frozenset({"allow", "ask"})

_warned = False


def _warn_once(problem):
    """Print at most one line per process, so a missing gotk does not repeat."""
    global _warned
    if _warned:
        return
    _warned = True
    line = " ".join(f"gotk: hermes plugin: {problem}; commands run unchanged".split())
    try:
        print(line, file=sys.stderr, flush=True)
    except Exception:  # a closed stderr must not turn into a block
        pass


def _disabled():
    return os.environ.get("GOTK_DISABLED") == "1" or os.environ.get("RTK_DISABLED") == "1"


def _read_answer(stdout, original):
    """Return (command to run instead or None, problem or None)."""
    try:
        answer = json.loads(stdout)
    except ValueError:
        return None, f"gotk rewrite --json printed no JSON ({stdout[:60]!r})"
    if not isinstance(answer, dict):
        return None, "gotk rewrite --json printed no JSON object"
    verdict, command = answer.get("verdict"), answer.get("command")
    if not isinstance(verdict, str) or not isinstance(command, str):
        return None, "gotk rewrite --json answer lacks a string verdict or command"
    if verdict in REWRITE_VERDICTS and command and command != original:
        return command, None
    return None, None


def _rewrite(command):
    """Return the command to run instead, or None to leave it alone."""
    binary = os.environ.get("GOTK_BIN") or "gotk"
    try:
        done = subprocess.run(
            [binary, "rewrite", "--json", "--host", "hermes", "--", command],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=TIMEOUT_SECONDS,
            encoding="utf-8",
            errors="replace",
            creationflags=getattr(subprocess, "CREATE_NO_WINDOW", 0),
        )
    except FileNotFoundError:
        _warn_once(f"{binary} not found (install gotk or set GOTK_BIN)")
        return None
    except subprocess.TimeoutExpired:
        _warn_once(f"{binary} rewrite --json did not answer within {TIMEOUT_SECONDS} s")
        return None
    except Exception as err:  # a NUL byte in the command, permissions, …
        _warn_once(f"cannot run {binary}: {err}")
        return None
    if done.returncode != 0:
        _warn_once(f"{binary} rewrite --json exited with status {done.returncode}")
        return None
    rewritten, problem = _read_answer(done.stdout, command)
    if problem:
        _warn_once(problem)
    return rewritten


def pre_tool_call(tool_name=None, args=None, **kwargs):
    """Hermes ``pre_tool_call`` hook: a modify directive for a rewrite, else None."""
    try:
        if tool_name not in SHELL_TOOLS or not isinstance(args, dict) or _disabled():
            return None
        command = args.get("command")
        if not isinstance(command, str) or not command.strip():
            return None
        rewritten = _rewrite(command)
        if rewritten is None:
            return None
        args["command"] = rewritten
        return {"action": "modify", "args": dict(args)}
    except Exception as err:
        _warn_once(f"unexpected error: {err}")
        return None


def register(ctx):
    """Hermes plugin entry point."""
    ctx.register_hook("pre_tool_call", pre_tool_call)
