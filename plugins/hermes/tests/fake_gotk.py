#!/usr/bin/env python3
"""A stand-in for `gotk rewrite --json CMD`; the first word of CMD picks the answer.

  allow X / ask X   -> verdict allow / ask, command "gotk allow X" ...
  deny X / pass X   -> verdict deny / passthrough, command unchanged
  same X            -> verdict allow, command equal to the original
  odd X             -> verdict "maybe" (unknown to the plugin)
  garbage X         -> prints text that is not JSON
  empty X           -> prints nothing, exits 0
  nonzero X         -> prints a valid allow answer but exits 3
  sleep X           -> a child `sleep 5` holds stdout open (must time out)
  anything else     -> verdict passthrough
Each call's argv and cwd are appended as one JSON line to $FAKE_GOTK_LOG when set.
"""
import json
import os
import sys

argv = sys.argv[1:]
if os.environ.get("FAKE_GOTK_LOG"):
    with open(os.environ["FAKE_GOTK_LOG"], "a", encoding="utf-8") as log:
        log.write(json.dumps({"argv": argv, "cwd": os.getcwd()}) + "\n")
if argv[:2] != ["rewrite", "--json"]:
    sys.stderr.write("fake gotk: expected `rewrite --json CMD`\n")
    sys.exit(2)
rest = argv[2:]
if rest[:1] == ["--host"]:
    rest = rest[2:]
if rest[:1] == ["--"]:
    rest = rest[1:]
command = " ".join(rest)
word = command.split(" ")[0]


def say(verdict, rewritten, rule=""):
    print(json.dumps({"verdict": verdict, "command": rewritten, "rule": rule}), flush=True)


if word in ("allow", "ask"):
    say(word, "gotk " + command, "fake." + word)
elif word == "deny":
    say("deny", command, "fake.deny")
elif word == "same":
    say("allow", command, "fake.same")
elif word == "odd":
    say("maybe", "gotk " + command)
elif word == "garbage":
    print("gotk: this is not JSON")
elif word == "empty":
    pass
elif word == "nonzero":
    say("allow", "gotk " + command, "fake.nonzero")
    sys.exit(3)
elif word == "sleep":
    import subprocess
    import time

    subprocess.Popen(["sleep", "5"], stdin=subprocess.DEVNULL)  # keeps stdout open
    time.sleep(5)
    say("allow", "gotk " + command)
else:
    say("passthrough", command)
