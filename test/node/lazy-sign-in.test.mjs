// Sign-in (src/core/auth/sign-ins and what only it uses) is not in the static import graph of the
// built core: the hub loads it with a dynamic import when a server needs it
// (src/core/sign-in-loader.ts). Read from dist/core (one file per module).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = path.join(root, 'dist/core');

/** Every dist/core file reached from `entry` through static imports and re-exports. */
function staticGraph(entry) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file) || !file.startsWith(dist)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    // static `import … from '…'`, `export … from '…'` and bare `import '…'`; not `import('…')`
    for (const m of text.matchAll(/(?:^|[;\n}])\s*(?:import|export)\s*(?:[^'"()]*?\sfrom\s*)?['"](\.[^'"]+)['"]/g))
      visit(path.resolve(path.dirname(file), m[1]));
  };
  visit(path.join(dist, entry));
  return [...seen].map((f) => path.relative(dist, f));
}

test('the hub does not import sign-in statically; the loader imports it dynamically', () => {
  const graph = staticGraph('index.js');
  assert.ok(graph.includes('hub.js') && graph.includes('sign-in-loader.js'), 'the walk follows the imports');
  for (const lazy of ['auth/sign-ins.js', 'auth/provider.js', 'auth/machine.js', 'auth/dpop.js', 'auth/client-keys.js'])
    assert.ok(!graph.includes(lazy), `${lazy} is imported statically`);
  const loader = readFileSync(path.join(dist, 'sign-in-loader.js'), 'utf8');
  assert.match(loader, /import\(['"]\.\/auth\/sign-ins\.js['"]\)/);
});
