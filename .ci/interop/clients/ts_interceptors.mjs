#!/usr/bin/env node
// ts_interceptors.mjs: the TypeScript SDK (@modelcontextprotocol/sdk 1.32.2)
// drives mcp-demo's interceptors (the experimental interceptors extension)
// over Streamable HTTP.
//
// Usage: node ts_interceptors.mjs MCP_DEMO_BIN
//
// It starts MCP_DEMO_BIN --http on a free port, then checks, printing
// `ok: <name>` for each and stopping with `FAIL: <name>: <why>` (exit 1):
// the capability in `initialize` names `tools/call`; `interceptors/list`
// filtered by `tools/call` names both demo interceptors; `interceptor/invoke`
// of the injection guard refuses an injection and of the PII redactor
// rewrites the payload; a call of a guarded tool reaches it redacted, and
// one with an injection is refused with a JSON-RPC error naming the guard;
// the elicitation `confirm_invoice` sends reaches the client redacted;
// the endpoint that serves the interceptors alone (/interceptors) has no
// tools and answers `interceptor/invoke` too.

import { spawn } from 'node:child_process';
import { fail, freePort, ok } from './checks.mjs';
import { sdkModuleUrl } from './sdk.mjs';

const bin = process.argv[2];
if (!bin) {
  console.error('usage: ts_interceptors.mjs MCP_DEMO_BIN');
  process.exit(2);
}

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const demo = spawn(bin, ['--http', `127.0.0.1:${port}`], { stdio: ['ignore', 'inherit', 'inherit'] });
let exited = false;
demo.on('exit', () => { exited = true; });

const injection = {
  method: 'tools/call',
  params: { name: 'search_orders', arguments: { query: "x'; DROP TABLE orders; --" } },
};

let code = 0;
try {
  let up = false;
  for (let i = 0; i < 300 && !up; i++) {
    if (exited) fail('start', 'mcp-demo exited');
    try {
      await fetch(`${base}/mcp`);
      up = true;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  if (!up) fail('start', `no answer at ${base}/mcp`);

  const [{ Client }, { StreamableHTTPClientTransport }, { ResultSchema, McpError }] = await Promise.all([
    import(sdkModuleUrl('client/index.js')),
    import(sdkModuleUrl('client/streamableHttp.js')),
    import(sdkModuleUrl('types.js')),
  ]);
  const connect = async (path) => {
    const client = new Client({ name: 'interceptors-interop', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}${path}`)));
    return client;
  };
  const request = (client, method, params) => client.request({ method, params }, ResultSchema);

  const client = await connect('/mcp');
  const capability = client.getServerCapabilities()?.extensions?.['io.modelcontextprotocol/interceptors'];
  if (!capability?.supportedEvents?.includes('tools/call')) {
    fail('capability', JSON.stringify(client.getServerCapabilities()));
  }
  ok('initialize advertises io.modelcontextprotocol/interceptors with tools/call');

  const list = await request(client, 'interceptors/list', { event: 'tools/call' });
  const names = (list.interceptors ?? []).map((i) => i.name).join(',');
  if (names !== 'injection-guard,pii-redactor') fail('interceptors/list', JSON.stringify(list));
  ok('interceptors/list names injection-guard and pii-redactor');

  const verdict = await request(client, 'interceptor/invoke', {
    name: 'injection-guard', event: 'tools/call', phase: 'request', payload: injection,
  });
  if (verdict.valid !== false || verdict.severity !== 'error' || verdict.type !== 'validation') {
    fail('invoke injection-guard', JSON.stringify(verdict));
  }
  ok('interceptor/invoke: injection-guard refuses an injection');

  const redacted = await request(client, 'interceptor/invoke', {
    name: 'pii-redactor', event: 'tools/call', phase: 'request',
    payload: { method: 'tools/call', params: { name: 'support_ticket', arguments: { message: 'mail ada@example.com' } } },
  });
  if (redacted.modified !== true || redacted.payload?.params?.arguments?.message !== 'mail [email]') {
    fail('invoke pii-redactor', JSON.stringify(redacted));
  }
  ok('interceptor/invoke: pii-redactor rewrites the payload');

  const ticket = await client.callTool({ name: 'support_ticket', arguments: { message: 'call +1 555 010 0199' } });
  const text = (ticket.content ?? []).map((c) => c.text ?? '').join('');
  if (text !== 'Ticket opened: call [phone]') fail('tools/call support_ticket', JSON.stringify(ticket));
  ok('tools/call: the guarded tool receives redacted arguments');

  let refusal;
  try {
    await client.callTool({ name: 'search_orders', arguments: injection.params.arguments });
  } catch (error) {
    refusal = error;
  }
  if (!(refusal instanceof McpError) || refusal.code !== -32602 || !refusal.message.includes('injection-guard')) {
    fail('tools/call search_orders', String(refusal));
  }
  ok('tools/call: an injection is refused with -32602 naming injection-guard');
  await client.close();

  // A client that answers elicitations: the question the server sends it
  // was redacted on its way out.
  const { ElicitRequestSchema } = await import(sdkModuleUrl('types.js'));
  const asked = [];
  const answering = new Client(
    { name: 'interceptors-interop-elicit', version: '1.0.0' },
    { capabilities: { elicitation: {} } },
  );
  answering.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params.message);
    return { action: 'accept', content: { send: true } };
  });
  await answering.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
  const invoice = await answering.callTool({ name: 'confirm_invoice', arguments: { customer_id: 'c-7' } });
  if (asked[0] !== 'Send the invoice of c-7 to [email] or [phone]?') fail('elicitation redacted', JSON.stringify(asked));
  const invoiceText = (invoice.content ?? []).map((c) => c.text ?? '').join('');
  if (invoiceText !== 'Invoice of c-7: Accept') fail('confirm_invoice result', JSON.stringify(invoice));
  ok('elicitation/create: the question the server sends is redacted');
  await answering.close();

  const alone = await connect('/interceptors');
  const served = alone.getServerCapabilities() ?? {};
  if (served.tools || !served.extensions?.['io.modelcontextprotocol/interceptors']) {
    fail('/interceptors capabilities', JSON.stringify(served));
  }
  const again = await request(alone, 'interceptor/invoke', {
    name: 'injection-guard', event: 'tools/call', phase: 'request', payload: injection,
  });
  if (again.valid !== false) fail('/interceptors invoke', JSON.stringify(again));
  ok('/interceptors serves the interceptors without tools');
  await alone.close();
} catch (error) {
  if (!String(error.message).includes(':')) console.error(`FAIL: ${error.stack ?? error}`);
  code = 1;
} finally {
  demo.kill('SIGTERM');
}
process.exit(code);
