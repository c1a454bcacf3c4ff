#!/usr/bin/env node
// ts_oauth.mjs: the TypeScript SDK (@modelcontextprotocol/sdk 1.32.2) calls a
// tool of mcp-demo configured as an OAuth resource server, with a bearer token.
//
// Usage: node ts_oauth.mjs MCP_DEMO_BIN
//
// It plays the authorization server itself: a P-256 key made for the run, its
// JWKS served on a free local port, and an ES256 token for the demo's resource.
// It starts MCP_DEMO_BIN --http on another free port with the `oauth` settings
// in the environment (MCP_OAUTH__RESOURCE, ...), then checks, printing
// `ok: <name>` for each and stopping with `FAIL: <name>: <why>` (exit 1):
// the protected resource metadata (RFC 9728) names the resource and issuer; a
// request without a token gets 401 with `WWW-Authenticate: Bearer
// resource_metadata=...`; the SDK client without a token cannot connect; the
// SDK client with the token connects, lists tools and calls test_simple_text.

import { spawn } from 'node:child_process';
import { generateKeyPairSync, sign } from 'node:crypto';
import { createServer } from 'node:http';
import { fail, freePort, ok } from './checks.mjs';
import { sdkModuleUrl } from './sdk.mjs';

const bin = process.argv[2];
if (!bin) {
  console.error('usage: ts_oauth.mjs MCP_DEMO_BIN');
  process.exit(2);
}

const b64url = (buf) => Buffer.from(buf).toString('base64url');

// The authorization server: one key, its JWKS, and tokens signed with it.
const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'interop', alg: 'ES256', use: 'sig' };
const jwks = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ keys: [jwk] }));
});
await new Promise((resolve) => jwks.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${jwks.address().port}`;

function token(claims) {
  const header = b64url(JSON.stringify({ alg: 'ES256', typ: 'JWT', kid: 'interop' }));
  const payload = b64url(JSON.stringify(claims));
  const signature = sign('sha256', Buffer.from(`${header}.${payload}`), { key: privateKey, dsaEncoding: 'ieee-p1363' });
  return `${header}.${payload}.${b64url(signature)}`;
}

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const resource = `${base}/mcp`;
const demo = spawn(bin, ['--http', `127.0.0.1:${port}`], {
  env: {
    ...process.env,
    MCP_OAUTH__RESOURCE: resource,
    MCP_OAUTH__AUTHORIZATION_SERVERS: JSON.stringify([issuer]),
    MCP_OAUTH__JWKS_URI: `${issuer}/jwks`,
    MCP_OAUTH__SCOPES_SUPPORTED: JSON.stringify(['mcp:tools']),
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
let exited = false;
demo.on('exit', () => { exited = true; });

let code = 0;
try {
  const metadataUrl = `${base}/.well-known/oauth-protected-resource/mcp`;
  let metadata;
  for (let i = 0; i < 300 && !metadata; i++) {
    if (exited) fail('start', 'mcp-demo exited');
    try {
      const res = await fetch(metadataUrl);
      if (res.ok) metadata = await res.json();
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  if (!metadata) fail('metadata', `no answer at ${metadataUrl}`);
  if (metadata.resource !== resource || metadata.authorization_servers?.[0] !== issuer) {
    fail('metadata', JSON.stringify(metadata));
  }
  ok('metadata');

  const bare = await fetch(resource, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
  });
  const challenge = bare.headers.get('www-authenticate') ?? '';
  if (bare.status !== 401 || !challenge.includes(`resource_metadata="${metadataUrl}"`)) {
    fail('401 without a token', `${bare.status} ${challenge}`);
  }
  const body = await bare.json();
  if (body.jsonrpc !== '2.0' || body.id !== 1 || typeof body.error?.code !== 'number') {
    fail('401 without a token', `the body is not a JSON-RPC error: ${JSON.stringify(body)}`);
  }
  ok('401 without a token');

  const [{ Client }, { StreamableHTTPClientTransport }] = await Promise.all([
    import(sdkModuleUrl('client/index.js')),
    import(sdkModuleUrl('client/streamableHttp.js')),
  ]);
  const connect = async (headers) => {
    const client = new Client({ name: 'oauth-interop', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(resource), { requestInit: { headers } }));
    return client;
  };

  let refused = false;
  try {
    const client = await connect({});
    await client.close();
  } catch {
    refused = true;
  }
  if (!refused) fail('sdk client without a token', 'it connected');
  ok('sdk client without a token is refused');

  const now = Math.floor(Date.now() / 1000);
  const bearer = token({ iss: issuer, aud: resource, sub: 'interop-user', scope: 'mcp:tools', iat: now, exp: now + 600 });
  const client = await connect({ Authorization: `Bearer ${bearer}` });
  const { tools } = await client.listTools();
  if (!tools.some((t) => t.name === 'test_simple_text')) fail('tools/list', 'no test_simple_text');
  ok(`tools/list (${tools.length} tools)`);
  const result = await client.callTool({ name: 'test_simple_text', arguments: {} });
  const text = (result.content ?? []).map((c) => c.text ?? '').join('');
  if (!text.includes('simple text')) fail('tools/call', JSON.stringify(result));
  ok('tools/call test_simple_text with a bearer token');
  await client.close();

  const foreign = token({ iss: issuer, aud: 'https://elsewhere.example/mcp', sub: 'x', iat: now, exp: now + 600 });
  let foreignRefused = false;
  try {
    const c = await connect({ Authorization: `Bearer ${foreign}` });
    await c.close();
  } catch {
    foreignRefused = true;
  }
  if (!foreignRefused) fail('token for another resource', 'it connected');
  ok('a token for another resource is refused');
} catch (error) {
  if (!String(error.message).includes(':')) console.error(`FAIL: ${error.stack ?? error}`);
  code = 1;
} finally {
  demo.kill('SIGTERM');
  jwks.close();
}
process.exit(code);
