#!/usr/bin/env python3
"""askhook end to end: the real Claude Code CLI, offline, against a fake Messages API.

    e2e.py --claude <claude binary> --askhook <askhook binary> [scenario names...]

For each scenario (scenarios/<name>.json) this builds an isolated world under a fresh
/tmp/askhook-e2e.* folder (HOME, CLAUDE_CONFIG_DIR, a git project, ASKHOOK_HOME), writes the
settings the user had before askhook (a capture hook on every event, standing in for another
tool's hooks), installs askhook into them (`askhook install --settings`, checking the exec-form
registration on all six events and that the other tool's hooks stayed), starts fake_api.py on a free 127.0.0.1 port
(also the client's HTTPS proxy, so any other traffic is caught), runs `claude` in a private tmux
server, plays the scenario's drive steps, then checks what askhook recorded (`askhook log
--json`), what the model was told (the tool_result blocks the fake API received) and what the
screen showed. Everything is torn down afterwards, also on failure; a failure prints the last
screen, the hook payloads seen, the rows and askhook's error log.

Scenario file (JSON; the fake API reads "turns" and "side_reply", see fake_api.py):

    name, description
    turns, side_reply            the fake model's replies
    mcp_args                     present: run fake_mcp.py as MCP server "askmcp" with these args
    settings_extra               keys merged into the pre-install settings.json
    cwd                          start claude in this folder inside the project (default: its root)
    default_paths                true: no ASKHOOK_HOME for the hook or the CLI (askhook's defaults)
    before                       [["pref", "set", "demo-q", "never-ask", "--force"], ...]: askhook commands
                                 run in the project dir before claude starts (each must exit 0)
    config                       text written to askhook's config.toml before claude starts
    uninstall                    true: after the session, `askhook uninstall` must give back the
                                 pre-install settings.json byte for byte
    default_scope                true: `askhook install`/`uninstall` without --settings (the user
                                 scope must resolve to $CLAUDE_CONFIG_DIR/settings.json)
    rows_any_order               true: compare rows (the drive steps' and expect's) sorted by
                                 question_id, then tool_use_id, not oldest first, and write the
                                 ROWs in that order. For parallel calls: Claude Code runs their
                                 hooks at the same time, so which row is older is chance
    drive                        steps, in order:
        {"wait": "text", "timeout": 30}    poll the screen until it shows text
        {"text": "literal"}                type (send-keys -l)
        {"keys": ["Down", "Enter"]}        tmux key names, one by one
        {"prompt": "text"}                 type text, Enter, wait for its UserPromptSubmit
        {"sleep": 0.5}
        {"snap": "label"}                  keep the screen for the failure report
        {"hook": "Stop", "count": 1, "timeout": 30}   wait until that many such payloads arrived
        {"rows": [ROW, ...], "timeout": 10}           poll `askhook log --json` until it matches
        {"exit": true}                     /exit, then wait for claude to end
    expect
        hooks          the exact list of hook events Claude Code fired, in order
        rows           the final `askhook log --json`, ROW by ROW (oldest first)
        tool_results   [{"is_error": bool, "contains": [...], "not_contains": [...],
                         "request_contains": [...], "tool_use_id": id}] — each tool_result
                       the model received, in order (or the one of `tool_use_id`, when given);
                       request_contains looks at every message that came with it (the
                       hooks' additionalContext arrives as a separate message)
        screen_never   texts that must never be on screen
        screen_seen    texts that must have been on screen at some point
        allow_screen   texts that make an on-screen "hook error" line expected
        error_log      substrings askhook's error log must contain (default: it stays empty)
        mcp_calls      how many tools/call the fake MCP server received

A ROW is a partial `log --json` object: each key given must match. A value {"$contains": "x"}
matches a string holding x; anything else must be equal. "{proj}" and "{cwd}" in a string stand
for this world's project root and claude's start folder.
"""
import argparse
import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
MATCHER = "(AskUserQuestion|mcp__.*__AskUserQuestion)"
TOOL_EVENTS = ["PreToolUse", "PostToolUse", "PostToolUseFailure"]
TURN_EVENTS = ["Stop", "UserPromptSubmit", "SessionEnd"]
# Lines on screen that mean a hook misbehaved (unless the scenario expects them).
HOOK_TROUBLE = ["hook error", "non-blocking status", "blocking error", "validation failed",
                "hook failed", "hook timed out", "timed out"]
EXIT_MARK = "__CLAUDE_EXITED"
# askhook's own deadline is 2.5 s; a run Claude Code timed longer than this is a finding
SLOW_HOOK_MS = 3000


class Failure(Exception):
    pass


def poll(check, timeout, interval=0.25):
    """Call check() until it returns a truthy value or timeout seconds pass; return the last."""
    end = time.monotonic() + timeout
    while True:
        got = check()
        if got or time.monotonic() > end:
            return got
        time.sleep(interval)


def match_value(want, got):
    if isinstance(want, dict) and set(want) == {"$contains"}:
        return isinstance(got, str) and want["$contains"] in got
    return want == got


def row_mismatches(want_rows, got_rows, subst=None):
    """Human-readable differences between expected partial rows and `log --json` rows.
    String values may name this world's folders as {proj} and {cwd}."""
    problems = []
    if subst:
        want_rows = json.loads(json.dumps(want_rows).replace("{proj}", subst["proj"])
                               .replace("{cwd}", subst["cwd"]))
    if len(want_rows) != len(got_rows):
        problems.append("expected %d rows, got %d" % (len(want_rows), len(got_rows)))
    for i, (want, got) in enumerate(zip(want_rows, got_rows)):
        for key, value in want.items():
            if key not in got:
                problems.append("row %d: no field %r in log --json" % (i, key))
            elif not match_value(value, got[key]):
                problems.append("row %d: %s = %s, expected %s" % (
                    i, key, json.dumps(got[key], ensure_ascii=False),
                    json.dumps(value, ensure_ascii=False)))
    return problems


def text_of(content):
    if isinstance(content, str):
        return content
    return json.dumps(content, ensure_ascii=False)


class World:
    """One scenario's isolated machine: folders, fake API, tmux server, claude."""

    def __init__(self, scenario, claude, askhook, keep):
        self.sc = scenario
        self.name = scenario["name"]
        self.claude = claude
        self.askhook_bin = askhook
        self.keep = keep
        self.root = os.path.realpath(tempfile.mkdtemp(prefix="askhook-e2e."))
        self.home = os.path.join(self.root, "home")
        self.config = os.path.join(self.home, ".claude")
        self.proj = os.path.join(self.root, "proj")
        # "default_paths": no ASKHOOK_HOME for the hook nor the CLI; askhook finds its data
        # under HOME (~/.local/share/askhook) on both sides, as for a user who set nothing
        self.default_paths = bool(scenario.get("default_paths"))
        self.ahome = (os.path.join(self.home, ".local", "share", "askhook") if self.default_paths
                      else os.path.join(self.root, "askhook-home"))
        self.capture = os.path.join(self.root, "capture")
        self.api_log = os.path.join(self.root, "api.jsonl")
        self.settings = os.path.join(self.config, "settings.json")
        self.sock = "askhook-e2e-%d-%s" % (os.getpid(), self.name)
        self.api = None
        self.port = None
        self.tmux_started = False
        self.pane_pid = None
        self.screens = []  # every distinct screen seen, in order: (label, text)
        self.pre_install = None
        # where claude starts: the project root, or a folder inside it (scenario "cwd")
        self.cwd = os.path.join(self.proj, scenario.get("cwd", ""))
        for d in (self.config, self.cwd, self.capture):
            os.makedirs(d, exist_ok=True)
        subprocess.run(["git", "init", "-q", self.proj], check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    # ---- askhook -------------------------------------------------------------------------
    def askhook_env(self):
        """A person's shell: no agent markers, only this world's folders."""
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": self.home,
               "ASKHOOK_HOME": self.ahome, "CLAUDE_CONFIG_DIR": self.config,
               "LANG": "C.UTF-8", "NO_COLOR": "1"}
        if self.default_paths:
            del env["ASKHOOK_HOME"]
        return env

    def askhook(self, args, timeout=20):
        return subprocess.run([self.askhook_bin] + list(args), cwd=self.proj,
                              env=self.askhook_env(), capture_output=True, text=True,
                              timeout=timeout)

    def rows(self):
        r = self.askhook(["log", "--json"])
        if r.returncode != 0:
            raise Failure("askhook log --json exited %d: %s" % (r.returncode, r.stderr.strip()))
        try:
            return json.loads(r.stdout)
        except ValueError as e:
            raise Failure("askhook log --json printed no JSON (%s): %r" % (e, r.stdout[:500]))

    def rows_to_check(self):
        rows = self.rows()
        if self.sc.get("rows_any_order"):
            rows.sort(key=lambda r: (str(r.get("question_id")), str(r.get("tool_use_id"))))
        return rows

    def subst(self):
        return {"proj": self.proj, "cwd": self.cwd.rstrip("/")}

    def error_log(self):
        p = os.path.join(self.ahome, "errors.log")
        return open(p, encoding="utf-8", errors="replace").read() if os.path.exists(p) else ""

    # ---- settings --------------------------------------------------------------------------
    def write_pre_install_settings(self):
        """What the user had before askhook: another tool's hooks on every event we use."""
        cap = os.path.join(HERE, "capture_hook.sh")

        def item(ev):
            return [{"type": "command", "command": "%s %s" % (cap, ev), "timeout": 5}]
        hooks = {}
        for ev in TOOL_EVENTS:
            hooks[ev] = [{"matcher": MATCHER, "hooks": item(ev)}]
        for ev in TURN_EVENTS:
            hooks[ev] = [{"hooks": item(ev)}]
        s = {"hooks": hooks}
        s.update(self.sc.get("settings_extra") or {})
        with open(self.settings, "w") as f:
            f.write(json.dumps(s, indent=2) + "\n")
        with open(self.settings, "rb") as f:
            self.pre_install = f.read()

    def install_args(self):
        """`--settings <file>`, or none: the default (user) scope, which must find Claude
        Code's file through CLAUDE_CONFIG_DIR."""
        return [] if self.sc.get("default_scope") else ["--settings", self.settings]

    def install(self):
        r = self.askhook(["install"] + self.install_args() + ["--yes"])
        if r.returncode != 0:
            raise Failure("askhook install exited %d:\n%s%s" % (r.returncode, r.stdout, r.stderr))
        s = json.load(open(self.settings))
        want = {"type": "command", "command": self.askhook_bin, "args": ["hook"], "timeout": 5}
        for ev in TOOL_EVENTS + TURN_EVENTS:
            items = [(e.get("matcher"), h) for e in s.get("hooks", {}).get(ev, [])
                     for h in e.get("hooks", [])]
            ours = [(m, h) for m, h in items if h.get("command") == self.askhook_bin]
            matcher = MATCHER if ev in TOOL_EVENTS else None
            if [(m, h) for m, h in ours] != [(matcher, want)]:
                raise Failure("after askhook install, %s holds %s; expected one %s (matcher %s)" % (
                    ev, json.dumps(ours), json.dumps(want), matcher))
            if not any("capture_hook.sh" in str(h.get("command")) for _, h in items):
                raise Failure("askhook install dropped the other tool's %s hook" % ev)

    def write_state_file(self):
        version = subprocess.run([self.claude, "--version"], capture_output=True, text=True,
                                 timeout=30).stdout.split(" ")[0].strip()
        state = {
            "hasCompletedOnboarding": True, "lastOnboardingVersion": version, "theme": "dark",
            "numStartups": 5,
            "customApiKeyResponses": {"approved": ["dummy"], "rejected": []},
            "projects": {d: {"hasTrustDialogAccepted": True,
                             "hasCompletedProjectOnboarding": True,
                             "allowedTools": [], "projectOnboardingSeenCount": 1}
                         for d in {self.proj, self.cwd.rstrip("/")}},
        }
        with open(os.path.join(self.config, ".claude.json"), "w") as f:
            json.dump(state, f, indent=2)

    # ---- processes -------------------------------------------------------------------------
    def start_api(self):
        sc_path = os.path.join(self.root, "scenario.json")
        with open(sc_path, "w") as f:
            json.dump(self.sc, f)
        out = open(os.path.join(self.root, "fake_api.out"), "w")
        self.api = subprocess.Popen(
            [sys.executable, os.path.join(HERE, "fake_api.py"), "--host", "127.0.0.1",
             "--port", "0", "--scenario", sc_path, "--log", self.api_log],
            stdout=out, stderr=subprocess.STDOUT)

        def port():
            for line in open(os.path.join(self.root, "fake_api.out")):
                if "listening on" in line:
                    return int(line.split("listening on ")[1].split(" ")[0].rsplit(":", 1)[1])
            return None
        self.port = poll(port, 10, 0.05)
        if not self.port:
            raise Failure("fake_api.py did not start")

    def claude_env(self):
        proxy = "http://127.0.0.1:%d" % self.port
        env = {
            "HOME": self.home, "CLAUDE_CONFIG_DIR": self.config,
            "ANTHROPIC_BASE_URL": proxy, "ANTHROPIC_API_KEY": "dummy",
            "DISABLE_TELEMETRY": "1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_AUTOUPDATER": "1", "DISABLE_ERROR_REPORTING": "1",
            "CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL": "1",
            # anything not for the fake API goes to it as a proxy, is refused and logged
            "HTTPS_PROXY": proxy, "HTTP_PROXY": proxy, "https_proxy": proxy,
            "http_proxy": proxy, "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost",
            "E2E_CAPTURE_DIR": self.capture,
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8",
            "TERM": "xterm-256color",
        }
        if not self.default_paths:
            env["ASKHOOK_HOME"] = self.ahome
        return env

    def start_claude(self):
        args = [self.claude]
        if "mcp_args" in self.sc:
            mcp = {"mcpServers": {"askmcp": {
                "type": "stdio", "command": sys.executable,
                "args": [os.path.join(HERE, "fake_mcp.py")] + list(self.sc["mcp_args"]),
                "env": {"FAKE_MCP_LOG": os.path.join(self.root, "mcp.jsonl")}}}}
            mcp_path = os.path.join(self.root, "mcp.json")
            with open(mcp_path, "w") as f:
                json.dump(mcp, f)
            args += ["--mcp-config", mcp_path]
        script = os.path.join(self.root, "claude.sh")
        with open(script, "w") as f:
            f.write("#!/bin/sh\ncd %s || exit 1\n%s\necho %s rc=$?\nexec sleep 600\n" % (
                sh_quote(self.cwd), " ".join(sh_quote(a) for a in args), EXIT_MARK))
        os.chmod(script, 0o755)
        # the tmux server (and so claude) gets this world's environment and nothing else
        subprocess.run(["tmux", "-L", self.sock, "-f", "/dev/null", "new-session", "-d",
                        "-s", "cc", "-x", "200", "-y", "50", script],
                       env=self.claude_env(), check=True, timeout=20)
        self.tmux_started = True
        pid = self.tmux("display-message", "-p", "-t", "cc", "#{pane_pid}").stdout.strip()
        self.pane_pid = int(pid) if pid.isdigit() else None

    def tmux(self, *args):
        return subprocess.run(["tmux", "-L", self.sock] + list(args), capture_output=True,
                              text=True, timeout=10)

    def screen(self, label="poll"):
        text = "\n".join(l.rstrip() for l in self.tmux("capture-pane", "-t", "cc", "-p")
                         .stdout.splitlines() if l.strip())
        if not self.screens or self.screens[-1][1] != text:
            self.screens.append((label, text))
        return text

    def hook_files(self, event=None):
        return sorted(glob.glob(os.path.join(self.capture, "[0-9]*-%s.json" % (event or "*"))))

    def save(self, dest):
        """Copy what this world saw (hook payloads, tool_results, screens) to dest/<name>/."""
        out = os.path.join(dest, self.name)
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
        for p in self.hook_files():
            shutil.copy(p, out)
        with open(os.path.join(out, "tool_results.json"), "w") as f:
            json.dump([tr for tr, _ in self.tool_results()], f, indent=2, ensure_ascii=False)
        with open(os.path.join(out, "screens.txt"), "w") as f:
            for label, text in self.screens:
                f.write("===== %s =====\n%s\n" % (label, text))

    def processes(self):
        """The pids under this world's tmux pane (claude, its hooks, the MCP server)."""
        if not self.pane_pid:
            return []
        children = {}
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open("/proc/%s/stat" % entry) as f:
                        ppid = int(f.read().rsplit(")", 1)[1].split()[1])
                except (OSError, ValueError, IndexError):
                    continue
                children.setdefault(ppid, []).append(int(entry))
        out, todo = [], [self.pane_pid]
        while todo:
            pid = todo.pop()
            out.append(pid)
            todo += children.get(pid, [])
        return [p for p in out if os.path.exists("/proc/%d" % p)]

    def cleanup(self):
        if self.tmux_started:
            # a claude still running (the scenario failed mid-way) gets SIGTERM and time to run
            # its SessionEnd hooks, so nothing writes into the folder after it is deleted
            running = [p for p in self.processes() if p != self.pane_pid]
            for pid in running:
                try:
                    os.kill(pid, signal.SIGTERM)
                except OSError:
                    pass
            poll(lambda: not any(os.path.exists("/proc/%d" % p) for p in running), 10, 0.2)
            for pid in running + [p for p in self.processes() if p != self.pane_pid]:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            self.tmux("kill-server")
        if self.api:
            self.api.terminate()
            try:
                self.api.wait(5)
            except subprocess.TimeoutExpired:
                self.api.kill()
        if self.keep:
            print("  kept %s" % self.root)
        else:
            shutil.rmtree(self.root, ignore_errors=True)

    # ---- drive -----------------------------------------------------------------------------
    def type_visible(self, text, where):
        """Type text into the prompt and wait until the screen shows it (a busy machine can
        be slow to echo; Enter before the echo may be lost)."""
        self.tmux("send-keys", "-t", "cc", "-l", text)
        if not poll(lambda: text in self.screen("typing"), 10, 0.1):
            raise Failure("%s: typed %r, the screen never showed it" % (where, text))
        time.sleep(0.3)

    def submit_prompt(self, text, where):
        """Type a prompt, press Enter, and wait for Claude Code to take it (UserPromptSubmit)."""
        before = len(self.hook_files("UserPromptSubmit"))
        self.type_visible(text, where)
        self.tmux("send-keys", "-t", "cc", "Enter")
        if not poll(lambda: len(self.hook_files("UserPromptSubmit")) > before, 20):
            raise Failure("%s: Claude Code never took the prompt (no UserPromptSubmit)" % where)

    def drive(self, steps):
        for i, st in enumerate(steps):
            where = "drive step %d %s" % (i, json.dumps(st, ensure_ascii=False)[:120])
            if "wait" in st:
                if not poll(lambda: st["wait"] in self.screen(), st.get("timeout", 30)):
                    raise Failure("%s: %r never showed on screen" % (where, st["wait"]))
                time.sleep(st.get("settle", 0.4))
            elif "text" in st:
                self.tmux("send-keys", "-t", "cc", "-l", st["text"])
                time.sleep(0.3)
            elif "prompt" in st:
                self.submit_prompt(st["prompt"], where)
            elif "keys" in st:
                for k in st["keys"]:
                    self.tmux("send-keys", "-t", "cc", k)
                    time.sleep(st.get("delay", 0.35))
            elif "sleep" in st:
                time.sleep(st["sleep"])
            elif "snap" in st:
                self.screen(st["snap"])
            elif "hook" in st:
                n = st.get("count", 1)
                if not poll(lambda: len(self.hook_files(st["hook"])) >= n, st.get("timeout", 30)):
                    raise Failure("%s: %d %s payload(s) expected, saw %d" % (
                        where, n, st["hook"], len(self.hook_files(st["hook"]))))
            elif "rows" in st:
                last = []

                def ok():
                    last[:] = row_mismatches(st["rows"], self.rows_to_check(), self.subst())
                    return not last
                if not poll(ok, st.get("timeout", 10), 0.3):
                    raise Failure("%s: askhook's rows never matched:\n    %s" % (
                        where, "\n    ".join(last)))
            elif "exit" in st:
                self.type_visible("/exit", where)
                self.tmux("send-keys", "-t", "cc", "Enter")
                if not poll(lambda: EXIT_MARK in self.screen("exit"), st.get("timeout", 30)):
                    raise Failure("%s: claude did not exit" % where)
                poll(lambda: self.hook_files("SessionEnd"), 5)
            else:
                raise Failure("%s: unknown step" % where)
        self.screen("end")

    # ---- checks ----------------------------------------------------------------------------
    def api_requests(self):
        if not os.path.exists(self.api_log):
            return []
        return [json.loads(l) for l in open(self.api_log, encoding="utf-8")]

    def tool_results(self):
        """(tool_result block, the whole last user message) per tool_result, first sighting."""
        seen, out = set(), []
        for r in self.api_requests():
            if r.get("dir") != "req" or not isinstance(r.get("body"), dict):
                continue
            msgs = r["body"].get("messages") or []
            # what followed the model's last turn: the tool_result message, and the hooks'
            # additional context (2.1.328 sends that as a separate "system" message)
            n = max([i for i, m in enumerate(msgs) if m.get("role") == "assistant"] or [-1])
            after = [m.get("content") for m in msgs[n + 1:]]
            trs = [b for c in after if isinstance(c, list) for b in c
                   if isinstance(b, dict) and b.get("type") == "tool_result"]
            for tr in trs:
                if tr.get("tool_use_id") in seen:
                    continue
                seen.add(tr.get("tool_use_id"))
                out.append((tr, after))
        return out

    def transcript_hook_records(self):
        """What Claude Code itself wrote down about hook runs (outputs, errors)."""
        out = []
        for f in sorted(glob.glob(os.path.join(self.config, "projects", "*", "*.jsonl"))):
            for line in open(f, encoding="utf-8", errors="replace"):
                try:
                    o = json.loads(line)
                except ValueError:
                    continue
                a = o.get("attachment") or {}
                if str(a.get("type", "")).startswith("hook"):
                    out.append(a)
                elif o.get("type") == "system" and "hook" in str(o.get("subtype", "")):
                    out.append(o)
        return out

    def hook_trouble_in_transcript(self):
        problems = []
        for r in self.transcript_hook_records():
            for info in [r] + list(r.get("hookInfos") or []):
                if (self.askhook_bin in str(info.get("command", ""))
                        and info.get("durationMs", 0) > SLOW_HOOK_MS):
                    problems.append("askhook took %s ms (Claude Code's timeout is 5 s): %s" % (
                        info["durationMs"], json.dumps(info)[:300]))
            t = r.get("type")
            if t == "system":
                if r.get("hookErrors"):
                    problems.append("%s hookErrors: %s" % (r.get("subtype"), r["hookErrors"]))
            elif t not in ("hook_success", "hook_additional_context"):
                problems.append("Claude Code recorded %s" % json.dumps(r, ensure_ascii=False)[:800])
            elif r.get("exitCode", 0) != 0:
                problems.append("hook exited %s: %s" % (r["exitCode"], json.dumps(r)[:800]))
        return problems

    def check(self, expect):
        problems = []
        events = [os.path.basename(p).split("-", 1)[1][:-5] for p in self.hook_files()]
        if "hooks" in expect and events != expect["hooks"]:
            problems.append("hooks fired: %s, expected %s" % (events, expect["hooks"]))
        if "rows" in expect:
            problems += row_mismatches(expect["rows"], self.rows_to_check(), self.subst())
        if "tool_results" in expect:
            got = self.tool_results()
            want = expect["tool_results"]
            if len(got) != len(want):
                problems.append("the model got %d tool_result(s), expected %d" % (len(got), len(want)))
            by_id = {tr.get("tool_use_id"): (tr, msg) for tr, msg in got}
            for i, (w, positional) in enumerate(zip(want, got)):
                # Parallel calls settle in whichever order the human answers: an expectation
                # naming its tool_use_id is matched by id, the others by position.
                if "tool_use_id" in w:
                    if w["tool_use_id"] not in by_id:
                        problems.append("no tool_result for %s" % w["tool_use_id"])
                        continue
                    tr, msg = by_id[w["tool_use_id"]]
                else:
                    tr, msg = positional
                text = text_of(tr.get("content"))
                if "is_error" in w and bool(tr.get("is_error")) != w["is_error"]:
                    problems.append("tool_result %d: is_error=%s, expected %s" % (
                        i, tr.get("is_error"), w["is_error"]))
                for s in w.get("contains", []):
                    if s not in text:
                        problems.append("tool_result %d lacks %r: %s" % (i, s, text[:600]))
                for s in w.get("not_contains", []):
                    if s in text:
                        problems.append("tool_result %d has %r: %s" % (i, s, text[:600]))
                whole = text_of(msg)
                for s in w.get("request_contains", []):
                    if s not in whole:
                        problems.append("the message carrying tool_result %d lacks %r: %s" % (
                            i, s, whole[:1500]))
        if "mcp_calls" in expect:
            log = os.path.join(self.root, "mcp.jsonl")
            calls = [l for l in (open(log).read().splitlines() if os.path.exists(log) else [])
                     if json.loads(l).get("method") == "tools/call"]
            if len(calls) != expect["mcp_calls"]:
                problems.append("the MCP server got %d tools/call, expected %d" % (
                    len(calls), expect["mcp_calls"]))
        seen = "\n".join(t for _, t in self.screens)
        for s in expect.get("screen_never", []):
            if s in seen:
                problems.append("the screen showed %r" % s)
        for s in expect.get("screen_seen", []):
            if s not in seen:
                problems.append("the screen never showed %r" % s)
        allow = expect.get("allow_screen", [])
        for line in sorted(set(seen.splitlines())):
            low = line.lower()
            if any(t in low for t in HOOK_TROUBLE) and not any(a in line for a in allow):
                problems.append("hook trouble on screen: %s" % line.strip())
        problems += self.hook_trouble_in_transcript()
        errors = self.error_log()
        want_errors = expect.get("error_log", [])
        if not want_errors and errors.strip():
            problems.append("askhook's error log is not empty:\n%s" % errors.strip())
        for s in want_errors:
            if s not in errors:
                problems.append("askhook's error log lacks %r:\n%s" % (s, errors.strip()))
        strays = [r for r in self.api_requests() if r.get("dir") == "stray"]
        if strays:
            problems.append("traffic to other hosts (refused by the proxy): %s" % ", ".join(
                "%s %s" % (r["method"], r["path"]) for r in strays))
        return problems

    def report(self):
        """What a failure prints: last screen, hook payloads, rows, error log, tool_results."""
        out = ["  --- last screen (%s) ---" % (self.screens[-1][0] if self.screens else "none")]
        out += ["  | " + l for l in (self.screens[-1][1] if self.screens else "").splitlines()]
        out.append("  --- hook payloads seen ---")
        for p in self.hook_files():
            body = open(p, encoding="utf-8", errors="replace").read().strip()
            out.append("  %s: %s" % (os.path.basename(p), body[:2000]))
        try:
            out.append("  --- askhook log --json ---")
            out += ["  " + json.dumps(r, ensure_ascii=False) for r in self.rows()]
        except Failure as e:
            out.append("  " + str(e))
        out.append("  --- askhook errors.log ---")
        out += ["  " + l for l in self.error_log().splitlines()]
        out.append("  --- hook runs Claude Code recorded (transcript) ---")
        for r in self.transcript_hook_records():
            out.append("  " + json.dumps(r, ensure_ascii=False)[:1500])
        out.append("  --- tool_results the model got ---")
        for tr, _ in self.tool_results():
            out.append("  " + json.dumps(tr, ensure_ascii=False)[:1500])
        return "\n".join(out)


def sh_quote(s):
    return "'" + s.replace("'", "'\\''") + "'"


def run_scenario(sc, claude, askhook, keep, save):
    w = World(sc, claude, askhook, keep)
    try:
        w.write_pre_install_settings()
        w.install()
        w.write_state_file()
        for args in sc.get("before", []):
            r = w.askhook(args)
            if r.returncode != 0:
                raise Failure("askhook %s exited %d: %s%s" % (
                    " ".join(args), r.returncode, r.stdout, r.stderr))
        if "config" in sc:
            os.makedirs(w.ahome, exist_ok=True)
            with open(os.path.join(w.ahome, "config.toml"), "w") as f:
                f.write(sc["config"])
            r = w.askhook(["config", "show"])
            if r.returncode != 0:
                raise Failure("the scenario's config.toml is invalid: %s%s" % (r.stdout, r.stderr))
        w.start_api()
        w.start_claude()
        w.drive(sc.get("drive", []))
        problems = w.check(sc.get("expect", {}))
        if sc.get("uninstall"):
            r = w.askhook(["uninstall"] + w.install_args() + ["--yes"])
            after = open(w.settings, "rb").read()
            if r.returncode != 0:
                problems.append("askhook uninstall exited %d: %s%s" % (
                    r.returncode, r.stdout, r.stderr))
            elif after != w.pre_install:
                problems.append("settings.json after uninstall differs from before install:\n"
                                "--- before\n%s\n--- after\n%s" % (
                                    w.pre_install.decode(), after.decode()))
        if problems:
            raise Failure("\n".join("  - " + p for p in problems))
        return "askhook install " + ("--settings" if w.install_args() else "(user scope)")
    except Failure as e:
        text = str(e) if str(e).startswith("  - ") else "  - " + str(e)
        raise Failure("%s\n%s" % (text, w.report()))
    except (OSError, ValueError, subprocess.SubprocessError) as e:
        raise Failure("  - the driver failed: %s: %s\n%s" % (type(e).__name__, e, w.report()))
    finally:
        if save:
            w.save(save)
        w.cleanup()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--claude", required=True)
    ap.add_argument("--askhook", required=True)
    ap.add_argument("--keep", action="store_true", help="keep each scenario's work folder")
    ap.add_argument("--save", metavar="DIR",
                    help="copy each scenario's hook payloads, tool_results and screens to DIR/<name>/")
    ap.add_argument("names", nargs="*", help="scenario names (default: all)")
    a = ap.parse_args()
    claude, askhook = os.path.abspath(a.claude), os.path.abspath(a.askhook)
    files = sorted(glob.glob(os.path.join(HERE, "scenarios", "*.json")))
    scenarios = [json.load(open(f, encoding="utf-8")) for f in files]
    if a.names:
        unknown = set(a.names) - {s["name"] for s in scenarios}
        if unknown:
            sys.exit("e2e: no such scenario: %s" % ", ".join(sorted(unknown)))
        scenarios = [s for s in scenarios if s["name"] in a.names]
    # SIGTERM (e.g. from timeout) unwinds like Ctrl-C, so every world is cleaned up
    def on_term(*_):
        raise KeyboardInterrupt()
    signal.signal(signal.SIGTERM, on_term)
    passed = failed = 0
    interrupted = False
    t_all = time.monotonic()
    for sc in scenarios:
        t0 = time.monotonic()
        if interrupted:
            failed += 1
            print("FAIL %-22s not run (interrupted)" % sc["name"], flush=True)
            continue
        try:
            note = run_scenario(sc, claude, askhook, a.keep, a.save and os.path.abspath(a.save))
            passed += 1
            print("ok   %-22s %5.1fs  (%s)" % (sc["name"], time.monotonic() - t0, note), flush=True)
        except Failure as e:
            failed += 1
            print("FAIL %-22s %5.1fs\n%s" % (sc["name"], time.monotonic() - t0, e), flush=True)
        except KeyboardInterrupt:
            interrupted = True
            failed += 1
            print("FAIL %-22s interrupted (suite time limit or Ctrl-C)" % sc["name"], flush=True)
    print("%d scenario(s) in %.0fs" % (len(scenarios), time.monotonic() - t_all))
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
