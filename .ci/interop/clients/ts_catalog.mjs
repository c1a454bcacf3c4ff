#!/usr/bin/env node
// ts_catalog.mjs: the TypeScript SDK (@modelcontextprotocol/sdk 1.32.2) sees
// the demo's runtime catalog change: a tool appears while it is connected.
//
// Usage: node ts_catalog.mjs MCP_DEMO_BIN
//
// It writes a catalog file with one tool (`catalog_welcome`), starts
// `MCP_DEMO_BIN --http` on a free port with `catalog.file` set to it and
// `catalog.poll_ms=50`, connects (legacy handshake, session with its GET
// stream), and checks, printing `ok: <name>` for each and stopping with
// `FAIL: <name>: <why>` (exit 1): the tool is listed and answers; after the
// file gains `catalog_farewell`, the SDK receives
// notifications/tools/list_changed within 10 s; tools/list then holds the
// new tool, which answers.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fail, ok, startServer } from './checks.mjs';
import { sdkModuleUrl } from './sdk.mjs';

const bin = process.argv[2];
if (!bin) {
  console.error('usage: ts_catalog.mjs MCP_DEMO_BIN');
  process.exit(2);
}

const tool = (name, answer) => ({
  name,
  inputSchema: { type: 'object', properties: { who: { type: 'string' } }, required: ['who'] },
  answer,
});
const dir = mkdtempSync(join(tmpdir(), 'mcp-catalog-'));
const file = join(dir, 'tools.json');
writeFileSync(file, JSON.stringify({ tools: [tool('catalog_welcome', 'Welcome, {who}!')] }));

const text = (result) => (result.content ?? []).map((c) => c.text ?? '').join('');

let code = 0;
let stop = () => {};
try {
  const started = await startServer(bin, ['--set', `catalog.file=${file}`, '--set', 'catalog.poll_ms=50']);
  stop = started.stop;
  const base = started.base;

  const [{ Client }, { StreamableHTTPClientTransport }, types] = await Promise.all([
    import(sdkModuleUrl('client/index.js')),
    import(sdkModuleUrl('client/streamableHttp.js')),
    import(sdkModuleUrl('types.js')),
  ]);
  const client = new Client({ name: 'catalog-interop', version: '1.0.0' });
  let heard = 0;
  let wake = () => {};
  client.setNotificationHandler(types.ToolListChangedNotificationSchema, () => {
    heard += 1;
    wake();
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));

  const names = async () => (await client.listTools()).tools.map((t) => t.name);
  if (!(await names()).includes('catalog_welcome')) fail('listed', JSON.stringify(await names()));
  ok('the file\'s tool is listed');
  const welcomed = await client.callTool({ name: 'catalog_welcome', arguments: { who: 'Ada' } });
  if (text(welcomed) !== 'Welcome, Ada!') fail('answers', JSON.stringify(welcomed));
  ok('the file\'s tool answers');

  // The GET stream that carries list changes opens after initialization;
  // give it a moment before the file changes.
  await new Promise((r) => setTimeout(r, 500));
  const changed = new Promise((resolve) => { wake = resolve; });
  writeFileSync(file, JSON.stringify({
    tools: [tool('catalog_welcome', 'Welcome, {who}!'), tool('catalog_farewell', 'Farewell, {who}.')],
  }));
  const timer = new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 10000));
  await Promise.race([changed, timer]).catch(() => fail('list_changed', `none within 10 s (heard ${heard})`));
  ok('notifications/tools/list_changed arrived');
  if (!(await names()).includes('catalog_farewell')) fail('new tool listed', JSON.stringify(await names()));
  ok('tools/list holds the new tool');
  const farewell = await client.callTool({ name: 'catalog_farewell', arguments: { who: 'Bo' } });
  if (text(farewell) !== 'Farewell, Bo.') fail('new tool answers', JSON.stringify(farewell));
  ok('the new tool answers');
  await client.close();
} catch (error) {
  if (!String(error.message).includes(':')) console.error(`FAIL: ${error.stack ?? error}`);
  code = 1;
} finally {
  stop();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(code);
