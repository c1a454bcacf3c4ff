#!/usr/bin/env node
// ts_stamp.mjs: the TypeScript SDK (@modelcontextprotocol/sdk 1.32.2) calls
// a tool of acme-stamp-server, a server that links acme-stamp, a stranger's
// crate whose sending interceptor stamps every progress notification's
// `_meta` with `dev.acme/stamp`.
//
// Usage: node ts_stamp.mjs ACME_STAMP_SERVER_BIN
//
// It starts the binary on a free port, calls `count_up` with a progress
// handler, and checks, printing `ok: <name>` for each and stopping with
// `FAIL: <name>: <why>` (exit 1): three progress notifications arrived,
// each before the result, each with `_meta["dev.acme/stamp"]` numbered 1,
// 2, 3 in order; the result is the tool's.

import { spawn } from 'node:child_process';
import { fail, freePort, ok } from './checks.mjs';
import { sdkModuleUrl } from './sdk.mjs';

const bin = process.argv[2];
if (!bin) {
  console.error('usage: ts_stamp.mjs ACME_STAMP_SERVER_BIN');
  process.exit(2);
}

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = spawn(bin, [`127.0.0.1:${port}`], { stdio: ['ignore', 'inherit', 'inherit'] });
let exited = false;
server.on('exit', () => { exited = true; });

let code = 0;
try {
  let up = false;
  for (let i = 0; i < 300 && !up; i++) {
    if (exited) fail('start', 'acme-stamp-server exited');
    try {
      await fetch(`${base}/mcp`);
      up = true;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  if (!up) fail('start', `no answer at ${base}/mcp`);

  const [{ Client }, { StreamableHTTPClientTransport }] = await Promise.all([
    import(sdkModuleUrl('client/index.js')),
    import(sdkModuleUrl('client/streamableHttp.js')),
  ]);
  const client = new Client({ name: 'stamp-interop', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));

  // Each event in arrival order: progress notifications, then the result.
  const events = [];
  const result = await client.callTool({ name: 'count_up', arguments: {} }, undefined, {
    onprogress: (progress) => events.push({ kind: 'progress', progress }),
  });
  events.push({ kind: 'result', result });

  const progress = events.filter((e) => e.kind === 'progress');
  if (progress.length !== 3) fail('three progress notifications', JSON.stringify(events));
  ok('three progress notifications arrived');
  if (events.findIndex((e) => e.kind === 'result') !== 3) fail('before the result', JSON.stringify(events));
  ok('each progress notification arrived before the result');
  const stamps = progress.map((e) => e.progress?._meta?.['dev.acme/stamp']);
  const expected = [1, 2, 3].map((seq) => ({ by: 'acme-stamp', seq }));
  if (JSON.stringify(stamps) !== JSON.stringify(expected)) fail('stamps', JSON.stringify(progress));
  ok('each carries _meta["dev.acme/stamp"] numbered 1, 2, 3');
  const text = (result.content ?? []).map((c) => c.text ?? '').join('');
  if (text !== 'counted to 3') fail('result', JSON.stringify(result));
  ok('the result is the tool\'s');
  await client.close();
} catch (error) {
  if (!String(error.message).includes(':')) console.error(`FAIL: ${error.stack ?? error}`);
  code = 1;
} finally {
  server.kill('SIGTERM');
}
process.exit(code);
