// The README's install path from a fresh clone: `npm pack` in a copy of the repository that was
// never built (the files git would check out, node_modules beside them as `npm ci` leaves it, no
// dist/), then `npm install <tarball>` into an empty folder (the rest from the npm cache:
// --prefer-offline). The package's `prepack` must build it: without it the tarball held no code
// and no types, and `import … from 'mcp-chat-elements/react'` failed to type-check.
// What the install gives is checked as a consumer meets it: the code runs in Node, TypeScript
// finds the types of the main, core, React and CDN entries, every framework entry and the CLI resolve.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const work = mkdtempSync(path.join(tmpdir(), 'fresh-clone-'));
const clone = path.join(work, 'clone');
const app = path.join(work, 'app');

/** Run a command; resolve with its output, reject with it when the command fails. */
const sh = (cmd, args, cwd) =>
  new Promise((resolve, reject) =>
    execFile(
      cmd,
      args,
      {
        cwd,
        maxBuffer: 32 * 1024 * 1024,
        env: { ...process.env, npm_config_fund: 'false', npm_config_audit: 'false' },
      },
      (err, out, errOut) =>
        err ? reject(new Error(`${cmd} ${args.join(' ')} failed:\n${out}\n${errOut}`)) : resolve(`${out}${errOut}`),
    ),
  );

before(async () => {
  // the work tree as git would check it out (tracked and new files, nothing ignored: no dist/)
  const files = execFileSync('git', ['ls-files', '-z', '-co', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f && existsSync(path.join(root, f)));
  for (const f of files) {
    mkdirSync(path.dirname(path.join(clone, f)), { recursive: true });
    copyFileSync(path.join(root, f), path.join(clone, f));
  }
  symlinkSync(path.join(root, 'node_modules'), path.join(clone, 'node_modules'), 'dir');
  assert.ok(!existsSync(path.join(clone, 'dist')), 'the copy starts unbuilt');
  await sh('npm', ['pack', '--silent', '--pack-destination', work], clone);
  const tarball = path.join(
    work,
    readdirSync(work).find((f) => f.endsWith('.tgz')),
  );
  mkdirSync(app);
  writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'fresh-app', private: true, type: 'module' }));
  await sh(
    'npm',
    [
      'install',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      tarball,
      `@types/react@${pkg.devDependencies['@types/react']}`,
    ],
    app,
  );
});
after(() => rmSync(work, { recursive: true, force: true }));

test('fresh clone → npm pack → npm install: the code runs in Node', async () => {
  const out = await sh(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const core = await import('${pkg.name}/core');
       const relay = await import('${pkg.name}/relay/node');
       console.log(JSON.stringify({ core: typeof core.McpHub, relay: Object.keys(relay).length }));`,
    ],
    app,
  );
  const r = JSON.parse(out.trim().split('\n').at(-1));
  assert.equal(r.core, 'function', 'mcp-chat-elements/core exports McpHub');
  assert.ok(r.relay > 0, 'mcp-chat-elements/relay/node exports something');
});

test('fresh clone → npm pack → npm install: TypeScript finds the types of the main, core, React and CDN entries', async () => {
  writeFileSync(
    path.join(app, 'check.tsx'),
    `import { getHub } from '${pkg.name}';
import type { McpHub } from '${pkg.name}/core';
import type { CustomElements } from '${pkg.name}/react';
import { getHub as cdnHub } from '${pkg.name}/cdn';
import { loadElements } from '${pkg.name}/cdn/all';
import type {} from '${pkg.name}/cdn-classic';
const hub: McpHub = getHub();
const card = <mcp-tool-call call-id="x"></mcp-tool-call>;
// the classic script's global, as its types declare it
const classic: McpHub = globalThis.McpElements.getHub();
export const used: [McpHub, unknown, keyof CustomElements, McpHub, typeof loadElements, McpHub] = [
  hub, card, 'mcp-tool-call', cdnHub(), loadElements, classic,
];
`,
  );
  writeFileSync(
    path.join(app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'es2022',
        module: 'esnext',
        moduleResolution: 'bundler',
        jsx: 'react-jsx',
        lib: ['es2022', 'dom', 'dom.iterable'],
        types: [],
        // as a Vite or Next template sets it: the SDK's own .d.mts want @types/node
        skipLibCheck: true,
      },
      files: ['check.tsx'],
    }),
  );
  await sh(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], app);
});

test('fresh clone → npm pack → npm install: every framework entry, the CDN files and the CLI are there', async () => {
  const installed = path.join(app, 'node_modules', pkg.name);
  for (const [entry, target] of Object.entries(pkg.exports)) {
    if (entry.includes('*')) continue;
    const files = typeof target === 'string' ? [target] : Object.values(target);
    for (const f of files) assert.ok(existsSync(path.join(installed, f)), `${entry}: ${f} is installed`);
  }
  for (const fw of ['jsx', 'react', 'preact', 'vue', 'svelte', 'solid'])
    await sh(process.execPath, ['--input-type=module', '-e', `await import('${pkg.name}/${fw}');`], app);
  const help = await sh(path.join(app, 'node_modules/.bin', pkg.name), ['--help'], app);
  assert.match(help, /relay/, 'the CLI answers --help');
});
