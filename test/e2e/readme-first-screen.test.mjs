// A newcomer follows the README's "Put an element on your page" exactly: the package installed
// into an empty project (from the tarball `npm pack` makes, as the README says until the name is
// published), the page written from the README's HTML block as it stands, served with the
// README's command, and in Chromium: add the reference server (`npm start`'s, as the README
// says) in the manager with a name, see it connected and its tools listed, and run one with Try it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { useDemo, root, shot } from '../fixtures/e2e-demo.mjs';
import { freePort } from '../fixtures/servers.mjs';

/** The package's name on npm: the one place to change when it is renamed. */
const PACKAGE = 'mcp-chat-elements';

const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
const section = readme.slice(readme.indexOf('## Put an element on your page'));
/** The code blocks of that section, in order, with their language. */
const blocks = [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1], code: m[2] }));

const run = useDemo();
const work = { dir: undefined, http: undefined };
before(() => {
  work.dir = mkdtempSync(path.join(tmpdir(), 'readme-first-screen-'));
});
after(async () => {
  if (work.http && work.http.exitCode === null) {
    const exited = new Promise((r) => work.http.once('exit', r));
    work.http.kill();
    await exited;
  }
  if (work.dir) rmSync(work.dir, { recursive: true, force: true });
});

const sh = (cmd, args, cwd) => {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_fund: 'false' } });
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')} failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
};

/** Resolve once something listens on 127.0.0.1:port. */
async function listening(port, child) {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    const ok = await new Promise((r) => {
      const c = net.connect({ port, host: '127.0.0.1' }, () => (c.end(), r(true)));
      c.on('error', () => r(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('README first screen: from npm install to an element on your own page', async () => {
  // the section's blocks are what the steps below follow: install, page, serve, then the npm CDN
  // tag and the bundler example
  assert.deepEqual(
    blocks.map((b) => b.lang),
    ['sh', 'html', 'sh', 'html', 'js'],
    'the README section still has its five blocks',
  );
  assert.match(blocks[3].code, /cdn\.jsdelivr\.net\/npm\/mcp-chat-elements@[\d.]+\/dist\/cdn\/mcp-elements\.js/);
  const [install, pageHtml, serve] = blocks;

  // 1. "npm install mcp-chat-elements", with the tarball of this build in its place (the README says so)
  assert.equal(install.code.trim(), `npm install ${PACKAGE}`);
  // `npm test` built dist/: skip `prepack` (its build would print into the JSON and replace dist/
  // under the running demo; the build from a fresh clone is test/packaging/fresh-clone.test.mjs)
  const packed = JSON.parse(sh('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work.dir], root));
  const tarball = path.join(work.dir, packed[0].filename);
  const project = path.join(work.dir, 'my-project');
  sh('mkdir', ['-p', project]);
  sh('npm', ['init', '-y'], project);
  const args = install.code.trim().split(/\s+/).slice(1); // ['install', 'mcp-elements']
  // --prefer-offline (as test/packaging/tarball.test.mjs): the tarballs come from npm's cache,
  // which `npm ci` filled, but `npm ci` caches no package documents (packuments) and resolving the
  // tarball's dependency ranges needs them: with --offline a fresh machine failed ENOTCACHED
  // (this session's CI rehearsal). The registry is the one network CI has.
  sh('npm', [...args.map((a) => (a === PACKAGE ? tarball : a)), '--prefer-offline', '--no-audit'], project);
  assert.ok(readdirSync(path.join(project, 'node_modules', PACKAGE, 'dist/cdn')).includes('mcp-elements.js'));

  // 2. the page, exactly as the README writes it, next to node_modules
  writeFileSync(path.join(project, 'my-page.html'), pageHtml.code);

  // 3. served with the README's command (on a free port instead of 8000, which may be taken)
  const cmd = serve.code.split('#')[0].trim().split(/\s+/);
  assert.deepEqual(cmd, ['python3', '-m', 'http.server', '8000', '--bind', '127.0.0.1']);
  const port = await freePort();
  work.http = spawn(
    cmd[0],
    cmd.slice(1).map((a) => (a === '8000' ? String(port) : a)),
    {
      cwd: project,
      stdio: 'ignore',
    },
  );
  await listening(port, work.http);

  // 4. open it; add the reference server `npm start` runs (its printed URL); Save
  const page = await run.browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`http://127.0.0.1:${port}/my-page.html`);
  try {
    await steps(page);
  } catch (e) {
    await shot(page, 'readme-first-screen-failed');
    throw e;
  }
  assert.deepEqual(errors, []);
  await page.close();
});

/** What the README says to do on the page, and what it says you then see. */
async function steps(page) {
  await page.getByRole('button', { name: 'Add server' }).click();
  await page.fill('mcp-server-manager #f-name', 'Everything');
  await page.fill('mcp-server-manager #f-url', run.demo.everythingUrl);
  await page.click('mcp-server-manager [data-action=save]');

  // the manager shows it connected, the explorer lists its tools
  await page.locator('mcp-server-manager [part=server]').filter({ hasText: 'Connected' }).waitFor();
  const echo = page.locator('mcp-tool-explorer [part=list] [data-tool=echo]');
  await echo.waitFor();

  // "Try it runs one"
  await echo.click();
  await page.locator('mcp-tool-explorer [part=try] mcp-schema-form input').first().fill('hello from my page');
  await page.click('mcp-tool-explorer [data-action=run]');
  const result = page.locator('mcp-tool-explorer [part=call]');
  await result.locator('[part=result]').filter({ hasText: 'hello from my page' }).waitFor();
  await shot(page, 'readme-first-screen');

  // "kept in the browser's IndexedDB for the next visit"
  await page.reload();
  await page.locator('mcp-server-manager [part=server]').filter({ hasText: run.demo.everythingUrl }).waitFor();
}
