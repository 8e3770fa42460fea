// `node bench/first-load-at.mjs <commit> [<commit> …]`: the CDN entry's and the chat page's first
// load (the entry's static closure, and with <mcp-tool-call>'s chunks; gzip -9 per file, KB of
// 1,024 bytes, as bench/run.mjs counts them) at each commit, to find where the first load grew.
// Each commit is checked out in a temporary worktree that borrows this checkout's node_modules
// and built with `vite build --mode cdn` only (≈ 15 s each). Nothing in this checkout changes.
import { execFileSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const commits = process.argv.slice(2);
if (!commits.length) throw new Error('usage: node bench/first-load-at.mjs <commit> [<commit> …]');

for (const commit of commits) {
  const dir = path.join(mkdtempSync(path.join(tmpdir(), 'first-load-')), 'tree');
  execFileSync('git', ['worktree', 'add', '--detach', '-q', dir, commit], { cwd: root });
  try {
    symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
    execFileSync('npx', ['vite', 'build', '--mode', 'cdn', '--logLevel', 'error'], { cwd: dir, stdio: 'ignore' });
    const { readCdnManifest } = await import(path.join(dir, 'scripts/cdn-manifest.mjs'));
    const m = readCdnManifest(path.join(dir, 'dist/cdn'));
    const kb = (files) =>
      [...files].reduce((n, f) => n + gzipSync(readFileSync(path.join(dir, 'dist/cdn', f)), { level: 9 }).length, 0) /
      1024;
    const entry = kb(m.closure([m.entry]));
    const chat = kb(m.closure([m.entry, m.elements['mcp-tool-call']]));
    console.log(`${commit}: entry ${entry.toFixed(1)} KB, chat page ${chat.toFixed(1)} KB`);
  } finally {
    execFileSync('git', ['worktree', 'remove', '--force', dir], { cwd: root });
    rmSync(path.dirname(dir), { recursive: true, force: true });
  }
}
