-- wrk script: POSTs one tools/call per request. The era comes from the
-- environment: MCP_SESSION set means a 2025-11-25 session (its id in the
-- Mcp-Session-Id header); unset means a stateless 2026-07-28 request.
-- MCP_TOOL names the tool (default test_simple_text) and MCP_ARGUMENTS is
-- its arguments object as JSON (default {}). wrk itself reports "Non-2xx or
-- 3xx responses" when a server refuses.
local session = os.getenv("MCP_SESSION") or ""
local tool = os.getenv("MCP_TOOL") or "test_simple_text"
local arguments = os.getenv("MCP_ARGUMENTS") or ""
if arguments == "" then
  arguments = "{}"
end
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"

if session == "" then
  -- Stateless requests stand alone: one fixed body serves them all.
  wrk.headers["MCP-Protocol-Version"] = "2026-07-28"
  wrk.headers["Mcp-Method"] = "tools/call"
  wrk.headers["Mcp-Name"] = tool
  wrk.body = '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"_meta":{'
    .. '"io.modelcontextprotocol/protocolVersion":"2026-07-28",'
    .. '"io.modelcontextprotocol/clientCapabilities":{}},'
    .. '"name":"' .. tool .. '","arguments":' .. arguments .. '}}'
  return
end

-- A session's requests in flight must not share an id: each wrk thread
-- counts its own from a billion times its index.
wrk.headers["Mcp-Session-Id"] = session
wrk.headers["MCP-Protocol-Version"] = "2025-11-25"
local tail = ',"method":"tools/call","params":{"name":"' .. tool .. '","arguments":' .. arguments .. '}}'
local threads = 0
function setup(thread)
  thread:set("first_id", threads * 1000000000)
  threads = threads + 1
end

local next_id = 0
function init(args)
  next_id = first_id or 0
end

function request()
  next_id = next_id + 1
  return wrk.format(nil, nil, nil, '{"jsonrpc":"2.0","id":' .. next_id .. tail)
end
