#!/usr/bin/env python3
"""A fake OpenAI-compatible server for the CLI tests (standard library only).

  fake_openai.py [--port 0] [--port-file FILE] [--log FILE] [--dim 8] [--slow 2.5]

Listens on 127.0.0.1 (port 0: a free port), prints the port as the first line
of standard output (and writes it to --port-file, atomically) once it accepts
connections. Stops on SIGTERM / SIGINT.

POST /v1/chat/completions  (also /chat/completions)
  Answers in the chat-completions format. What it answers depends on the text
  of the last user message:
    contains "ALWAYS_BAD"      content {"keywords": ["a"], "scores": [99]} (always)
    contains "SLOW"            sleeps --slow seconds, then a valid answer
    contains "MALFORMED_ONCE"  first request for that text: content that is not
                               JSON; later requests: a valid answer
    contains "ERROR500_ONCE"   first request for that text: HTTP 500; later valid
  A valid answer is derived from the "Title: ..." line of the prompt: its
  distinct lowercase letter-only words of 5+ letters (trigger words removed),
  the first three, with scores 9, 7, 5 (from the "Abstract: ..." line when the
  title has none; ["untitled"] when neither has). keywords_for() is the rule.
  A body that is not JSON or lacks "model" / "messages" gets HTTP 400.

POST /v1/embeddings  (also /embeddings)
  "input" is a string or a list of strings; answers
  {"object": "list", "model": <echoed>, "data": [{"object": "embedding",
  "index": i, "embedding": [...]}], "usage": {...}} with deterministic unit
  vectors of --dim dimensions (or the request's "dimensions"), a function of
  the text only (embedding_for()).

Every request appends one JSON line to --log: {"path", "authorization" (the
header value or null), "title" (chat) or "inputs" (embeddings), "status",
"behaviour"}, written before the answer is sent (so it is there even when the
client gives up on a slow answer).
"""
import argparse
import hashlib
import json
import math
import os
import re
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TRIGGERS = ["ALWAYS_BAD", "SLOW", "MALFORMED_ONCE", "ERROR500_ONCE"]


def keywords_for(title, abstract=""):
    """The keywords (and scores) of a valid answer for a prompt's title."""
    def words(text):
        for t in TRIGGERS:
            text = text.replace(t, " ")
        out = []
        for w in re.findall(r"[a-z]+", text.lower()):
            if len(w) >= 5 and w not in out:
                out.append(w)
        return out[:3]
    kws = words(title) or words(abstract) or ["untitled"]
    return kws, [9, 7, 5][:len(kws)]


def embedding_for(text, dim):
    vals = []
    counter = 0
    while len(vals) < dim:
        h = hashlib.sha256(f"{counter}\x1f{text}".encode()).digest()
        for i in range(0, len(h), 4):
            if len(vals) < dim:
                vals.append(int.from_bytes(h[i:i + 4], "little") / 2**31 - 1.0)
        counter += 1
    norm = math.sqrt(sum(v * v for v in vals)) or 1.0
    return [round(v / norm, 6) for v in vals]


class State:
    def __init__(self, args):
        self.args = args
        self.lock = threading.Lock()
        self.seen = {}  # user text -> requests so far

    def count(self, text):
        with self.lock:
            n = self.seen.get(text, 0)
            self.seen[text] = n + 1
            return n

    def log(self, entry):
        if not self.args.log:
            return
        with self.lock:
            with open(self.args.log, "a") as f:
                f.write(json.dumps(entry) + "\n")
                f.flush()


def chat_response(model, content):
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                     "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # answers "Expect: 100-continue" from libcurl
    state = None

    def log_message(self, fmt, *args):  # quiet
        pass

    def send_json(self, status, obj):
        data = json.dumps(obj).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (timeout)
        self.close_connection = True

    def do_GET(self):
        self.send_json(404, {"error": {"message": "not found"}})

    def do_POST(self):
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        auth = self.headers.get("Authorization")
        path = self.path.split("?")[0]
        try:
            body = json.loads(raw)
        except ValueError:
            body = None
        if path.endswith("/chat/completions"):
            self.chat(path, auth, body)
        elif path.endswith("/embeddings"):
            self.embeddings(path, auth, body)
        else:
            self.state.log({"path": path, "authorization": auth, "status": 404})
            self.send_json(404, {"error": {"message": f"no route {path}"}})

    def chat(self, path, auth, body):
        entry = {"path": path, "authorization": auth, "title": None}
        if (not isinstance(body, dict) or not isinstance(body.get("model"), str)
                or not isinstance(body.get("messages"), list)):
            entry.update(status=400, behaviour="bad_request")
            self.state.log(entry)
            self.send_json(400, {"error": {"message": "expected model and messages"}})
            return
        model = body["model"]
        text = ""
        for m in body["messages"]:
            if isinstance(m, dict) and m.get("role") == "user" and isinstance(m.get("content"), str):
                text = m["content"]
        title = re.search(r"^Title: (.*)$", text, re.M)
        abstract = re.search(r"^Abstract: (.*)", text, re.M | re.S)
        title = title.group(1) if title else ""
        abstract = abstract.group(1) if abstract else ""
        entry["title"] = title
        nth = self.state.count(text)
        kws, scores = keywords_for(title, abstract)
        valid = json.dumps({"keywords": kws, "scores": scores})
        if "ALWAYS_BAD" in text:
            status, content, behaviour = 200, json.dumps({"keywords": ["a"], "scores": [99]}), "bad"
        elif "MALFORMED_ONCE" in text and nth == 0:
            status, content, behaviour = 200, "Sure! The keywords are: graphs, networks.", "malformed"
        elif "ERROR500_ONCE" in text and nth == 0:
            status, content, behaviour = 500, None, "error500"
        elif "SLOW" in text:
            status, content, behaviour = 200, valid, "slow"
        else:
            status, content, behaviour = 200, valid, "ok"
        entry.update(status=status, behaviour=behaviour)
        self.state.log(entry)
        if behaviour == "slow":
            time.sleep(self.state.args.slow)
        if status == 500:
            self.send_json(500, {"error": {"message": "internal error (fake)"}})
        else:
            self.send_json(200, chat_response(model, content))

    def embeddings(self, path, auth, body):
        entry = {"path": path, "authorization": auth}
        inputs = body.get("input") if isinstance(body, dict) else None
        if isinstance(inputs, str):
            inputs = [inputs]
        if (not isinstance(inputs, list) or not all(isinstance(x, str) for x in inputs)
                or not isinstance(body.get("model"), str)):
            entry.update(status=400, behaviour="bad_request")
            self.state.log(entry)
            self.send_json(400, {"error": {"message": "expected model and input"}})
            return
        dim = body.get("dimensions") or self.state.args.dim
        entry.update(inputs=len(inputs), status=200, behaviour="ok")
        self.state.log(entry)
        self.send_json(200, {
            "object": "list",
            "model": body["model"],
            "data": [{"object": "embedding", "index": i, "embedding": embedding_for(t, dim)}
                     for i, t in enumerate(inputs)],
            "usage": {"prompt_tokens": sum(len(t.split()) for t in inputs),
                      "total_tokens": sum(len(t.split()) for t in inputs)},
        })


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--port-file")
    ap.add_argument("--log")
    ap.add_argument("--dim", type=int, default=8)
    ap.add_argument("--slow", type=float, default=2.5, help="seconds a SLOW request sleeps")
    args = ap.parse_args()
    Handler.state = State(args)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    port = server.server_address[1]
    if args.port_file:
        tmp = args.port_file + ".tmp"
        with open(tmp, "w") as f:
            f.write(f"{port}\n")
        os.replace(tmp, args.port_file)
    print(port, flush=True)

    def stop(signum, frame):
        threading.Thread(target=server.shutdown, daemon=True).start()
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    server.serve_forever()
    server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
