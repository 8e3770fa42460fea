// The directory (<mcp-server-directory> and the registry client, src/core/registry) is not on the
// first load of a page that never opens it: a chunk of its own in the CDN build, imported by the
// manager's "Find servers" (or its tag), at most 8 KB gzip; its add form is a further chunk.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

import { readCdnManifest } from '../../scripts/cdn-manifest.mjs';
import { root } from './static-graph.mjs';

const cdn = path.join(root, 'dist/cdn');
const gzip = (f) => zlib.gzipSync(readFileSync(path.join(cdn, f)), { level: 9 }).length;
// the registry client's own text: the API path it asks
const hasRegistry = (f) => readFileSync(path.join(cdn, f), 'utf8').includes('/v0.1/servers');

test('CDN: the directory chunk holds the registry client; no chunk of a page that never opens it does', () => {
  const m = readCdnManifest(cdn);
  const dir = m.elements['mcp-server-directory'];
  assert.ok(dir, 'the directory is an element chunk');
  assert.ok(hasRegistry(dir), 'the registry client is in the directory chunk');
  const others = Object.entries(m.elements).filter(([tag]) => tag !== 'mcp-server-directory');
  const firstLoad = m.closure([m.entry, ...others.map(([, f]) => f)]);
  assert.ok(!firstLoad.has(dir), 'the directory chunk is on the first load of the other elements');
  assert.deepEqual([...firstLoad].filter(hasRegistry), [], 'a first-load chunk carries the registry client');
  const manager = m.closure([m.elements['mcp-server-manager']]);
  assert.ok(
    [...manager].some((f) => m.chunks[f].dynamicImports.includes(dir)),
    'the manager imports it dynamically',
  );
  // searching fetches neither sign-in nor the SDK (they share a helper with the registry client)
  const fetched = [...m.closure([dir])].filter((f) => /^chunks\/(auth|connect)-/.test(f));
  assert.deepEqual(fetched, [], 'the directory brings the sign-in or connection chunk');
});

test('CDN: the directory chunk is at most 8 KB gzip; its add form is a chunk it imports dynamically', () => {
  const m = readCdnManifest(cdn);
  const dir = m.elements['mcp-server-directory'];
  const size = gzip(dir);
  assert.ok(size <= 8 * 1024, `the directory chunk is ${size} B gzip`);
  const panel = m.modules['src/elements/mcp-server-directory/add-panel.ts'];
  assert.ok(panel, 'the add panel is a chunk of its own');
  assert.ok(m.chunks[dir].dynamicImports.includes(panel), 'imported dynamically');
  assert.ok(!m.closure([dir]).has(panel), 'and not statically');
});
