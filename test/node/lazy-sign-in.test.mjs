// Sign-in (src/core/auth/sign-ins and what only it uses) is not in the static import graph of the
// built core: the hub loads it with a dynamic import when a server needs it
// (src/core/sign-in-loader.ts). Read from dist/core (one file per module).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { dist, staticGraph } from './static-graph.mjs';

test('the hub does not import sign-in statically; the loader imports it dynamically', () => {
  const graph = [...staticGraph('index.js').keys()];
  assert.ok(graph.includes('hub.js') && graph.includes('sign-in-loader.js'), 'the walk follows the imports');
  for (const lazy of ['auth/sign-ins.js', 'auth/provider.js', 'auth/machine.js', 'auth/dpop.js', 'auth/client-keys.js'])
    assert.ok(!graph.includes(lazy), `${lazy} is imported statically`);
  const loader = readFileSync(path.join(dist, 'sign-in-loader.js'), 'utf8');
  assert.match(loader, /import\(['"]\.\/auth\/sign-ins\.js['"]\)/);
});
