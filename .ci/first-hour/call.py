#!/usr/bin/env python3
"""call.py: calls the tool `greet` of a server built from templates/server,
as a client would, with the standard library only.

    call.py stdio BINARY      the server on stdin/stdout (initialize, then tools/call)
    call.py http BINARY       the server started with `--http 127.0.0.1:PORT`,
                              called over Streamable HTTP (2026-07-28 request)

Prints `ok: ...` and exits 0 when `greet {"name": "Ada"}` answers
"Hello, Ada!"; prints `FAIL: ...` and exits 1 otherwise.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request

EXPECTED = "Hello, Ada!"
CALL = {"name": "greet", "arguments": {"name": "Ada"}}


def fail(why: str) -> None:
    print(f"FAIL: {why}", file=sys.stderr)
    sys.exit(1)


def text_of(result: dict) -> str:
    return "".join(c.get("text", "") for c in result.get("content", []))


def over_stdio(binary: str) -> None:
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "first-hour", "version": "1.0.0"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": CALL},
    ]
    sent = "".join(json.dumps(m) + "\n" for m in messages)
    done = subprocess.run([binary], input=sent, capture_output=True, text=True, timeout=60)
    answers = {}
    for line in done.stdout.splitlines():
        message = json.loads(line)
        if "id" in message:
            answers[message["id"]] = message
    if 2 not in answers or "result" not in answers[2]:
        fail(f"stdio: no result for tools/call; stdout {done.stdout!r}, stderr {done.stderr[-400:]!r}")
    got = text_of(answers[2]["result"])
    if got != EXPECTED:
        fail(f"stdio: greet answered {got!r}")
    print(f"ok: stdio: greet answered {got!r}")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def over_http(binary: str) -> None:
    port = free_port()
    server = subprocess.Popen([binary, "--http", f"127.0.0.1:{port}"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        url = f"http://127.0.0.1:{port}/mcp"
        body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            **CALL, "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {}}}}
        request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST", headers={
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            "MCP-Protocol-Version": "2026-07-28",
            "Mcp-Method": "tools/call",
            "Mcp-Name": "greet",
        })
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(request, timeout=10) as response:
                    raw = response.read().decode()
                break
            except OSError as error:
                if server.poll() is not None or time.monotonic() > deadline:
                    fail(f"http: no answer at {url}: {error}; stderr {server.stderr.read()[-400:]!r}")
                time.sleep(0.1)
        # A JSON body, or an event stream whose data lines carry it.
        if raw.lstrip().startswith("{"):
            answer = json.loads(raw)
        else:
            data = [line[5:].strip() for line in raw.splitlines() if line.startswith("data:")]
            answer = json.loads(data[-1])
        got = text_of(answer.get("result", {}))
        if got != EXPECTED:
            fail(f"http: greet answered {answer}")
        print(f"ok: http: greet answered {got!r}")
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("stdio", "http"):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    (over_stdio if sys.argv[1] == "stdio" else over_http)(sys.argv[2])
