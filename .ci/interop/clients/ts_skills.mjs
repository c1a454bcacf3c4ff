#!/usr/bin/env node
// ts_skills.mjs: the TypeScript SDK (@modelcontextprotocol/sdk, which has no
// skills API) against mcp-demo's skill, embedded in the binary with
// mcp-skills. It starts its own mcp-demo over HTTP, then checks: the server
// declares io.modelcontextprotocol/skills with directoryRead; skills/list
// (a raw request) lists skill://sales-report/SKILL.md with its frontmatter;
// skills/get answers the same entry; resources/read of every file in the
// manifest (SKILL.md first) gives bytes whose SHA-256 and length are the
// entry's digest and size; resources/directory/read of the skill's root lists
// its subdirectories as inode/directory; skills/get of an unknown skill is -32602.
//
// Usage: node ts_skills.mjs MCP_DEMO_BIN
// Prints `ok: <name>` per check; `FAIL: <name>: <why>` and exit 1 at the first
// that does not hold.

import { createHash } from 'node:crypto';
import { fail, ok, startServer } from './checks.mjs';
import { sdkModuleUrl } from './sdk.mjs';

const bin = process.argv[2];
if (!bin) {
  console.error('usage: ts_skills.mjs MCP_DEMO_BIN');
  process.exit(2);
}

const SKILL = 'skill://sales-report/SKILL.md';
const sha256 = (bytes) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

let code = 0;
let stop = () => {};
try {
  const started = await startServer(bin);
  stop = started.stop;
  const [{ Client }, { StreamableHTTPClientTransport }, types] = await Promise.all([
    import(sdkModuleUrl('client/index.js')),
    import(sdkModuleUrl('client/streamableHttp.js')),
    import(sdkModuleUrl('types.js')),
  ]);
  const client = new Client({ name: 'skills-interop', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${started.base}/mcp`)));
  const raw = (method, params) => client.request({ method, params }, types.ResultSchema);

  const declared = client.getServerCapabilities()?.extensions?.['io.modelcontextprotocol/skills'];
  if (declared?.directoryRead !== true) {
    fail('capability', JSON.stringify(client.getServerCapabilities()));
  }
  ok('the server declares io.modelcontextprotocol/skills with directoryRead');

  const listed = await raw('skills/list', {});
  const entry = (listed.skills ?? []).find((s) => s.uri === SKILL);
  if (!entry) fail('skills/list', JSON.stringify(listed));
  if (entry.frontmatter?.name !== 'sales-report' || !entry.frontmatter?.description) {
    fail('frontmatter', JSON.stringify(entry.frontmatter));
  }
  ok(`skills/list lists ${SKILL} with its frontmatter`);

  const got = await raw('skills/get', { uri: SKILL });
  if (JSON.stringify(got.skill) !== JSON.stringify(entry)) {
    fail('skills/get', `${JSON.stringify(got.skill)} differs from ${JSON.stringify(entry)}`);
  }
  ok('skills/get answers the entry skills/list gave');

  if (!Array.isArray(entry.resources)) fail('manifest', JSON.stringify(entry.resources));
  const files = [...entry.resources].sort((a, b) => (a.uri === SKILL ? -1 : b.uri === SKILL ? 1 : 0));
  if (files[0]?.uri !== SKILL) fail('manifest', `no entry for ${SKILL}`);
  for (const file of files) {
    const read = await client.readResource({ uri: file.uri });
    const contents = read.contents?.[0];
    const bytes = contents?.text !== undefined
      ? Buffer.from(contents.text, 'utf8')
      : Buffer.from(contents?.blob ?? '', 'base64');
    if (sha256(bytes) !== file.digest) fail('digest', `${file.uri}: ${sha256(bytes)} != ${file.digest}`);
    if (bytes.length !== file.size) fail('size', `${file.uri}: ${bytes.length} != ${file.size}`);
  }
  ok(`every file read matches its digest and size (${files.length} files, SKILL.md first)`);

  const directory = await raw('resources/directory/read', { uri: 'skill://sales-report' });
  const subdirectories = (directory.resources ?? []).filter((r) => r.mimeType === 'inode/directory');
  if (subdirectories.length === 0) fail('directory', JSON.stringify(directory));
  ok(`resources/directory/read lists ${subdirectories.length} subdirectories`);

  const unknown = await raw('skills/get', { uri: 'skill://no-such-skill/SKILL.md' }).then(
    () => fail('unknown', 'an unknown skill was answered'),
    (error) => error,
  );
  if (unknown.code !== -32602) fail('unknown', String(unknown));
  ok('skills/get of an unknown skill is -32602');
  await client.close();
} catch (error) {
  if (!String(error.message).includes(':')) console.error(`FAIL: ${error.stack ?? error}`);
  code = 1;
} finally {
  stop();
}
process.exit(code);
