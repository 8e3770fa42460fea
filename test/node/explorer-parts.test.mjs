// <mcp-tool-explorer>'s parts own their state (issue 34 item 4): no module of the explorer writes or
// reads the element's underscore fields (`el._…`), and no import circle runs through its folder,
// counting type-only and dynamic imports (docs/decisions/099-explorer-parts.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { root } from './static-graph.mjs';

const DIR = path.join(root, 'src/elements/mcp-tool-explorer');
const IMPORT = /(?:import|export)\s[^;]*?from\s+'([^']+)'|import\s+'([^']+)'|import\('([^']+)'\)/g;

/** The relative imports of a source module (static, type-only and dynamic), as files. */
function importsOf(file) {
  const out = [];
  for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (!spec.startsWith('.')) continue;
    const target = path.resolve(path.dirname(file), spec).replace(/\.js$/, '.ts');
    if (existsSync(target)) out.push(target);
  }
  return out;
}

test('no explorer part uses the element’s underscore fields', () => {
  const uses = readdirSync(DIR)
    .filter((f) => f.endsWith('.ts') && f !== 'mcp-tool-explorer.ts')
    .flatMap((f) =>
      readFileSync(path.join(DIR, f), 'utf8')
        .split('\n')
        .map((line, i) => [f, i + 1, line])
        .filter(([, , line]) => /\b(el|host|h)\._[a-zA-Z]/.test(line)),
    );
  assert.deepEqual(uses, []);
});

test('no import circle through the explorer’s folder (type-only and dynamic imports count)', () => {
  const circles = [];
  const walk = (file, stack) => {
    for (const next of importsOf(file)) {
      const at = stack.indexOf(next);
      if (at >= 0) circles.push([...stack.slice(at), next].map((f) => path.relative(DIR, f)).join(' → '));
      else if (stack.length < 40 && next.startsWith(DIR)) walk(next, [...stack, next]);
    }
  };
  for (const f of readdirSync(DIR).filter((f) => f.endsWith('.ts'))) walk(path.join(DIR, f), [path.join(DIR, f)]);
  assert.deepEqual([...new Set(circles)], []);
});
