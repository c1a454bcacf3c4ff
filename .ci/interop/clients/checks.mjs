// checks.mjs: what the scripted clients here share: `ok: <name>` for a check
// that passed, `FAIL: <name>: <why>` (thrown) for one that did not, a free
// loopback port to start a server on, and a server started on one.

import { spawn } from 'node:child_process';
import { createServer as createTcpServer } from 'node:net';

export const ok = (name) => console.log(`ok: ${name}`);

export function fail(name, why) {
  console.error(`FAIL: ${name}: ${why}`);
  throw new Error(`${name}: ${why}`);
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createTcpServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

// Starts `bin --http 127.0.0.1:PORT ...args` on a free port and waits (up to
// 30 s) until /mcp answers; resolves to { base, stop }.
export async function startServer(bin, args = []) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(bin, ['--http', `127.0.0.1:${port}`, ...args], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  let exited = false;
  server.on('exit', () => { exited = true; });
  const stop = () => server.kill('SIGTERM');
  for (let i = 0; i < 300; i++) {
    if (exited) fail('start', `${bin} exited`);
    try {
      await fetch(`${base}/mcp`);
      return { base, stop };
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  stop();
  fail('start', `no answer at ${base}/mcp`);
}
