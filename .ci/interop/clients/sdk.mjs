// sdk.mjs: where the TypeScript SDK's modules are, for the clients here.
// The SDK is loaded from $TS_SDK_NODE_MODULES, else from
// ${MCP_INTEROP_HOME:-$HOME/.cache/mcp-interop}/clients/node_modules (install.sh).

import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

// Resolve "@modelcontextprotocol/sdk/<sub>" through the package's export map
// ("import" condition), from a node_modules that need not be next to this file.
export function sdkModuleUrl(sub) {
  const home = process.env.MCP_INTEROP_HOME || join(process.env.HOME || homedir(), '.cache', 'mcp-interop');
  const nodeModules = process.env.TS_SDK_NODE_MODULES || join(home, 'clients', 'node_modules');
  const pkgDir = join(nodeModules, '@modelcontextprotocol', 'sdk');
  if (!existsSync(join(pkgDir, 'package.json'))) {
    throw new Error(`@modelcontextprotocol/sdk not found in ${nodeModules}; run .ci/interop/install.sh`);
  }
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  const key = `./${sub}`;
  let entry = pkg.exports[key];
  let star = '';
  if (entry === undefined) {
    for (const [pattern, target] of Object.entries(pkg.exports)) {
      if (pattern.endsWith('*') && key.startsWith(pattern.slice(0, -1))) {
        entry = target;
        star = key.slice(pattern.length - 1);
        break;
      }
    }
  }
  if (entry === undefined) throw new Error(`${key} is not exported by @modelcontextprotocol/sdk ${pkg.version}`);
  const file = (typeof entry === 'string' ? entry : entry.import ?? entry.default).replace('*', star);
  return pathToFileURL(join(pkgDir, file)).href;
}
