// Node-only code (the relay's Node fetch, stdio servers, CLI) is never reachable from the page
// bundle, and the runtime-neutral relay and backend hub import no Node module (they run in
// Workers): checked on the built files' static import graphs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = path.join(root, 'dist');

/** Every dist file reached from `entry` by static and dynamic imports, with the packages each imports. */
function graph(entry) {
  const seen = new Map();
  const visit = (file) => {
    if (seen.has(file)) return;
    const packages = [];
    seen.set(file, packages);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g)) {
      if (m[1].startsWith('.')) visit(path.resolve(path.dirname(file), m[1]));
      else packages.push(m[1]);
    }
  };
  visit(path.join(dist, entry));
  return seen;
}

test('the page entries reach no relay, backend or Node module', () => {
  for (const entry of ['index.js', 'core/index.js', 'autoload.js', 'g4f/index.js']) {
    const g = graph(entry);
    assert.ok(g.size > 3, `${entry}: the graph was walked`);
    for (const [file, packages] of g) {
      const rel = path.relative(dist, file);
      assert.doesNotMatch(rel, /^(relay|server)\//, `${entry} reaches ${rel}`);
      for (const p of packages) assert.doesNotMatch(p, /^node:|^hono|^@hono\//, `${rel} imports ${p}`);
    }
  }
  for (const f of readdirSync(path.join(dist, 'cdn')).filter((f) => f.endsWith('.js'))) {
    const text = readFileSync(path.join(dist, 'cdn', f), 'utf8');
    // (the SDK's own messages name its StdioClientTransport: look for code, not words)
    const found = /['"]node:[a-z_]+['"]|child_process|startStdioRelay|createNodeRelay|createRelay/.exec(text);
    assert.ok(!found, `dist/cdn/${f} has ${found?.[0]}`);
  }
});

test('the relay and backend hub entries import no Node module (they run in workerd)', () => {
  for (const entry of ['relay/index.js', 'server/index.js']) {
    const g = graph(entry);
    for (const [file, packages] of g) {
      const rel = path.relative(dist, file);
      assert.doesNotMatch(rel, /^relay\/node\//, `${entry} reaches ${rel}`);
      for (const p of packages) assert.doesNotMatch(p, /^node:|\/stdio$/, `${rel} imports ${p}`);
    }
  }
  // and the Node entry does (the check above is not vacuous)
  const nodeGraph = [...graph('relay/node/index.js').values()].flat();
  assert.ok(nodeGraph.some((p) => p.startsWith('node:')));
});
