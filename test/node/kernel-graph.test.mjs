// The runtime line through core (issue 34 item 1), checked on the npm build: the backend's and
// the relay's entries reach no module only a page has. The backend builds the kernel
// (core/kernel.js); the page shell (core/shell/page-shell.js) is reached only from the page's
// `McpHub` (core/hub.js, core/index.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist');

/** Modules only a page has (IndexedDB, tab sync, page lifecycle and journal, Web Locks, popup and callback, the shell). */
const PAGE_ONLY = [
  'core/persistence/idb-storage.js',
  'core/persistence/sync.js',
  'core/persistence/page-lifecycle.js',
  'core/persistence/journal.js',
  'core/persistence/approval-restore.js',
  'core/auth/popup.js',
  'core/auth/callback.js',
  'core/shell/page-shell.js',
  'core/hub.js',
  'core/index.js',
];
/** Packages only a page's modules use. */
const PAGE_PACKAGES = ['idb-keyval'];

/**
 * Every dist file reached from `entry` (dist-relative) and the packages imported on the way;
 * `dynamic`: `import('…')` too. Each file maps to the file it was first reached from.
 */
function graph(entry, { dynamic = false } = {}) {
  const pattern = dynamic
    ? /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g
    : /(?:^|[;\n}])\s*(?:import|export)\s*(?:[^'"()]*?\sfrom\s*)?['"]([^'"]+)['"]/g;
  const files = new Map();
  const packages = new Set();
  const visit = (file, from) => {
    if (files.has(file)) return;
    files.set(file, from);
    for (const m of readFileSync(path.join(dist, file), 'utf8').matchAll(pattern))
      if (m[1].startsWith('.'))
        visit(path.relative(dist, path.resolve(path.dirname(path.join(dist, file)), m[1])), file);
      else packages.add(m[1]);
  };
  visit(entry, null);
  return { files, packages };
}

/** `file <- importer <- … <- entry`, to say how a page module was reached. */
const chain = (files, file) => {
  const steps = [];
  for (let f = file; f; f = files.get(f)) steps.push(f);
  return steps.join(' <- ');
};

test('built: the page-only modules exist and the page entry reaches them (the list is not stale)', () => {
  assert.ok(existsSync(path.join(dist, 'core/kernel.js')), 'needs a build (npm run build)');
  const page = graph('core/index.js');
  for (const f of PAGE_ONLY) assert.ok(page.files.has(f), `the page entry reaches ${f}`);
  assert.ok(page.packages.has('idb-keyval'));
});

for (const entry of ['server/index.js', 'relay/index.js', 'core/kernel.js']) {
  test(`built: ${entry} reaches no page-only module through static imports`, () => {
    const { files, packages } = graph(entry);
    const reached = PAGE_ONLY.filter((f) => files.has(f)).map((f) => chain(files, f));
    assert.deepEqual(reached, []);
    assert.deepEqual(
      PAGE_PACKAGES.filter((p) => packages.has(p)),
      [],
    );
  });
}

test('built: the backend builds the kernel, with the kernel storage and its restore', () => {
  const { files } = graph('server/index.js');
  for (const f of [
    'core/kernel.js',
    'core/persistence/storage.js',
    'core/persistence/load.js',
    'core/calls/restore.js',
  ])
    assert.ok(files.has(f), `the backend reaches ${f}`);
});

test('built: loaded on demand too (sign-in for OAuth and machine credentials, the session code), the backend reaches no page-only module', () => {
  const { files, packages } = graph('server/index.js', { dynamic: true });
  assert.ok(files.has('core/auth/sign-ins.js') && files.has('core/auth/machine.js'), 'the walk follows import()');
  const reached = PAGE_ONLY.filter((f) => files.has(f)).map((f) => chain(files, f));
  assert.deepEqual(reached, []);
  assert.deepEqual(
    PAGE_PACKAGES.filter((p) => packages.has(p)),
    [],
  );
});
