// The house keeps its plan (issue 34), over all of src/: no file over 500 lines; no import circle
// (static imports, `import type` included, dynamic `import()` not followed: a chunk loaded later
// is no circle at load time); no element part writes another object's underscore fields; no code
// comment carries a measured figure (µs, KB): comments point to a decision file instead
// (docs/decisions/README.md). The one exemption: a type-only import of `core/types.ts`, the hub
// state's aggregate type that every part's records make up and every part reads (decision 094).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { circles as circlesBy, importsOf } from './import-graph.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const src = path.join(root, 'src');
const rel = (f) => path.relative(src, f);

/** Every .ts file under `dir`. */
function tsFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return tsFiles(p);
    return e.name.endsWith('.ts') ? [p] : [];
  });
}

const circles = (files, next) => circlesBy(files, next, rel);
const imports = importsOf;
const EXEMPT_TYPE_TARGET = path.join(src, 'core/types.ts');

const files = tsFiles(src);
const edges = new Map(
  files.map((f) => [
    f,
    imports(f)
      .filter(([t, typeOnly]) => !(typeOnly && t === EXEMPT_TYPE_TARGET))
      .map(([t]) => t),
  ]),
);

test('no src file is over 500 lines', () => {
  const long = files.map((f) => [rel(f), readFileSync(f, 'utf8').split('\n').length - 1]).filter(([, n]) => n > 500);
  assert.deepEqual(long, []);
});

test('no import circle anywhere in src (type imports included)', () => {
  assert.deepEqual(
    circles(files, (f) => edges.get(f) ?? []),
    [],
  );
});

test("no element part writes another object's underscore fields", () => {
  const writes = [];
  for (const f of files.filter((x) => x.startsWith(path.join(src, 'elements')))) {
    const text = readFileSync(f, 'utf8');
    for (const m of text.matchAll(/(?<!\bthis)\.(_[A-Za-z]\w*)\s*(?:[-+*/]?=)(?!=)/g))
      writes.push(`${rel(f)}: ${m[0]}`);
  }
  assert.deepEqual(writes, []);
});

test('no code comment carries a measured figure (µs, KB): it points to a decision instead', () => {
  const figures = [];
  for (const f of files) {
    readFileSync(f, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        const comment = /(?:\/\/|\/\*|^\s*\*)(.*)$/.exec(line)?.[1];
        if (comment && /\d\s?(?:µs|KB)\b/.test(comment)) figures.push(`${rel(f)}:${i + 1}: ${line.trim()}`);
      });
  }
  assert.deepEqual(figures, []);
});

test('the checks catch what they are for', () => {
  const a = path.join(src, 'a.ts');
  const b = path.join(src, 'b.ts');
  assert.deepEqual(
    circles([a, b], (f) => (f === a ? [b] : [a])),
    ['a.ts → b.ts → a.ts'],
  );
  const found = imports(
    path.join(src, 'core/hub.ts'),
    "import type { X } from './types.js';\nimport { y } from './store.js';",
  );
  assert.deepEqual(
    found.map(([t, typeOnly]) => [rel(t), typeOnly]),
    [
      ['core/types.ts', true],
      ['core/store.ts', false],
    ],
  );
});
