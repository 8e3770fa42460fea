// The CDN URLs the docs give (the G4F guide's one tag, the module entry in the guide and the
// README) must name this package (package.json's `name`), a version range the current version is
// in, and a file that is in the packed tarball: a renamed package or a moved build file would
// otherwise leave a documented tag pointing at nothing once published. `npm pack --dry-run`
// lists the tarball without writing it (dist/ must be built: `npm run build`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const read = (f) => readFileSync(path.join(root, f), 'utf8');

/** Every npm-CDN URL in `text`: `{ name, range, file }`. */
function cdnUrls(text) {
  const out = [];
  const re =
    /https:\/\/(?:cdn\.jsdelivr\.net\/npm|unpkg\.com)\/((?:@[\w.-]+\/)?[\w.-]+)@([^/\s"'<>]+)\/([^\s"'<>)`]+)/g;
  for (const m of text.matchAll(re)) out.push({ url: m[0], name: m[1], range: m[2], file: m[3] });
  return out;
}

function packedFiles() {
  return new Promise((resolve, reject) =>
    execFile(
      'npm',
      ['pack', '--dry-run', '--ignore-scripts', '--json'],
      { cwd: root, maxBuffer: 32 * 1024 * 1024 },
      (err, out) => (err ? reject(err) : resolve(new Set(JSON.parse(out)[0].files.map((f) => f.path)))),
    ),
  );
}

/** `0.1` and `0.1.0` cover 0.1.0; `<version>` is a placeholder the reader fills in. */
const covers = (range, version) =>
  range === '<version>' || range === version || version.startsWith(`${range.replace(/^[\^~]/, '')}.`);

test('the CDN URLs in the G4F guide and the README name this package and files in its tarball', async () => {
  const files = await packedFiles();
  const entry = pkg.exports['./cdn'].default.replace(/^\.\//, '');
  const classic = pkg.exports['./cdn-classic'].default.replace(/^\.\//, '');
  // the premise: both CDN entries are built and packed
  assert.ok(files.has(entry), `${entry} is not in the tarball (run npm run build)`);
  assert.ok(files.has(classic), `${classic} is not in the tarball`);

  const guide = cdnUrls(read('docs/guides/g4f.md'));
  const readme = cdnUrls(read('README.md'));
  // the guide gives both: the one tag (classic) and the module entry
  assert.ok(
    guide.some((u) => u.file === classic),
    `the guide gives no CDN URL of ${classic}`,
  );
  assert.ok(
    guide.some((u) => u.file === entry),
    `the guide gives no CDN URL of ${entry}`,
  );
  for (const u of [...guide, ...readme]) {
    assert.equal(u.name, pkg.name, `${u.url}: not this package's name`);
    assert.ok(covers(u.range, pkg.version), `${u.url}: ${u.range} does not cover ${pkg.version}`);
    assert.ok(files.has(u.file), `${u.url}: ${u.file} is not in the tarball`);
  }
});

test('the URL check refuses a wrong name, a wrong file and a range that misses the version', () => {
  const [u] = cdnUrls('<script src="https://cdn.jsdelivr.net/npm/other-name@2/dist/cdn/gone.js"></script>');
  assert.deepEqual(u && [u.name, u.range, u.file], ['other-name', '2', 'dist/cdn/gone.js']);
  assert.equal(covers('2', '0.1.0'), false);
  assert.equal(covers('0.1', '0.1.0'), true);
  assert.equal(covers('0.10', '0.1.0'), false);
});
