// Issue 34 for <mcp-tool-call>, <gpt-tool-selector> and <mcp-elicitation>: each file at most 500
// lines, the parts of an element own their state (no helper module writes its element's
// underscore fields), and no static import circle is reachable from them through the elements'
// side of src (elements, internal, controllers, events; the core's own circles are its room's).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { circles, importsOf } from './import-graph.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FOLDERS = ['mcp-tool-call', 'gpt-tool-selector', 'mcp-elicitation'].map((f) =>
  path.join(root, 'src/elements', f),
);
const files = FOLDERS.flatMap((d) => readdirSync(d).map((f) => path.join(d, f))).filter((f) => f.endsWith('.ts'));
const rel = (f) => path.relative(root, f);

/** The .ts files a module imports statically, outside core (`import()` is not followed). */
const imports = (file) =>
  importsOf(file)
    .map(([t]) => t)
    .filter((t) => !t.startsWith(path.join(root, 'src/core')));

test('no file of these elements is over 500 lines', () => {
  const long = files.map((f) => [rel(f), readFileSync(f, 'utf8').split('\n').length - 1]).filter(([, n]) => n > 500);
  assert.deepEqual(long, []);
});

test("no helper module writes its element's underscore fields", () => {
  const writes = [];
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    // a write to another object's `_field` (`el._x =`, `host._x +=`, `this.#host._x =`), not `this._x`
    for (const m of text.matchAll(/(?<!\bthis)\.(_[A-Za-z]\w*)\s*(?:[-+*/]?=)(?!=)/g))
      writes.push(`${rel(f)}: ${m[0]}`);
  }
  assert.deepEqual(writes, []);
});

test('no import circle is reachable from these elements', () => {
  assert.deepEqual(circles(files, imports, rel), []);
});
