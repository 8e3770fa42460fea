// The edge kit (src/edge) is the floor the relay and the backend hub stand on, never the other way
// round: it imports nothing of theirs, nothing of the elements and of the core only the
// runtime-neutral helpers named here; the relay and the backend reach each other's code only
// through the kit. Checked on the sources (type-only imports too) and on the built graphs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const src = path.join(root, 'src');
const dist = path.join(root, 'dist');

/** The core modules the kit may import: runtime-neutral helpers a page and an edge both use. */
const KIT_CORE = new Set(['core/read-capped.ts']);

/** Every .ts file under `dir`, recursively. */
const sources = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
  );

/** What a source file imports (static, type-only, re-exports, dynamic): src-relative paths for relative specifiers, else the package. */
function importsOf(file) {
  const text = readFileSync(file, 'utf8');
  const found = [];
  for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g)) {
    const spec = m[1];
    found.push(
      spec.startsWith('.')
        ? path.relative(src, path.resolve(path.dirname(file), spec)).replace(/\.js$/, '.ts')
        : `package:${spec}`,
    );
  }
  return found;
}

test('src/edge imports nothing of the relay, the backend or the elements, and of the core only its named helpers', () => {
  const files = sources(path.join(src, 'edge'));
  assert.ok(files.length >= 10, 'the kit was read');
  for (const file of files) {
    const rel = path.relative(src, file);
    for (const target of importsOf(file)) {
      if (target.startsWith('package:')) {
        assert.doesNotMatch(target, /^package:(lit|idb-keyval|@lit)/, `${rel} imports ${target}`);
        continue;
      }
      assert.match(target, /^(edge|core)\//, `${rel} imports ${target}: the kit reaches only itself and the core`);
      if (target.startsWith('core/')) assert.ok(KIT_CORE.has(target), `${rel} imports ${target}, not a kit helper`);
    }
  }
});

test('the relay and the backend import the kit, never each other', () => {
  const rooms = { relay: 'server', server: 'relay' };
  for (const [room, other] of Object.entries(rooms)) {
    const files = sources(path.join(src, room));
    let kit = 0;
    for (const file of files) {
      const rel = path.relative(src, file);
      for (const target of importsOf(file)) {
        assert.ok(!target.startsWith(`${other}/`), `${rel} imports ${target}: go through src/edge`);
        if (target.startsWith('edge/')) kit++;
      }
    }
    assert.ok(kit > 0, `src/${room} stands on the kit`);
  }
});

/** Every dist file reached from `entry` by static and dynamic imports. */
function graph(entry) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const m of readFileSync(file, 'utf8').matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g))
      if (m[1].startsWith('.')) visit(path.resolve(path.dirname(file), m[1]));
  };
  visit(path.join(dist, entry));
  return [...seen].map((f) => path.relative(dist, f));
}

test('built: the backend entry reaches no relay file and the relay entry no backend file; the kit reaches neither', () => {
  assert.ok(existsSync(path.join(dist, 'edge/guard.js')), 'needs a build (dist/edge)');
  const server = graph('server/index.js');
  assert.ok(server.includes('edge/guard.js') && server.includes('edge/sse.js'), 'the backend is on the kit');
  assert.deepEqual(
    server.filter((f) => f.startsWith('relay/')),
    [],
  );
  const relay = graph('relay/index.js');
  assert.ok(relay.includes('edge/guard.js') && relay.includes('edge/cors.js'), 'the relay is on the kit');
  assert.deepEqual(
    relay.filter((f) => f.startsWith('server/')),
    [],
  );
  for (const f of readdirSync(path.join(dist, 'edge')).filter((f) => f.endsWith('.js'))) {
    const reached = graph(`edge/${f}`).filter((g) => !g.startsWith('edge/'));
    for (const g of reached) assert.ok(KIT_CORE.has(g.replace(/\.js$/, '.ts')), `dist/edge/${f} reaches ${g}`);
  }
});
