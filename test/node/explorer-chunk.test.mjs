// <mcp-tool-explorer>'s own chunk in the CDN build is at most 8 KB gzip (issue 34 item 6; bench/run.mjs
// measures the same way): the selected tool's panel with its "Try it" form and each tab but Tools
// are chunks it imports dynamically, never statically, and no chunk of lit's own appears (the tabs
// hand their panel over through the element class: docs/decisions/099-explorer-parts.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

import { readCdnManifest } from '../../scripts/cdn-manifest.mjs';
import { root } from './static-graph.mjs';

const cdn = path.join(root, 'dist/cdn');
const gzip = (f) => zlib.gzipSync(readFileSync(path.join(cdn, f)), { level: 9 }).length;
const DIR = 'src/elements/mcp-tool-explorer';

test('CDN: the explorer chunk is at most 8 KB gzip; its panel and tabs are dynamic imports', () => {
  const m = readCdnManifest(cdn);
  const own = m.elements['mcp-tool-explorer'];
  const size = gzip(own);
  assert.ok(size <= 8 * 1024, `the explorer chunk is ${size} B gzip`);
  for (const mod of ['tool-detail.ts', 'resources-prompts.ts', 'skills-panel.ts', 'log-panel.ts']) {
    const chunk = m.modules[`${DIR}/${mod}`];
    assert.ok(chunk && chunk !== own, `${mod} is a chunk of its own`);
    assert.ok(!m.closure([own]).has(chunk), `${mod} is not imported statically`);
    assert.ok(
      [...m.closure([own])].some((f) => m.chunks[f].dynamicImports.includes(chunk)),
      `${mod} is imported dynamically`,
    );
  }
  // the "Try it" form is defined by the tool's panel's chunk, not on the first load
  // the minified `define('mcp-schema-form', McpSchemaForm)`
  const defines = (f) => /\(`mcp-schema-form`,[\w$]+\)/.test(readFileSync(path.join(cdn, f), 'utf8'));
  assert.ok(defines(m.modules[`${DIR}/tool-detail.ts`]), 'the form comes with the tool panel');
  assert.ok(!defines(own), 'the form is in the explorer chunk');
  assert.deepEqual(
    Object.keys(m.chunks).filter((f) => /^chunks\/lit-/.test(f)),
    [],
    'lit is split into a chunk of its own',
  );
});
