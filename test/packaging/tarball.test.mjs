// The package as a developer gets it: `npm pack`, then installed (from the tarball, the rest from
// the npm cache: --prefer-offline) into two fresh projects outside this repository, each opened
// in Chromium. A Vite app (vite from its own devDependencies) imports the package by name and is
// built; a plain HTML page loads the CDN file straight from its node_modules. In both, an element
// renders and the hub connects to the reference server and calls a tool.
// The install runs the package's lifecycle scripts as a consumer's would (no --ignore-scripts):
// a `postinstall` that needs the repository's scripts/ broke exactly this.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { guardEach, launchGuarded } from '../fixtures/loopback-guard.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const urls = JSON.parse(process.env.MCP_TEST_SERVERS ?? '{}');
const work = mkdtempSync(path.join(tmpdir(), 'packaging-'));
let tarball;
let browser;
const servers = [];

/** Run a command; resolve with its output, reject with it when the command fails. */
function sh(cmd, args, cwd) {
  return new Promise((resolve, reject) =>
    execFile(
      cmd,
      args,
      { cwd, maxBuffer: 32 * 1024 * 1024, env: { ...process.env, npm_config_fund: 'false' } },
      (err, out, errOut) =>
        err ? reject(new Error(`${cmd} ${args.join(' ')} failed:\n${out}\n${errOut}`)) : resolve(`${out}${errOut}`),
    ),
  );
}

/** A fresh project depending on the packed package (and on `more`), installed. */
async function project(name, files, more = {}) {
  const dir = path.join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({
      name,
      private: true,
      type: 'module',
      dependencies: { [pkg.name]: `file:${tarball}` },
      devDependencies: more,
    }),
  );
  for (const [f, body] of Object.entries(files)) writeFileSync(path.join(dir, f), body);
  await sh('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], dir);
  return dir;
}

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json' };
/** A static file server for `dir` on 127.0.0.1 (another origin than the MCP server). */
async function serve(dir) {
  const server = http.createServer(async (req, res) => {
    let p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (p.endsWith('/')) p += 'index.html';
    const file = path.join(dir, path.normalize(p).replace(/^(\.\.[/\\])+/, ''));
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((r) => server.listen({ port: 0, host: '127.0.0.1' }, r));
  servers.push(server);
  return `http://127.0.0.1:${server.address().port}/`;
}

/** In the page: the manager element rendered, then the hub adds server-everything, connects, calls echo. */
async function elementAndHub(page, hubOf) {
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.waitForFunction(() => document.querySelector('mcp-server-manager')?.shadowRoot?.childElementCount > 0);
  const r = await page.evaluate(
    async ({ url, hubOf }) => {
      const hub = new Function(`return ${hubOf}`)();
      await hub.ready;
      const { id } = await hub.servers.add({ name: 'Packed everything', url });
      await hub.connect(id);
      const call = await hub.callTool({ serverId: id, tool: 'echo', arguments: { message: 'packed' }, source: 'user' });
      return { status: call.status, tools: hub.catalogue(id)?.tools?.length ?? 0 };
    },
    { url: urls.everything, hubOf },
  );
  assert.equal(r.status, 'success');
  assert.ok(r.tools > 0, 'the catalogue lists the server’s tools');
  // the element shows what the hub holds
  await page.waitForFunction(() =>
    document.querySelector('mcp-server-manager').shadowRoot.textContent.includes('Packed everything'),
  );
  assert.deepEqual(errors, []);
}

before(async () => {
  // `npm test` built dist/ already: skip `prepack` (its build from a fresh clone is
  // test/packaging/fresh-clone.test.mjs)
  await sh('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', work], root);
  tarball = path.join(
    work,
    readdirSync(work).find((f) => f.endsWith('.tgz')),
  );
  browser = await launchGuarded();
});
after(async () => {
  await browser?.close();
  for (const s of servers) await new Promise((r) => s.close(r));
  rmSync(work, { recursive: true, force: true });
});

test('the packed tarball holds the built package and no repository-only files', async () => {
  const list = await sh('tar', ['-tzf', tarball], work);
  for (const f of [
    'package/package.json',
    'package/custom-elements.json',
    'package/dist/index.js',
    'package/dist/index.d.ts',
  ])
    assert.ok(list.includes(f), `${f} is in the tarball`);
  assert.ok(list.includes('package/dist/frameworks/react.d.ts'), 'the framework typings are in the tarball');
  for (const f of ['package/src/', 'package/test/', 'package/scripts/', 'package/node_modules/'])
    assert.ok(!list.includes(f), `${f} is not in the tarball`);
  // the CLI under the package's name (what npx runs) and under its old command name
  assert.equal(pkg.bin[pkg.name], pkg.bin['mcp-elements']);
  assert.ok(list.includes(`package/${pkg.bin[pkg.name].replace(/^\.\//, '')}`), 'the CLI is in the tarball');
});

test('a fresh Vite app imports the package by name, builds, and works in Chromium', async () => {
  const dir = await project(
    'vite-app',
    {
      'index.html':
        '<!doctype html><meta charset="utf-8"><title>Vite app</title>\n<mcp-server-manager></mcp-server-manager>\n<script type="module" src="/main.js"></script>\n',
      'main.js': `import { getHub } from '${pkg.name}';\nglobalThis.appHub = getHub();\n`,
    },
    { vite: pkg.devDependencies.vite },
  );
  await sh(process.execPath, [path.join(dir, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], dir);
  const page = await browser.newPage();
  await page.goto(await serve(path.join(dir, 'dist')));
  await elementAndHub(page, 'globalThis.appHub');
  await page.close();
});

test('a plain HTML page loads the CDN file from node_modules and works in Chromium', async () => {
  const cdn = pkg.exports['./cdn'].default.replace(/^\.\//, '');
  const dir = await project('plain-page', {
    'index.html': `<!doctype html><meta charset="utf-8"><title>Plain page</title>\n<mcp-server-manager></mcp-server-manager>\n<script type="module" src="/node_modules/${pkg.name}/${cdn}"></script>\n`,
  });
  const page = await browser.newPage();
  await page.goto(await serve(dir));
  await page.waitForFunction(() => globalThis.McpElements?.getHub);
  await elementAndHub(page, 'globalThis.McpElements.getHub()');
  await page.close();
});

// no page of the file may send anything off 127.0.0.0/8 (test/fixtures/loopback-guard.mjs)
guardEach(() => browser);
