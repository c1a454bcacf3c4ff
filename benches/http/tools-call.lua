-- wrk script: POSTs one tools/call per request. The era comes from the
-- environment: MCP_SESSION set means a 2025-11-25 session (its id in the
-- Mcp-Session-Id header); unset means a stateless 2026-07-28 request.
local session = os.getenv("MCP_SESSION")
local tool = os.getenv("MCP_TOOL") or "test_simple_text"
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
if session and session ~= "" then
  wrk.headers["Mcp-Session-Id"] = session
  wrk.headers["MCP-Protocol-Version"] = "2025-11-25"
  wrk.body = '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"' .. tool .. '","arguments":{}}}'
else
  wrk.headers["MCP-Protocol-Version"] = "2026-07-28"
  wrk.headers["Mcp-Method"] = "tools/call"
  wrk.headers["Mcp-Name"] = tool
  wrk.body = '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"_meta":{'
    .. '"io.modelcontextprotocol/protocolVersion":"2026-07-28",'
    .. '"io.modelcontextprotocol/clientCapabilities":{}},'
    .. '"name":"' .. tool .. '","arguments":{}}}'
end
-- wrk itself reports "Non-2xx or 3xx responses" when a server refuses.
