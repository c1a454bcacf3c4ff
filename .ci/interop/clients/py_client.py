#!/usr/bin/env python3
"""py_client.py: drives an MCP server with the official Python SDK (`mcp` 2.3.0).

Usage:
    py_client.py [--mode legacy|auto] [--timeout SECONDS] URL
    py_client.py [--mode legacy|auto] [--timeout SECONDS] stdio CMD [ARGS...]

Checks, in order, printing `ok: <name>` for each and stopping with a
`FAIL: <name>: <why>` line on stderr (exit 1) at the first that does not hold:
  * the negotiated protocol version: 2025-11-25 in legacy mode (initialize);
    2026-07-28 in auto mode (server/discover, no fallback to initialize);
  * tools/list: test_simple_text is there and every tool has a description;
  * tools/call test_simple_text returns text;
  * tools/call test_tool_with_progress: >= 3 progress updates, non-decreasing;
  * legacy mode only: test_sampling and test_elicitation, answered by this
    client's callbacks (2026-07-28 has no server-to-client requests yet);
  * resources/read test://template/42/data mentions 42;
  * prompts/get test_prompt_with_arguments carries both arguments;
  * completion/complete on that prompt's arg1 returns a list.
Run it with the interpreter of the venv that install.sh made.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from importlib.metadata import version
from typing import Any

import anyio
import mcp_types as types
from mcp import Client, MCPDeprecationWarning, StdioServerParameters

# Legacy-only helpers (ping, setLevel, sampling) warn on 2.x; the warnings are expected here.
warnings.simplefilter("ignore", MCPDeprecationWarning)

LEGACY_VERSION = "2025-11-25"
MODERN_VERSION = "2026-07-28"


class CheckFailed(Exception):
    def __init__(self, name: str, why: str) -> None:
        super().__init__(f"{name}: {why}")
        self.name = name
        self.why = why


def ok(name: str) -> None:
    print(f"ok: {name}", flush=True)


def require(name: str, cond: bool, why: str) -> None:
    if not cond:
        raise CheckFailed(name, why)


def texts(content: list[Any]) -> list[str]:
    return [c.text for c in content if getattr(c, "type", None) == "text"]


# --- callbacks the server may call back into (legacy mode) ------------------------------

calls: dict[str, int] = {"sampling": 0, "elicitation": 0}
progress: dict[str, str] = {"step": "connect"}  # where a run that timed out was


async def on_sampling(_ctx: Any, params: types.CreateMessageRequestParams) -> types.CreateMessageResult:
    calls["sampling"] += 1
    asked = ""
    if params.messages:
        asked = getattr(params.messages[0].content, "text", "") or ""
    return types.CreateMessageResult(
        role="assistant",
        model="interop-test-model",
        stop_reason="endTurn",
        content=types.TextContent(type="text", text=f"sampled reply to: {asked}"),
    )


def fill_schema(schema: Any) -> dict[str, Any]:
    """An answer that satisfies a flat elicitation schema: a value of the right type per property."""
    if hasattr(schema, "model_dump"):
        schema = schema.model_dump(by_alias=True, exclude_none=True)
    props = (schema or {}).get("properties", {}) or {}
    out: dict[str, Any] = {}
    for key, prop in props.items():
        if "default" in prop:
            out[key] = prop["default"]
            continue
        kind = prop.get("type")
        if prop.get("enum"):
            out[key] = prop["enum"][0]
        elif prop.get("oneOf"):
            out[key] = prop["oneOf"][0].get("const")
        elif kind == "boolean":
            out[key] = True
        elif kind == "integer":
            out[key] = 1
        elif kind == "number":
            out[key] = 1.5
        elif kind == "array":
            items = prop.get("items", {}) or {}
            choices = items.get("enum") or [o.get("const") for o in items.get("anyOf", [])]
            out[key] = choices[:1]
        elif prop.get("format") == "email" or "email" in key:
            out[key] = "test@example.com"
        else:
            out[key] = "testuser" if "user" in key else "test"
    return out


async def on_elicitation(_ctx: Any, params: Any) -> types.ElicitResult:
    calls["elicitation"] += 1
    schema = getattr(params, "requested_schema", None)
    return types.ElicitResult(action="accept", content=fill_schema(schema))


# --- the run ---------------------------------------------------------------------------------


async def list_all_tools(client: Client) -> list[types.Tool]:
    tools: list[types.Tool] = []
    cursor: str | None = None
    for _ in range(100):  # a bound, in case a server keeps handing out cursors
        page = await client.list_tools(cursor=cursor)
        tools.extend(page.tools)
        cursor = page.next_cursor
        if not cursor:
            break
    return tools


async def run(target: Any, mode: str, timeout: float) -> None:
    step = "connect"
    try:
        async with Client(
            target,
            mode=mode,  # type: ignore[arg-type]
            read_timeout_seconds=timeout,
            sampling_callback=on_sampling,
            elicitation_callback=on_elicitation,
            client_info=types.Implementation(name="mcp-interop-py", version=version("mcp")),
        ) as client:
            ok("connect")

            step = "protocol-version"
            negotiated = client.protocol_version
            want = MODERN_VERSION if mode == "auto" else LEGACY_VERSION
            require(step, negotiated == want, f"negotiated {negotiated!r}, expected {want!r}")
            ok(f"{step} {negotiated}")

            step = "tools/list"
            tools = await list_all_tools(client)
            names = [t.name for t in tools]
            require(step, "test_simple_text" in names, f"test_simple_text missing from {names}")
            undescribed = [t.name for t in tools if not (t.description or "").strip()]
            require(step, not undescribed, f"tools without a description: {undescribed}")
            ok(f"{step} ({len(tools)} tools)")

            step = "tools/call test_simple_text"
            r = await client.call_tool("test_simple_text", {})
            require(step, not r.is_error, f"isError result: {r.content}")
            require(step, any(t.strip() for t in texts(r.content)), f"no text content: {r.content}")
            ok(step)

            step = "tools/call test_tool_with_progress"
            seen: list[float] = []

            async def on_progress(progress: float, total: float | None, message: str | None) -> None:
                seen.append(progress)

            r = await client.call_tool("test_tool_with_progress", {}, progress_callback=on_progress)
            require(step, not r.is_error, f"isError result: {r.content}")
            require(step, len(seen) >= 3, f"{len(seen)} progress updates, expected >= 3: {seen}")
            require(step, all(a <= b for a, b in zip(seen, seen[1:])), f"progress decreases: {seen}")
            ok(f"{step} ({len(seen)} updates)")

            if mode == "legacy":
                step = "tools/call test_sampling"
                r = await client.call_tool("test_sampling", {"prompt": "Say hello"})
                require(step, calls["sampling"] >= 1, "the sampling callback was never invoked")
                require(step, not r.is_error, f"isError result: {r.content}")
                require(step, any(t.strip() for t in texts(r.content)), f"empty result: {r.content}")
                ok(step)

                step = "tools/call test_elicitation"
                r = await client.call_tool("test_elicitation", {"message": "Please give your details"})
                require(step, calls["elicitation"] >= 1, "the elicitation callback was never invoked")
                require(step, not r.is_error, f"isError result: {r.content}")
                require(step, any(t.strip() for t in texts(r.content)), f"empty result: {r.content}")
                ok(step)
            else:
                print("skip: test_sampling, test_elicitation (no server-to-client requests on 2026-07-28)", flush=True)

            step = "resources/read test://template/42/data"
            rr = await client.read_resource("test://template/42/data")
            body = " ".join(getattr(c, "text", "") or "" for c in rr.contents)
            require(step, bool(rr.contents), "no contents")
            require(step, "42" in body, f"'42' not in the text: {body!r}")
            ok(step)

            step = "prompts/get test_prompt_with_arguments"
            gp = await client.get_prompt("test_prompt_with_arguments", {"arg1": "first-value", "arg2": "second-value"})
            said = " ".join(getattr(m.content, "text", "") or "" for m in gp.messages)
            require(step, bool(gp.messages), "no messages")
            require(step, "first-value" in said and "second-value" in said, f"arguments not in the prompt: {said!r}")
            ok(step)

            step = "completion/complete arg1"
            cr = await client.complete(
                types.PromptReference(type="ref/prompt", name="test_prompt_with_arguments"),
                {"name": "arg1", "value": "a"},
            )
            require(step, isinstance(cr.completion.values, list), f"values is not a list: {cr.completion!r}")
            ok(f"{step} ({len(cr.completion.values)} values)")
            step = "close"
        ok("close")
    except CheckFailed:
        raise
    except BaseException as exc:  # noqa: BLE001 - every error becomes a readable failure
        if isinstance(exc, (KeyboardInterrupt, SystemExit, anyio.get_cancelled_exc_class())):
            progress["step"] = step
            raise
        raise CheckFailed(step, describe(exc)) from exc


def describe(exc: BaseException) -> str:
    """One line for an exception, looking inside the groups anyio wraps them in."""
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    if isinstance(exc, BaseExceptionGroup):
        return "; ".join(describe(e) for e in exc.exceptions)
    text = str(exc) or repr(exc)
    return f"{type(exc).__name__}: {text}"


def main() -> int:
    parser = argparse.ArgumentParser(
        description="Drive an MCP server with the Python SDK (mcp 2.3.0).",
        usage="%(prog)s [--mode legacy|auto] [--timeout S] (URL | stdio CMD [ARGS...])",
    )
    parser.add_argument("--mode", choices=["legacy", "auto"], default="legacy")
    parser.add_argument("--timeout", type=float, default=30.0, help="per-request and overall bound, seconds")
    parser.add_argument("target", nargs=argparse.REMAINDER, help="URL, or: stdio CMD [ARGS...]")
    args = parser.parse_args()

    if not args.target:
        parser.error("a target is needed: URL, or stdio CMD [ARGS...]")
    if args.target[0] == "stdio":
        if len(args.target) < 2:
            parser.error("stdio needs a command")
        target: Any = StdioServerParameters(command=args.target[1], args=args.target[2:])
        label = "stdio " + " ".join(args.target[1:])
    else:
        if len(args.target) != 1:
            parser.error(f"one URL expected, got {args.target}")
        target = args.target[0]
        label = target
    print(f"python mcp client, mode={args.mode}, target={label}", flush=True)

    async def bounded() -> None:
        # Overall bound: one slow step must not hang CI.
        with anyio.fail_after(args.timeout * 4):
            await run(target, args.mode, args.timeout)

    try:
        anyio.run(bounded)
    except CheckFailed as failed:
        print(f"FAIL: {failed.name}: {failed.why}", file=sys.stderr, flush=True)
        return 1
    except TimeoutError:
        print(
            f"FAIL: {progress['step']}: timed out (the whole run may take {args.timeout * 4:.0f} s)",
            file=sys.stderr,
            flush=True,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
