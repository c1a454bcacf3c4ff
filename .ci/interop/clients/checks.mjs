// checks.mjs: what the scripted clients here share: `ok: <name>` for a check
// that passed, `FAIL: <name>: <why>` (thrown) for one that did not, and a free
// loopback port to start a server on.

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
