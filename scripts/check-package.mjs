// Part of `npm run check`: the package as the registry would get it. publint (package.json against
// the packed files: exports, types, files) in strict mode, so a warning fails too; then
// @arethetypeswrong/cli on the same tarball: every entry must resolve to JavaScript and types for
// ESM consumers (node16 from ESM, bundlers). The package is ESM only, so the CommonJS and node10
// resolutions are not asked for (profile esm-only). Every entry is checked, the three CDN
// files too: `./cdn` and `./cdn/all` are typed as the modules they are, `./cdn-classic` (a classic
// script) as the `McpElements` global it sets (scripts/cdn-types.mjs).
// Both need dist/: a clean clone (CI runs check before test) is built first, once (the pack skips
// the package's `prepack`, which would build again).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const bin = (p) => path.join(root, 'node_modules', p);
const run = (cmd, args, stdio = 'inherit') => spawnSync(cmd, args, { cwd: root, stdio }).status === 0;

if (!existsSync(path.join(root, 'dist/index.js')) && !run('npm', ['run', '--silent', 'build'])) process.exit(1);

const dir = mkdtempSync(path.join(tmpdir(), 'pack-check-'));
let ok;
try {
  const attw = (format) =>
    run(process.execPath, [
      bin('@arethetypeswrong/cli/dist/index.js'),
      path.join(
        dir,
        readdirSync(dir).find((f) => f.endsWith('.tgz')),
      ),
      '--profile',
      'esm-only',
      ...format,
    ]);
  ok =
    run('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', dir], 'ignore') &&
    run(process.execPath, [bin('publint/src/cli.js'), '--strict', '--pack', 'npm']) &&
    // quiet when all is well; the table of every entry and resolution when not
    (attw(['--quiet']) || attw(['--format', 'table-flipped']));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (!ok) console.error('check-package: publint or attw found a problem in the packed package (see above)');
process.exit(ok ? 0 : 1);
