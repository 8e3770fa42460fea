// The docs keep their shape: docs/ARCHITECTURE.md stays a short map (at most 400 lines) in which
// every folder and file of src/ can be found, and docs/decisions/README.md indexes exactly the
// decision files there are, each named NNN-topic.md (docs/decisions/README.md, "Naming").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file) => readFileSync(path.join(root, file), 'utf8');

/** Every path under `dir` (relative to it, `/`-separated), folders and files apart. */
function walk(dir, sub = '', out = { dirs: [], files: [] }) {
  for (const entry of readdirSync(path.join(dir, sub), { withFileTypes: true })) {
    const rel = sub ? `${sub}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      out.dirs.push(rel);
      walk(dir, rel, out);
    } else out.files.push(rel);
  }
  return out;
}

/** The folders of src/ the architecture map does not name (as `` `core/session/` `` or `` `src/core/session/` ``). */
export function unnamedFolders(architecture, dirs) {
  return dirs.filter((d) => !architecture.includes(`\`${d}/`) && !architecture.includes(`\`src/${d}/`));
}

/**
 * The files of src/ the map gives no way to find: a file is found by its name in code (`` `hub.ts` ``),
 * by a pattern in code that matches it (`` `schema-form*.ts` ``), or by a map line saying its
 * folder holds "one file per" something (src/events).
 */
export function unfoundFiles(architecture, files) {
  const codes = [...architecture.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]);
  const names = new Set(codes.map((c) => c.split('/').pop()));
  const patterns = codes
    .filter((c) => c.includes('*') && /\.\w+$/.test(c))
    .map(
      (c) =>
        new RegExp(
          `^${c
            .split('/')
            .pop()
            .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
            .replace(/\*/g, '[^/]*')}$`,
        ),
    );
  const perFileDirs = [...architecture.matchAll(/`(?:src\/)?([\w/-]+)\/` — one file per/g)].map((m) => m[1]);
  return files.filter((f) => {
    const name = f.split('/').pop();
    if (names.has(name) || patterns.some((p) => p.test(name))) return false;
    return !perFileDirs.includes(path.posix.dirname(f));
  });
}

/** What is wrong between the decisions folder and its index: files not indexed, links to no file, bad names. */
export function decisionIndexProblems(index, files) {
  const decisions = files.filter((f) => f !== 'README.md');
  const linked = [...index.matchAll(/\]\(([^)#\s]+\.md)\)/g)].map((m) => m[1]).filter((l) => !l.includes('/'));
  const problems = [];
  for (const f of decisions) if (!linked.includes(f)) problems.push(`${f} is not listed in docs/decisions/README.md`);
  for (const l of linked) if (!decisions.includes(l)) problems.push(`README.md lists ${l}, which does not exist`);
  for (const f of decisions)
    if (!/^\d{3}-[a-z0-9]+(-[a-z0-9]+)*\.md$/.test(f)) problems.push(`${f} is not named NNN-topic.md`);
  const numbers = decisions.map((f) => f.slice(0, 3));
  for (const n of new Set(numbers))
    if (numbers.filter((x) => x === n).length > 1) problems.push(`number ${n} is used twice`);
  return problems;
}

const architecture = read('docs/ARCHITECTURE.md');
const src = walk(path.join(root, 'src'));

test('docs/ARCHITECTURE.md is a map, not a notebook: at most 400 lines', () => {
  const lines = architecture.split('\n').length - (architecture.endsWith('\n') ? 1 : 0);
  assert.ok(lines <= 400, `docs/ARCHITECTURE.md has ${lines} lines (at most 400: move detail to docs/decisions/)`);
});

test('every folder under src/ is named in docs/ARCHITECTURE.md', () => {
  assert.ok(src.dirs.length >= 20, 'the folders of src/ are found');
  assert.deepEqual(unnamedFolders(architecture, src.dirs), []);
});

test('every file under src/ can be found in docs/ARCHITECTURE.md', () => {
  assert.ok(src.files.length >= 200, 'the files of src/ are found');
  assert.deepEqual(unfoundFiles(architecture, src.files), []);
});

test('docs/decisions/README.md lists every decision file and no missing one; each is named NNN-topic.md', () => {
  const files = readdirSync(path.join(root, 'docs/decisions'));
  assert.ok(files.length >= 30, 'the decision files are found');
  assert.deepEqual(decisionIndexProblems(read('docs/decisions/README.md'), files), []);
});

test('the checks themselves catch what they are for', () => {
  // a folder not in the map, a file not in it, an unindexed file, a dead line, a bad name, a number twice
  assert.deepEqual(unnamedFolders('`core/` and `src/relay/node/`', ['core', 'relay/node', 'edge']), ['edge']);
  assert.deepEqual(
    unfoundFiles('`hub.ts`, `schema-form*.ts`, `mcp-*`; `events/` — one file per event', [
      'core/hub.ts',
      'core/mcp-kernel.ts',
      'internal/schema-form.styles.ts',
      'events/x.ts',
      'core/kernel.ts',
    ]),
    ['core/mcp-kernel.ts', 'core/kernel.ts'],
  );
  assert.deepEqual(
    decisionIndexProblems('- [001](001-a.md)\n- [002](002-b.md)\n', ['README.md', '001-a.md', '003-c.md']),
    ['003-c.md is not listed in docs/decisions/README.md', 'README.md lists 002-b.md, which does not exist'],
  );
  assert.deepEqual(
    decisionIndexProblems('[x](new-x.md) [y](001-y.md) [z](001-z.md)', ['new-x.md', '001-y.md', '001-z.md']),
    ['new-x.md is not named NNN-topic.md', 'number 001 is used twice'],
  );
});
