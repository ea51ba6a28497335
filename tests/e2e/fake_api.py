#!/usr/bin/env python3
"""Fake Anthropic Messages API for driving the real Claude Code CLI offline.

stdlib only. Listens on 127.0.0.1 (loopback only, enforced).

    python3 fake_api.py --port 0 --scenario scenarios/basic.json --log /tmp/api.jsonl

Scenario file (JSON):

    {
      "name": "basic",
      "turns": [ TURN, TURN, ... ],      # main-loop replies, chosen by turn index
      "side_reply": "ok"                  # text for side requests (title, etc.)
    }

A TURN is {"content": [BLOCK, ...], "stop_reason": "tool_use" | "end_turn"}.
BLOCK is {"type": "text", "text": "..."} or
         {"type": "tool_use", "name": "AskUserQuestion", "input": {...}} (id optional).
A TURN may also carry "when_last_user_contains": "substring" — then it is only
used when the last user message (text or tool_result content, serialised)
contains that substring; such conditional turns are tried first, in order.

Main-loop vs side request: a request whose "tools" list is non-empty is a
main-loop request; its turn index is the number of assistant messages already
in "messages" (so the first user prompt gets turns[0], the request carrying
the first tool_result gets turns[1], ...). Past the end, the last turn whose
stop_reason is end_turn is repeated (or a plain "done").
Requests without tools (title generation, quota probes, ...) get side_reply.

Every request (method, path, headers subset, body) is appended to --log as one
JSON object per line; each reply is logged too.

The same port also serves as the client's HTTP(S) proxy (the e2e driver sets
HTTPS_PROXY/HTTP_PROXY to it, with NO_PROXY covering 127.0.0.1): a CONNECT, or
a request for an absolute URL, is traffic to somewhere other than this fake
API. It is refused (403) and logged as {"dir": "stray", ...} so the suite can
prove nothing left the machine.

(Adapted for askhook's tests/e2e from the reference in ../shared/e2e.)
"""
import argparse
import json
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()
STATE = {"scenario": {}, "log": None, "seq": 0}


def log(obj):
    with LOCK:
        STATE["seq"] += 1
        obj = dict(obj, seq=STATE["seq"], t=round(time.time(), 3))
        if STATE["log"]:
            with open(STATE["log"], "a", encoding="utf-8") as f:
                f.write(json.dumps(obj, ensure_ascii=False) + "\n")


def last_user_text(messages):
    for m in reversed(messages or []):
        if m.get("role") == "user":
            return json.dumps(m.get("content"), ensure_ascii=False)
    return ""


def tool_results(messages):
    """tool_result blocks of the last user message (for the log)."""
    out = []
    for m in reversed(messages or []):
        if m.get("role") == "user":
            c = m.get("content")
            if isinstance(c, list):
                out = [b for b in c if isinstance(b, dict) and b.get("type") == "tool_result"]
            break
    return out


def pick_turn(body):
    sc = STATE["scenario"]
    msgs = body.get("messages") or []
    tools = body.get("tools") or []
    if not tools:
        return {"content": [{"type": "text", "text": sc.get("side_reply", "ok")}],
                "stop_reason": "end_turn"}, "side"
    turns = sc.get("turns") or []
    lu = last_user_text(msgs)
    for t in turns:
        w = t.get("when_last_user_contains")
        if w and w in lu:
            return t, "conditional:" + w
    plain = [t for t in turns if not t.get("when_last_user_contains")]
    n = sum(1 for m in msgs if m.get("role") == "assistant")
    if n < len(plain):
        return plain[n], "turn:%d" % n
    ends = [t for t in plain if t.get("stop_reason") == "end_turn"]
    if ends:
        return ends[-1], "repeat-end"
    return {"content": [{"type": "text", "text": "done"}], "stop_reason": "end_turn"}, "default"


def materialise(turn):
    blocks = []
    for b in turn.get("content", []):
        b = json.loads(json.dumps(b))
        b.pop("when_last_user_contains", None)
        if b.get("type") == "tool_use":
            b.setdefault("id", "toolu_fake_" + uuid.uuid4().hex[:20])
            b.setdefault("input", {})
        blocks.append(b)
    stop = turn.get("stop_reason") or ("tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn")
    return blocks, stop


def sse(event, data):
    return ("event: %s\ndata: %s\n\n" % (event, json.dumps(data, ensure_ascii=False))).encode()


def build_stream(msg_id, model, blocks, stop):
    out = [sse("message_start", {"type": "message_start", "message": {
        "id": msg_id, "type": "message", "role": "assistant", "model": model,
        "content": [], "stop_reason": None, "stop_sequence": None,
        "usage": {"input_tokens": 42, "output_tokens": 1,
                  "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}}})]
    out.append(sse("ping", {"type": "ping"}))
    for i, b in enumerate(blocks):
        if b["type"] == "text":
            out.append(sse("content_block_start", {"type": "content_block_start", "index": i,
                                                   "content_block": {"type": "text", "text": ""}}))
            txt = b.get("text", "")
            for k in range(0, max(len(txt), 1), 40):
                out.append(sse("content_block_delta", {"type": "content_block_delta", "index": i,
                                                       "delta": {"type": "text_delta", "text": txt[k:k + 40]}}))
        elif b["type"] == "tool_use":
            out.append(sse("content_block_start", {"type": "content_block_start", "index": i,
                                                   "content_block": {"type": "tool_use", "id": b["id"],
                                                                     "name": b["name"], "input": {}}}))
            js = json.dumps(b.get("input", {}), ensure_ascii=False)
            for k in range(0, len(js), 64):
                out.append(sse("content_block_delta", {"type": "content_block_delta", "index": i,
                                                       "delta": {"type": "input_json_delta",
                                                                 "partial_json": js[k:k + 64]}}))
        out.append(sse("content_block_stop", {"type": "content_block_stop", "index": i}))
    out.append(sse("message_delta", {"type": "message_delta",
                                     "delta": {"stop_reason": stop, "stop_sequence": None},
                                     "usage": {"output_tokens": 17}}))
    out.append(sse("message_stop", {"type": "message_stop"}))
    return b"".join(out)


class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):  # quiet stderr
        pass

    def _body(self):
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        try:
            return json.loads(raw) if raw else None
        except Exception:
            return {"_raw": raw.decode("utf-8", "replace")}

    def _send(self, code, obj=None, ctype="application/json", raw=None):
        data = raw if raw is not None else json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("request-id", "req_fake_" + uuid.uuid4().hex[:12])
        self.end_headers()
        self.wfile.write(data)

    def _hdrs(self):
        keep = {}
        for k, v in self.headers.items():
            kl = k.lower()
            if kl in ("x-api-key", "authorization"):
                v = "<redacted>"
            keep[kl] = v
        return keep

    def _stray(self):
        """A proxied request: the client tried to reach another host. Refuse, log."""
        if self.command == "CONNECT" or self.path.startswith(("http://", "https://")):
            log({"dir": "stray", "method": self.command, "path": self.path})
            self._send(403, {"type": "error", "error": {"type": "forbidden",
                                                        "message": "fake_api: offline test"}})
            return True
        return False

    def do_CONNECT(self):
        self._stray()
        self.close_connection = True

    def do_GET(self):
        if self._stray():
            return
        log({"dir": "req", "method": "GET", "path": self.path, "headers": self._hdrs()})
        p = self.path.split("?")[0]
        if p.startswith("/v1/models"):
            return self._send(200, {"data": [{"type": "model", "id": "claude-sonnet-4-5", "display_name": "fake"}],
                                    "has_more": False, "first_id": None, "last_id": None})
        self._send(404, {"type": "error", "error": {"type": "not_found_error", "message": "fake: " + p}})

    def do_HEAD(self):
        if self._stray():
            return
        log({"dir": "req", "method": "HEAD", "path": self.path})
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self):
        body = self._body()
        if self._stray():
            return
        p = self.path.split("?")[0]
        entry = {"dir": "req", "method": "POST", "path": self.path, "headers": self._hdrs(), "body": body}
        if isinstance(body, dict) and "messages" in body:
            entry["last_tool_results"] = tool_results(body.get("messages"))
            entry["n_tools"] = len(body.get("tools") or [])
            entry["tool_names"] = [t.get("name") for t in (body.get("tools") or [])]
        log(entry)
        if p.endswith("/count_tokens"):
            return self._send(200, {"input_tokens": 100})
        if p.startswith("/v1/messages"):
            body = body or {}
            turn, why = pick_turn(body)
            blocks, stop = materialise(turn)
            msg_id = "msg_fake_" + uuid.uuid4().hex[:20]
            model = body.get("model", "claude-fake")
            log({"dir": "reply", "path": self.path, "why": why, "stream": bool(body.get("stream")),
                 "content": blocks, "stop_reason": stop})
            if body.get("stream"):
                return self._send(200, raw=build_stream(msg_id, model, blocks, stop),
                                  ctype="text/event-stream; charset=utf-8")
            return self._send(200, {"id": msg_id, "type": "message", "role": "assistant", "model": model,
                                    "content": blocks, "stop_reason": stop, "stop_sequence": None,
                                    "usage": {"input_tokens": 42, "output_tokens": 17}})
        self._send(404, {"type": "error", "error": {"type": "not_found_error", "message": "fake: " + p}})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=8765)
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--scenario", required=True)
    ap.add_argument("--log", default=None)
    a = ap.parse_args()
    if not (a.host.startswith("127.") or a.host in ("localhost", "::1")):
        sys.exit("fake_api: refusing non-loopback host %r" % a.host)
    with open(a.scenario, encoding="utf-8") as f:
        STATE["scenario"] = json.load(f)
    STATE["log"] = a.log
    srv = ThreadingHTTPServer((a.host, a.port), H)
    srv.daemon_threads = True
    # --port 0 picks a free port: the line below is how the caller learns it
    print("fake_api listening on %s:%d scenario=%s" % (a.host, srv.server_address[1], a.scenario),
          flush=True)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
