// <mcp-server-manager>'s parts own their state (issue 34 item 4): no helper module of the element
// writes the element's underscore fields or imports the element back (types included), and the
// folder's modules import one another without a circle. Read from the source (type imports are
// gone from the build). Every file of the folder stays at most 500 lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { root } from './static-graph.mjs';

const dir = path.join(root, 'src/elements/mcp-server-manager');
const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
const text = (f) => readFileSync(path.join(dir, f), 'utf8');
const ELEMENT = 'mcp-server-manager.ts';
const helpers = files.filter((f) => f !== ELEMENT && f !== 'define.ts');

/** The folder's own modules a file imports (static, dynamic and type-only). */
function localImports(f) {
  const found = new Set();
  for (const m of text(f).matchAll(/(?:from\s*|import\s*\(?\s*)['"]\.\/([^'"]+)\.js['"]/g)) found.add(`${m[1]}.ts`);
  return [...found].filter((x) => files.includes(x));
}

test('no helper module writes an underscore field of another object (the element’s state)', () => {
  const writes = helpers.flatMap((f) =>
    [...text(f).matchAll(/\b\w+\._\w+\s*(?:=(?!=)|\+=|-=)/g)].map((m) => `${f}: ${m[0]}`),
  );
  assert.deepEqual(writes, []);
});

test('no helper module imports the element (no circle through it)', () => {
  assert.deepEqual(
    helpers.filter((f) => localImports(f).includes(ELEMENT)),
    [],
  );
});

test('the folder’s import graph has no circle', () => {
  const circles = [];
  const walk = (f, trail) => {
    if (trail.includes(f)) return void circles.push([...trail.slice(trail.indexOf(f)), f].join(' → '));
    for (const next of localImports(f)) walk(next, [...trail, f]);
  };
  for (const f of files) walk(f, []);
  assert.deepEqual(circles, []);
});

test('every file of the folder is at most 500 lines', () => {
  const long = files.filter((f) => text(f).split('\n').length > 500);
  assert.deepEqual(long, []);
});
