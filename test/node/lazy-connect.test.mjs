// The connection code (the SDK, classic zod, src/core/session) is not on the first load: the hub
// imports it the first time it opens a session (src/core/connections/session-loader.ts). Checked
// on the npm build (dist/core, one file per module) and on the CDN build's chunks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { readCdnManifest } from '../../scripts/cdn-manifest.mjs';
import { dist, root, staticGraph } from './static-graph.mjs';

test('the core imports neither the SDK nor classic zod statically; the loader imports the session dynamically', () => {
  const graph = staticGraph('index.js');
  assert.ok(graph.has('hub.js') && graph.has('connections/session-loader.js'), 'the walk follows the imports');
  for (const lazy of ['session/index.js', 'session/sdk.js', 'session/jsonrpc.js'])
    assert.ok(!graph.has(lazy), `${lazy} is imported statically`);
  for (const [file, bare] of graph) {
    for (const spec of bare) {
      assert.ok(!spec.startsWith('@modelcontextprotocol/'), `${file} imports ${spec}`);
      assert.ok(spec !== 'zod' && spec !== 'zod/v4', `${file} imports classic zod (${spec})`);
    }
  }
  const loader = readFileSync(path.join(dist, 'connections/session-loader.js'), 'utf8');
  assert.match(loader, /import\(['"]\.\.\/session\/index\.js['"]\)/);
});

test('CDN: a chat page (entry + <mcp-tool-call>) does not fetch the connection chunk; the core chunk has no SDK in it', () => {
  const cdn = path.join(root, 'dist/cdn');
  const m = readCdnManifest(cdn);
  const { closure } = m;
  const connect = Object.keys(m.chunks).find((f) => f.startsWith('chunks/connect-'));
  assert.ok(connect, 'the build has a connection chunk');
  const chat = closure([m.entry, m.elements['mcp-tool-call']]);
  assert.ok(!chat.has(connect), 'the chat page fetches the connection chunk');
  const core = [...closure([m.entry])].find((f) => f.startsWith('chunks/core-'));
  assert.ok(core && m.chunks[core].dynamicImports.includes(connect), 'the core imports it dynamically');
  // `server/discover` is the SDK's 2026-07-28 handshake: in the SDK's code, never in ours
  assert.ok(!readFileSync(path.join(cdn, core), 'utf8').includes('server/discover'), 'the SDK is in the core chunk');
  assert.ok(readFileSync(path.join(cdn, connect), 'utf8').includes('server/discover'));
});

test('CDN: the parts fetched on first use are dynamic imports only (the server form, the answer views)', () => {
  const m = readCdnManifest(path.join(root, 'dist/cdn'));
  const firstLoad = m.closure([m.entry, ...Object.values(m.elements)]);
  for (const [module, importer] of [
    ['src/elements/mcp-server-manager/form.ts', m.elements['mcp-server-manager']],
    ['src/internal/answer-views-define.ts', m.elements['mcp-tool-call']],
  ]) {
    const chunk = m.modules[module];
    assert.ok(chunk, `${module} is a chunk of its own`);
    assert.ok(!firstLoad.has(chunk), `${chunk} is on the first load of the elements`);
    const dynamic = [...m.closure([importer])].some((f) => m.chunks[f].dynamicImports.includes(chunk));
    assert.ok(dynamic, `${module} is imported dynamically`);
  }
});

test('the schema validator (@cfworker/json-schema) is imported dynamically: not on any first load, with the connection chunk', () => {
  // npm build: no module the core reaches statically imports it
  for (const [file, bare] of staticGraph('index.js'))
    assert.ok(!bare.includes('@cfworker/json-schema'), `${file} imports the validator statically`);
  const m = readCdnManifest(path.join(root, 'dist/cdn'));
  const validator = Object.keys(m.chunks).find((f) => f.startsWith('chunks/validator-'));
  assert.ok(validator, 'the CDN build has a validator chunk');
  assert.ok(
    !m.closure([m.entry, ...Object.values(m.elements)]).has(validator),
    'it is on the first load of the elements',
  );
  const connect = Object.keys(m.chunks).find((f) => f.startsWith('chunks/connect-'));
  assert.ok(m.closure([connect]).has(validator), 'the connection chunk does not bring it');
});

test('CDN: the G4F drop-in is not on the first load: a chunk of its own, imported by McpElements.g4f.install()', () => {
  const cdn = path.join(root, 'dist/cdn');
  const m = readCdnManifest(cdn);
  // G4F's storage key is the drop-in's own text (src/g4f/legacy.ts)
  const has = (f) => readFileSync(path.join(cdn, f), 'utf8').includes('mcp_selected_tools');
  const first = [...m.closure([m.entry, m.elements['mcp-tool-call']])];
  assert.deepEqual(first.filter(has), [], 'the entry or the card carries the drop-in');
  const chunk = Object.keys(m.chunks).filter(has);
  assert.equal(chunk.length, 1, `one chunk holds it: ${chunk.join(', ')}`);
  assert.ok(
    Object.values(m.chunks).some((c) => c.dynamicImports.includes(chunk[0])),
    'it is imported dynamically',
  );
  // the one-file builds keep it inside (G4F's tag loads the classic one): install() is synchronous there
  for (const one of ['mcp-elements.all.js', 'mcp-elements.classic.js']) assert.ok(has(one), one);
});
