// The framework typings (dist/frameworks, generated from custom-elements.json) as a developer's
// project meets them: one small project per framework type-checks a page that uses every element
// with its attributes and every event it fires (handlers read `e.detail` into a sink typed with
// exactly that event's detail), and a negative file whose every line marked `expect-error` must
// fail: a misspelled attribute, a value of the wrong type, a wrong use of an event's detail, a
// handler for another event. Each project is checked by the checker its framework uses (tsc,
// vue-tsc, svelte-check), against the built package resolved by its own name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const bin = (p) => path.join(root, 'node_modules', p);
const manifest = JSON.parse(readFileSync(path.join(root, 'custom-elements.json'), 'utf8'));
const elements = manifest.modules.flatMap((m) => (m.declarations ?? []).filter((d) => d.customElement));

/** `file(line,col): error TS…` (tsc, vue-tsc) as {file, line, message}. */
const tscErrors = (out, dir) =>
  [...out.matchAll(/^(.+?)\((\d+),\d+\): error (TS\d+: .*)$/gm)].map((m) => ({
    file: path.relative(dir, path.resolve(root, m[1])),
    line: Number(m[2]),
    message: m[3],
  }));
/** svelte-check's machine output: `<time> ERROR "file" line:col "message"`. */
const svelteErrors = (out) =>
  [...out.matchAll(/^\d+ ERROR "(.+?)" (\d+):\d+ "(.*)"$/gm)].map((m) => ({
    file: m[1],
    line: Number(m[2]),
    message: m[3],
  }));

const tsc = (dir) => [process.execPath, [bin('typescript/bin/tsc'), '-p', `${dir}/tsconfig.json`, '--pretty', 'false']];
const frameworks = [
  { name: 'React 19', dir: 'react', page: 'page.tsx', bad: 'bad.tsx', run: tsc, parse: tscErrors, on: 'on' },
  { name: 'Preact', dir: 'preact', page: 'page.tsx', bad: 'bad.tsx', run: tsc, parse: tscErrors, on: 'on' },
  { name: 'Solid', dir: 'solid', page: 'page.tsx', bad: 'bad.tsx', run: tsc, parse: tscErrors, on: 'on:' },
  {
    name: 'Vue',
    dir: 'vue',
    page: 'Page.vue',
    bad: 'Bad.vue',
    run: (dir) => [
      process.execPath,
      [bin('vue-tsc/bin/vue-tsc.js'), '-p', `${dir}/tsconfig.json`, '--pretty', 'false'],
    ],
    parse: tscErrors,
    on: '@',
  },
  {
    name: 'Svelte 5',
    dir: 'svelte',
    page: 'Page.svelte',
    bad: 'Bad.svelte',
    run: (dir) => [
      process.execPath,
      [bin('svelte-check/bin/svelte-check'), '--workspace', dir, '--tsconfig', 'tsconfig.json', '--output', 'machine'],
    ],
    parse: svelteErrors,
    on: 'on',
  },
];

function check(fw) {
  const dir = path.join(root, 'test/frameworks', fw.dir);
  const [cmd, args] = fw.run(dir);
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd: root, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) =>
      resolve({
        code: err ? (err.code ?? 1) : 0,
        out: `${stdout}\n${stderr}`,
        errors: fw.parse(`${stdout}\n${stderr}`, dir),
      }),
    );
  });
}

for (const fw of frameworks) {
  const dir = path.join(root, 'test/frameworks', fw.dir);
  const page = readFileSync(path.join(dir, fw.page), 'utf8');
  const badLines = readFileSync(path.join(dir, fw.bad), 'utf8').split('\n');
  const expected = badLines
    .map((text, i) => ({ line: i + 1, why: /expect-error: (.*?)\s*(?:-->)?$/.exec(text)?.[1] }))
    .filter((x) => x.why);
  let result;
  const run = async () => (result ??= await check(fw));

  test(`${fw.name}: the page names every element and every event it fires`, () => {
    for (const el of elements) {
      assert.ok(page.includes(`<${el.tagName}`), `${fw.page} has no <${el.tagName}>`);
      for (const ev of el.events ?? [])
        assert.ok(page.includes(`${fw.on}${ev.name}=`), `${fw.page}: <${el.tagName}> does not listen to ${ev.name}`);
    }
  });

  test(`${fw.name}: the page using every element and event type-checks`, async () => {
    const r = await run();
    const onPage = r.errors.filter((e) => e.file === fw.page || e.file.startsWith('..'));
    assert.deepEqual(onPage, [], r.out);
  });

  for (const x of expected)
    test(`${fw.name}: rejects ${x.why} (${fw.bad}:${x.line})`, async () => {
      const r = await run();
      const here = r.errors.filter((e) => e.file === fw.bad && e.line === x.line);
      assert.ok(here.length > 0, `${fw.bad}:${x.line} type-checks, but must not: ${badLines[x.line - 1].trim()}`);
    });

  test(`${fw.name}: the negative file fails only where it says`, async () => {
    const r = await run();
    const marked = new Set(expected.map((x) => x.line));
    const stray = r.errors.filter((e) => e.file === fw.bad && !marked.has(e.line));
    assert.deepEqual(stray, []);
    assert.ok(expected.length >= 5, `${fw.bad} marks ${expected.length} lines`);
  });
}
