// docs/API.md is the contract written from the code: every hub method and property, every
// registry method, every event and every element must be in it, so a new one cannot land
// undocumented. (It checks names, not prose.)
import 'fake-indexeddb/auto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const api = readFileSync(path.join(root, 'docs/API.md'), 'utf8');
const core = await import(path.join(root, 'dist/core/index.js'));

test('docs/API.md names every public member of the hub and its registries', async () => {
  const hub = new core.McpHub({ storeName: 'api-doc', broadcast: false, eventTarget: null });
  await hub.ready;
  // McpHub's own members and the kernel's it inherits (core/kernel.ts)
  const own = [core.McpHub.prototype, core.HubKernel.prototype]
    .flatMap((p) => Object.getOwnPropertyNames(p))
    .filter((n) => n !== 'constructor');
  assert.ok(own.includes('callTool') && own.includes('connect'), 'the kernel’s members are read');
  const fields = Object.keys(hub);
  const missing = [...own, ...fields].filter((n) => !api.includes(`\`${n}`));
  for (const registry of ['servers', 'assistants', 'calls'])
    for (const n of Object.keys(hub[registry])) if (!api.includes(`\`${n}(`)) missing.push(`${registry}.${n}`);
  await hub.dispose();
  assert.deepEqual(missing, []);
});

test('docs/API.md names every event and its class, and every element', () => {
  const events = Object.values(core).filter((v) => typeof v === 'function' && typeof v.eventName === 'string');
  assert.ok(events.length >= 17, 'the event classes are exported');
  const missing = events.flatMap((e) => [e.eventName, e.name].filter((n) => !api.includes(`\`${n}\``)));
  assert.deepEqual(missing, []);
  const manifest = JSON.parse(readFileSync(path.join(root, 'custom-elements.json'), 'utf8'));
  const tags = manifest.modules.flatMap((m) => m.declarations ?? []).filter((d) => d.customElement);
  assert.equal(tags.length, 8);
  for (const d of tags) {
    assert.ok(api.includes(`\`<${d.tagName}>\``), d.tagName);
    for (const a of d.attributes ?? []) assert.ok(api.includes(`\`${a.name}\``), `${d.tagName} ${a.name}`);
  }
});

test('the docs point inside the repository for the contract', () => {
  // README.md and every page under docs/ (guides, generated element pages), not the helpers'
  // working notes (docs/notes/, folded into ARCHITECTURE.md at merge)
  const docs = readdirSync(path.join(root, 'docs'), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.md') && !f.startsWith('notes/') && !f.includes('node_modules'))
    .map((f) => `docs/${f}`);
  assert.ok(docs.length >= 10, 'the docs pages are found');
  for (const file of ['README.md', ...docs]) {
    const text = readFileSync(path.join(root, file), 'utf8');
    assert.doesNotMatch(text, /DESIGN\.md|\/work\//, file);
  }
  assert.match(readFileSync(path.join(root, 'docs/ARCHITECTURE.md'), 'utf8'), /\[API\.md\]\(API\.md\)/);
});
