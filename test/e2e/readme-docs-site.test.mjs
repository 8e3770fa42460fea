// The docs: the generated pages are up to date with what they are generated from, and the docs
// site builds and runs its live examples in Chromium against the reference MCP server, with no
// request leaving 127.0.0.1.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { guardEach, launchGuarded } from '../fixtures/loopback-guard.mjs';
import { root, shot } from '../fixtures/e2e-demo.mjs';
import { serveStatic } from '../docs/static-server.mjs';
import { deadLinks } from '../docs/links.mjs';
import { startDocsPeers } from '../../scripts/docs-peers.mjs';

const run = (script, args = [], env = {}) =>
  spawnSync(process.execPath, [path.join(root, script), ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });

test('the element reference and the measurement pages are what their generators write now', () => {
  for (const script of ['scripts/docs-elements.mjs', 'scripts/docs-bench.mjs']) {
    const r = run(script, ['--check']);
    assert.equal(r.status, 0, `${script} --check: ${r.stderr}${r.stdout}`);
  }
});

const site = { peers: undefined, server: undefined, browser: undefined, built: undefined };
before(async () => {
  site.peers = await startDocsPeers();
  // the site's live examples are built against these servers; a dead link fails the build (the
  // first test says so by name)
  site.built = run('scripts/docs-serve.mjs', ['--build'], { MCP_DOCS_PEERS: JSON.stringify(site.peers.peers) });
  site.server = await serveStatic(path.join(root, 'dist/docs'));
  site.peers.allowHost(new URL(site.server.url).origin);
  site.browser = await launchGuarded();
});
after(async () => {
  await site.browser?.close();
  await site.server?.close();
  await site.peers?.close();
});

test('docs site: builds with no dead link (no ignore list), and every link and #anchor of it resolves', () => {
  const config = readFileSync(path.join(root, 'docs/.vitepress/config.mjs'), 'utf8');
  assert.doesNotMatch(config, /ignoreDeadLinks\s*:/, 'the docs config ignores no dead link');
  const { status, stdout, stderr } = site.built;
  assert.equal(status, 0, `docs build failed:\n${stdout}\n${stderr}`);
  // VitePress checks the markdown links to pages; this checks the built HTML too: nav, sidebar,
  // assets and every #anchor (VitePress checks no anchor)
  assert.deepEqual(deadLinks(path.join(root, 'dist/docs')), [], 'dead links in the built site');
});

test('docs site: the home page shows how to put an element on a page, with no request off 127.0.0.1', async () => {
  const { page, requests, errors } = await open('/');
  const section = page.getByRole('heading', { name: 'Put an element on your page' });
  await section.waitFor();
  for (const text of ['npm install mcp-chat-elements', '<mcp-server-manager></mcp-server-manager>', 'getHub'])
    assert.ok((await page.locator('.vp-doc').innerText()).includes(text), `the home page shows ${text}`);
  // the guides' "README" links lead to it on the site
  await page.goto(`${site.server.url}/guides/embed.html`);
  await page.locator('.vp-doc a', { hasText: 'README' }).first().click();
  await page.waitForURL(/\/(index\.html)?#put-an-element-on-your-page$/);
  await section.waitFor();
  await shot(page, 'docs-site-home');
  assert.deepEqual(offLoopback(requests), [], 'no request leaves 127.0.0.1');
  assert.deepEqual(errors, []);
  await page.close();
});

/** A page of the built site that records every URL it requests and every page error. */
async function open(pathname) {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 900 } });
  const requests = [];
  const errors = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(site.server.url + pathname);
  return { page, requests, errors };
}
const offLoopback = (urls) => urls.filter((u) => !/^(data:|blob:|http:\/\/127\.0\.0\.1:\d+\/)/.test(u));

test('docs site: the explorer page runs <mcp-tool-explorer> live against the reference server', async () => {
  const { page, requests, errors } = await open('/elements/mcp-tool-explorer.html');
  // the generated reference is on the page
  await page.getByRole('heading', { name: 'Attributes' }).waitFor();
  // the live element lists the reference server's tools (it connected through the CDN build)
  await page.locator('.live-example mcp-tool-explorer [part=list] [data-tool=get-sum]').waitFor();
  assert.match(await page.locator('.live-example-note').innerText(), /^Live: the tools of/);
  // the sidebar names the elements as text; the only live elements are the example's
  assert.equal(await page.locator('mcp-server-manager, mcp-tool-explorer, mcp-tool-call').count(), 1);
  await page.locator('.VPSidebar').getByText('<mcp-tool-call>', { exact: true }).waitFor();
  await shot(page, 'docs-site-explorer');
  assert.ok(
    requests.some((u) => u.startsWith(site.peers.peers.everything)),
    'the page talked to the reference server',
  );
  assert.deepEqual(offLoopback(requests), [], 'no request leaves 127.0.0.1');
  assert.deepEqual(errors, []);
  await page.close();
});

test('docs site: the tool-call page shows a call waiting for approval; Allow once runs it', async () => {
  const { page, requests, errors } = await open('/elements/mcp-tool-call.html');
  const card = page.locator('.live-example mcp-tool-call');
  await card.locator('[part=approval]').waitFor();
  await card.locator('[data-action=allow-once]').click();
  await card.locator('[part=result]').filter({ hasText: 'Hello from the docs' }).waitFor();
  assert.equal(await card.getAttribute('data-status'), 'success');
  assert.deepEqual(offLoopback(requests), [], 'no request leaves 127.0.0.1');
  assert.deepEqual(errors, []);
  await page.close();
});

test('docs site: the app-view page shows the view of server-debug, running in the sandbox origin', async () => {
  const { page, requests, errors } = await open('/elements/mcp-app-view.html');
  const note = page.locator('.live-example-note');
  await note.filter({ hasText: /^Live: the view server-debug ships/ }).waitFor();
  const frame = page.locator('.live-example mcp-app-view [part=frame] iframe');
  assert.equal(new URL(await frame.getAttribute('src')).origin, new URL(site.peers.peers.sandbox).origin);
  await shot(page, 'docs-site-app-view');
  assert.deepEqual(offLoopback(requests), [], 'no request leaves 127.0.0.1');
  assert.deepEqual(errors, []);
  await page.close();
});

// no page of the file may send anything off 127.0.0.0/8 (test/fixtures/loopback-guard.mjs)
guardEach(() => site.browser);

test('docs site: the elicitation example shows the server’s answer after Accept, in place (the page does not jump)', async () => {
  const { page, requests, errors } = await open('/elements/mcp-elicitation.html');
  const example = page.locator('.live-example');
  await example.scrollIntoViewIfNeeded();
  await page.getByRole('button', { name: 'Run trigger-elicitation-request' }).click();
  const form = example.locator('mcp-elicitation');
  await form.getByRole('textbox').first().fill('Ada Lovelace');
  await shot(page, 'docs-site-elicitation-form');
  // where the reader is when pressing Accept (the click itself scrolls nothing more)
  const accept = form.getByRole('button', { name: 'Accept' });
  await accept.scrollIntoViewIfNeeded();
  const before = await page.evaluate(() => ({
    y: scrollY,
    top: document.querySelector('.live-example').getBoundingClientRect().top,
    height: document.querySelector('.live-example').getBoundingClientRect().height,
  }));
  await accept.click();
  const result = example.locator('.live-example-result');
  await result.filter({ hasText: 'User provided the requested information' }).waitFor();
  assert.match(await result.innerText(), /Ada Lovelace/);
  const after = await page.evaluate(() => ({
    y: scrollY,
    top: document.querySelector('.live-example').getBoundingClientRect().top,
    height: document.querySelector('.live-example').getBoundingClientRect().height,
  }));
  await shot(page, 'docs-site-elicitation-answered');
  assert.equal(after.y, before.y, 'the page did not scroll');
  assert.ok(after.height >= before.height, `the example kept its height (${before.height} → ${after.height} px)`);
  assert.deepEqual(offLoopback(requests), [], 'no request leaves 127.0.0.1');
  assert.deepEqual(errors, []);
  await page.close();
});
