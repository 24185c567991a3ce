"""Tests plugins/hermes/gotk against tests/fake_gotk.py, called the way Hermes
calls a pre_tool_call plugin hook: register(ctx) once, then the callback with
keyword arguments for every tool call; a ``modify`` answer is shallow-merged
over the tool's arguments."""

import contextlib
import importlib.util
import io
import json
import os
import pathlib
import shutil
import stat
import tempfile
import time
import unittest

HERE = pathlib.Path(__file__).resolve().parent
PLUGIN_DIR = HERE.parent / "gotk"


class FakeContext:
    """The part of Hermes's PluginContext the plugin uses."""

    def __init__(self):
        self.hooks = {}

    def register_hook(self, name, callback):
        self.hooks.setdefault(name, []).append(callback)


def load_plugin():
    """A fresh module per test (warn-once state is per module), loaded like
    Hermes loads a directory plugin: from its __init__.py under its own name."""
    spec = importlib.util.spec_from_file_location(
        "hermes_plugins.gotk", PLUGIN_DIR / "__init__.py",
        submodule_search_locations=[str(PLUGIN_DIR)])
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class PluginTest(unittest.TestCase):
    def setUp(self):
        self.dir = pathlib.Path(tempfile.mkdtemp(prefix="gotk-hermes-"))
        self.addCleanup(shutil.rmtree, self.dir, ignore_errors=True)
        self.fake = self.dir / "gotk"
        shutil.copyfile(HERE / "fake_gotk.py", self.fake)
        self.fake.chmod(self.fake.stat().st_mode | stat.S_IXUSR)
        self.log = self.dir / "calls.jsonl"
        self.log.write_text("")
        saved = dict(os.environ)
        self.addCleanup(lambda: (os.environ.clear(), os.environ.update(saved)))
        for key in ("GOTK_BIN", "GOTK_DISABLED", "RTK_DISABLED"):
            os.environ.pop(key, None)
        os.environ["GOTK_BIN"] = str(self.fake)
        os.environ["FAKE_GOTK_LOG"] = str(self.log)
        self.plugin = load_plugin()
        ctx = FakeContext()
        self.plugin.register(ctx)
        self.assertEqual(list(ctx.hooks), ["pre_tool_call"])
        self.assertEqual(len(ctx.hooks["pre_tool_call"]), 1)
        self.hook = ctx.hooks["pre_tool_call"][0]
        self.stderr = io.StringIO()

    def calls(self):
        return [json.loads(line) for line in self.log.read_text().splitlines() if line]

    def fire(self, command, tool_name="terminal", **extra):
        """Call the hook as Hermes does; return (args after the call, the
        answer, the arguments Hermes would run with)."""
        args = {"command": command, "background": False, "timeout": 180, **extra}
        original = dict(args)
        with contextlib.redirect_stderr(self.stderr):
            answer = self.hook(
                tool_name=tool_name, args=args, task_id="t", session_id="s",
                tool_call_id="c", turn_id="u", api_request_id="r", middleware_trace=[],
                telemetry_schema_version="hermes.observer.v1")
        ran = dict(original)
        if isinstance(answer, dict) and answer.get("action") == "modify":
            ran.update(answer["args"])  # Hermes: shallow merge over the original
        return args, answer, ran

    def warnings(self):
        return self.stderr.getvalue().splitlines()

    def test_allow_rewrites_both_ways_and_keeps_other_args(self):
        args, answer, ran = self.fire("allow git status", workdir="/w")
        want = {"command": "gotk allow git status", "background": False, "timeout": 180, "workdir": "/w"}
        self.assertEqual(answer, {"action": "modify", "args": want}, self.stderr.getvalue())
        self.assertEqual(args, want)  # in place, for Hermes without "modify"
        self.assertEqual(ran, want)
        self.assertIsNot(answer["args"], args)
        self.assertEqual([c["argv"] for c in self.calls()], [["rewrite", "--json", "--host", "hermes", "--", "allow git status"]])
        self.assertEqual(self.warnings(), [])

    def test_ask_rewrites_too(self):
        _, answer, ran = self.fire("ask git log -n 3")
        self.assertEqual(answer["action"], "modify")
        self.assertEqual(ran["command"], "gotk ask git log -n 3")

    def test_no_rewrite_no_warning(self):
        for command in ("deny rm -rf x", "pass htop", "same git status", "odd git status"):
            with self.subTest(command=command):
                args, answer, _ = self.fire(command)
                self.assertIsNone(answer)
                self.assertEqual(args["command"], command)
        self.assertEqual(len(self.calls()), 4)
        self.assertEqual(self.warnings(), [])

    def test_bad_answers_leave_command_and_warn(self):
        for command, needle in (("garbage git status", "no JSON"),
                                ("empty git status", "no JSON"),
                                ("nonzero git status", "status 3")):
            with self.subTest(command=command):
                self.plugin._warned = False
                self.stderr = io.StringIO()
                args, answer, _ = self.fire(command)
                self.assertIsNone(answer)
                self.assertEqual(args["command"], command)
                [line] = self.warnings()
                self.assertIn(needle, line)
                self.assertRegex(line, r"^gotk: hermes plugin: .*; commands run unchanged$")

    def test_hanging_gotk_times_out_after_2s(self):
        start = time.monotonic()
        args, answer, _ = self.fire("sleep git status")
        took = time.monotonic() - start
        self.assertIsNone(answer)
        self.assertEqual(args["command"], "sleep git status")
        self.assertTrue(1.9 <= took < 3.5, f"took {took:.2f} s")
        self.assertIn("did not answer within 2 s", self.warnings()[0])

    def test_missing_binary_warns_once(self):
        os.environ["GOTK_BIN"] = str(self.dir / "no-such-gotk")
        for command in ("allow git status", "ask ls", "garbage x"):
            args, answer, _ = self.fire(command)
            self.assertIsNone(answer)
            self.assertEqual(args["command"], command)
        [line] = self.warnings()
        self.assertIn("no-such-gotk not found", line)

    def test_different_failures_warn_once(self):
        self.fire("garbage a")
        self.fire("nonzero b")
        os.environ["GOTK_BIN"] = str(self.dir / "missing")
        self.fire("allow c")
        self.assertEqual(len(self.warnings()), 1)

    def test_gotk_found_on_path_without_gotk_bin(self):
        del os.environ["GOTK_BIN"]
        os.environ["PATH"] = f"{self.dir}{os.pathsep}{os.environ.get('PATH', '')}"
        _, _, ran = self.fire("allow git diff")
        self.assertEqual(ran["command"], "gotk allow git diff")

    def test_disabled(self):
        for key in ("GOTK_DISABLED", "RTK_DISABLED"):
            os.environ[key] = "1"
            args, answer, _ = self.fire("allow git status")
            self.assertIsNone(answer)
            self.assertEqual(args["command"], "allow git status")
            del os.environ[key]
        self.assertEqual(self.calls(), [])
        os.environ["GOTK_DISABLED"] = "0"
        self.assertEqual(self.fire("allow git status")[2]["command"], "gotk allow git status")

    def test_other_tools_untouched(self):
        for tool in ("read_file", "write_file", "patch", "execute_code", "Terminal", "bash"):
            args, answer, _ = self.fire("allow git status", tool_name=tool)
            self.assertIsNone(answer)
            self.assertEqual(args["command"], "allow git status")
        self.assertEqual(self.calls(), [])

    def test_shell_syntax_passed_as_one_argument(self):
        command = "allow echo \"$HOME\" 'a  b' `id` ; ls | wc -l > out 2>&1\n# é ✓"
        _, _, ran = self.fire(command)
        self.assertEqual(ran["command"], "gotk " + command)
        self.assertEqual(self.calls()[0]["argv"], ["rewrite", "--json", "--host", "hermes", "--", command])

    def test_legacy_positional_call(self):
        args = {"command": "allow ls"}
        with contextlib.redirect_stderr(self.stderr):
            answer = self.hook("terminal", args)
        self.assertEqual(args["command"], "gotk allow ls")
        self.assertEqual(answer, {"action": "modify", "args": {"command": "gotk allow ls"}})

    def test_odd_inputs_never_raise(self):
        with contextlib.redirect_stderr(self.stderr):
            self.assertIsNone(self.hook())
            self.assertIsNone(self.hook(tool_name="terminal"))
            self.assertIsNone(self.hook(tool_name="terminal", args=None))
            self.assertIsNone(self.hook(tool_name="terminal", args="allow ls"))
            for command in (None, 42, "", "   ", ["allow", "x"]):
                args = {"command": command}
                self.assertIsNone(self.hook(tool_name="terminal", args=args))
                self.assertEqual(args, {"command": command})
        self.assertEqual(self.calls(), [])
        args, answer, _ = self.fire("allow a\0b")
        self.assertIsNone(answer)
        self.assertEqual(args["command"], "allow a\0b")
        self.assertEqual(len(self.warnings()), 1)

    def test_a_raising_args_object_does_not_escape(self):
        class Hostile(dict):
            def get(self, key, default=None):
                raise RuntimeError("boom")

        with contextlib.redirect_stderr(self.stderr):
            self.assertIsNone(self.hook(tool_name="terminal", args=Hostile(command="allow ls")))
        [line] = self.warnings()
        self.assertIn("unexpected error: boom", line)

    def test_manifest(self):
        text = (PLUGIN_DIR / "plugin.yaml").read_text()
        self.assertRegex(text, r"(?m)^name: gotk$")
        self.assertRegex(text, r"(?m)^provides_hooks:\n  - pre_tool_call$")


if __name__ == "__main__":
    unittest.main()
