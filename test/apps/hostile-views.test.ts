// Hostile views: a view of our fixture (test/fixtures/app-views.mjs) tries to escape — navigate
// the top page, read its DOM, cookies, storage and IndexedDB, fetch or frame an undeclared domain,
// eval, open popups and downloads, forge host and sandbox messages, reach another view, call a
// model-only tool, loosen its CSP through _meta, flood, send 50 MB. Every attempt must fail or be
// refused with a logged reason, and the hub keeps working. In the sandbox and the opaque fallback.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/elements/mcp-app-view/define.js';
import type { McpAppViewElement } from '../../src/elements/mcp-app-view/mcp-app-view.js';
import { privateHub, recordEvents, unique, until } from '../helpers.js';
import type { ToolCallRecord } from '../../src/core/index.js';
import { MODES, clickInto, connectApps, hostSandbox, showCall, urls } from './helpers.js';
import { dropWarmFrames } from '../../src/apps/warm-frames.js';

// each test starts without proxies loaded ahead by the ones before (src/apps/warm-frames.ts)
afterEach(() => dropWarmFrames());

/** The files named `marker`… that the browser saved (the apps fixture looks, and removes them). */
const downloads = (marker: string) =>
  fetch(`${urls.appsFixture}/downloads/${marker}`).then((r) => r.json() as Promise<string[]>);

// The decoy's view: it hands back whatever its proxy relays to it.
const DECOY_VIEW = `<!doctype html><script>addEventListener('message', (e) => { if (e.source === parent) parent.postMessage({ decoy: 'got', data: e.data }, '*'); }); parent.postMessage({ decoy: 'ready' }, '*');</script>`;

/**
 * Another view's proxy that a view on the page can name: the sandbox page in a frame of this page's
 * own DOM (the views' frames sit in <mcp-app-view>'s shadow root, out of `top.frames`), hosted by
 * the test itself with a view that hands back whatever its proxy relays to it.
 */
async function decoyProxy() {
  const decoy = await hostSandbox(urls.appsSandbox, { html: DECOY_VIEW });
  const { seen } = decoy;
  await until(async () => seen.some((d) => d?.decoy === 'ready'), 'the decoy view');
  return {
    /** What came from it besides its own start (proxy ready, view ready). */
    more: () => seen.filter((d) => !(d?.method === 'ui/notifications/sandbox-proxy-ready' || d?.decoy === 'ready')),
    remove: decoy.remove,
  };
}

async function setUp(sandboxUrl: string | undefined) {
  const hub = privateHub({ sandboxUrl });
  return { hub, ...(await connectApps(hub)) };
}

for (const mode of MODES)
  describe(`MCP Apps: hostile views (${mode.name})`, () => {
    it('fails every escape: top page, DOM, cookies, storage, IndexedDB, network, frames, eval, popups, forged messages', async () => {
      const { hub, t, s } = await setUp(mode.sandbox());
      const href = location.href;
      const marker = unique('hostile');
      // a second, honest view on the page: the hostile one must not reach it
      const probe = await hub.callTool({
        serverId: s.id,
        tool: 'show-probe',
        source: 'user',
        arguments: { text: 'honest' },
      });
      await fixture(html`<mcp-app-view .hub=${hub} call-id=${probe.id}></mcp-app-view>`);
      await t.report('result');
      const decoy = await decoyProxy();
      try {
        const call = await hub.callTool({
          serverId: s.id,
          tool: 'show-hostile',
          source: 'user',
          arguments: { actions: ['escape'], marker },
        });
        await fixture(html`<mcp-app-view .hub=${hub} call-id=${call.id}></mcp-app-view>`);
        await t.report('escape-done', 300);
        const reports = await t.reports();
        const of = (k: string) =>
          reports.find((r) => r.key === k)?.value as { escaped: boolean; value?: string; error?: string };
        for (const k of [
          'top-navigation',
          'top-dom',
          // with an origin per server the view is same-origin with its proxy (its own server's
          // page) and has storage of that origin: the attempts below show what that can reach
          ...(mode.perServer ? [] : ['parent-dom', 'local-storage']),
          'indexeddb',
          'fetch-undeclared',
          'popup',
          'eval',
        ])
          expect(of(k), k).to.deep.include({ escaped: false });
        if (mode.perServer) expect(of('parent-dom').escaped).to.equal(true);
        // an undeclared frame or fetch never reached its server (a blocked frame may still fire
        // `load` in WebKit: what counts is that no request left)
        const pings = (await fetch(`${urls.appsFixture}/pings`).then((r) => r.json())) as string[];
        expect(pings.filter((p) => p.startsWith(marker))).to.deep.equal([]);
        // a cookie write in an opaque origin either throws or keeps nothing
        if (!mode.perServer) expect(String(of('cookie').value ?? '')).not.to.contain('pwned');
        expect(document.cookie).not.to.contain('pwned');
        expect(location.href).to.equal(href);
        expect((window as { __pwned?: unknown }).__pwned).to.equal(undefined);
        // the policy it runs under kept only the well-formed origin it declared
        const policy = (reports.find((r) => r.key === 'policy')!.value as string[]).join(' | ');
        expect(policy).to.contain('connect-src https://ok.example;');
        expect(policy).not.to.match(/unsafe-eval|connect-src \*|script-src \*|http:;|data: data:/);
        expect(policy).to.contain("frame-src 'none'");
        expect(policy).to.contain("object-src 'none'");
        // the hub still works
        const after = await hub.callTool({
          serverId: s.id,
          tool: 'show-probe',
          source: 'user',
          arguments: { text: 'still' },
        });
        expect(after.status).to.equal('success');
        // read again after that round trip: what the hostile view posted last has had time to arrive
        const later = await t.reports();
        // the only frame of the page it could name was the decoy: not the honest view's, nor its own
        expect(later.find((r) => r.key === 'frames-of-page')?.value).to.equal(1);
        // it handed the decoy proxy a host's tool result and a view's call: the proxy took neither
        // (messages from its parent and its own view's frame only): nothing reached its view, nothing
        // came out to its host
        expect(decoy.more()).to.deep.equal([]);
        // nor did the call it posted straight to the host page, past its own proxy, run
        expect(later.filter((r) => r.key === 'top-call')).to.deep.equal([]);
        // the forged sandbox-resource-ready: a proxy never relays a sandbox-* message of its view, so
        // the host sees none; without a proxy the host's guard refuses it and says so
        const refusal = /a ui\/notifications\/sandbox-resource-ready message the proxy did not send/;
        const log = (hub.store.state.logs[s.id] ?? []).map((l) => l.text).join('\n');
        if (mode.sandbox()) expect(log).not.to.match(refusal);
        else expect(log).to.match(refusal);
      } finally {
        decoy.remove();
      }
    });

    it("a download the view starts, even in the user's click, saves nothing; the control (allow-downloads) does", async () => {
      const { hub, t, s } = await setUp(mode.sandbox());
      const marker = unique('dl-view');
      const call = await hub.callTool({
        serverId: s.id,
        tool: 'show-hostile',
        source: 'user',
        arguments: { actions: ['download'], marker },
      });
      const view = await fixture<McpAppViewElement>(html`<mcp-app-view .hub=${hub} call-id=${call.id}></mcp-app-view>`);
      await t.report('download-ready');
      // a real click (user activation) on the button that covers the view
      await clickInto(view.shadowRoot!.querySelector('iframe')!, t.report('download-clicked'), 'the view');
      // the control: the same page and click in a frame that may download (the view's frame's
      // flags plus allow-downloads); it shows downloads land here and how long that takes
      const control = document.createElement('iframe');
      const controlMarker = unique('dl-control');
      control.setAttribute('sandbox', 'allow-scripts allow-forms allow-downloads');
      control.style.cssText = 'display:block;width:300px;height:120px;border:0';
      const said = (what: string) =>
        new Promise<void>((r) =>
          window.addEventListener('message', function on(e) {
            if (e.source === control.contentWindow && e.data === what) {
              window.removeEventListener('message', on);
              r();
            }
          }),
        );
      const ready = said('download-ready');
      control.src = `${urls.appsFixture}/download-control.html?marker=${controlMarker}`;
      document.body.append(control);
      try {
        await ready;
        await clickInto(control, said('download-clicked'), 'the control');
        const landed = await until(async () => {
          const files = await downloads(controlMarker);
          return files.length ? files : undefined;
        }, "the control's download");
        expect(landed[0]).to.match(new RegExp(`^${controlMarker}-click-(blob|data)\\.txt`));
        // the view's click came first: anything it started has had at least as long
        await new Promise((r) => setTimeout(r, 500));
        expect(await downloads(marker)).to.deep.equal([]);
      } finally {
        control.remove();
      }
    });

    it('refuses a model-only tool, a 50 MB message and a flood, with logged reasons; the hub keeps working', async () => {
      const { hub, t, s } = await setUp(mode.sandbox());
      const call = await hub.callTool({
        serverId: s.id,
        tool: 'show-hostile',
        source: 'user',
        arguments: { actions: ['call-model-only', 'big', 'flood'] },
      });
      const logged = recordEvents(hub, ['mcp-server-log']);
      // were the view's call of the model-only tool let through, it would wait for the user: deny
      // it at once, so the assertion below names what went wrong instead of giving up waiting
      const asked: string[] = [];
      const deny = (e: Event) => {
        const c = (e as CustomEvent<{ call: ToolCallRecord }>).detail.call;
        if (c.source !== 'app') return;
        asked.push(c.tool);
        hub.calls.deny(c.id);
      };
      hub.addEventListener('mcp-tool-call-awaiting-approval', deny);
      const view = await fixture<McpAppViewElement>(html`<mcp-app-view .hub=${hub} call-id=${call.id}></mcp-app-view>`);
      const refused = await t.report('call-model-only');
      hub.removeEventListener('mcp-tool-call-awaiting-approval', deny);
      expect(asked, "the view's calls put to the user").to.deep.equal([]);
      // the view's answer is an error that says the tool is not for views
      expect(refused, 'the view’s call of model-only').to.deep.include({ ok: false });
      expect(String(refused.e)).to.match(/"model-only" is not callable by a view \(its visibility excludes "app"\)/);
      await t.report('big-sent');
      // the flood closes the view (its last report may be among what was refused)
      await until(async () => (view.shadowRoot!.querySelector('[part="error"]') ? true : undefined), 'the view closed');
      expect(view.shadowRoot!.querySelector('[part="error"]')!.textContent).to.match(/messages a second/);
      expect(view.shadowRoot!.querySelector('iframe')).to.equal(null);
      expect((await t.reports()).some((r) => r.key === 'big')).to.equal(false);
      logged.stop();
      const log = logged.seen.map((e) => (e as CustomEvent<{ entry: { text: string } }>).detail.entry.text).join('\n');
      expect(log).to.match(/model-only/);
      expect(log).to.match(/larger than/);
      expect(log).to.match(/messages a second/);
      // of 5,000 flood lines, no more than the burst and the rate let through reached the log
      expect(
        logged.seen.filter((e) => /^flood /.test((e as CustomEvent<{ entry: { text: string } }>).detail.entry.text))
          .length,
      ).to.be.below(400);
      const after = await hub.callTool({
        serverId: s.id,
        tool: 'show-probe',
        source: 'user',
        arguments: { text: 'ok' },
      });
      expect(after.status).to.equal('success');
    });

    if (mode.sandbox())
      it('the sandbox page announces itself only to the host it was given, and only when the browser confirms it', async () => {
        // framed with a host origin that is not the embedding page: no proxy-ready reaches us
        const page = mode.sandbox()!.replace('{server}', 'announce');
        const frame = document.createElement('iframe');
        const url = new URL(page);
        url.searchParams.set('host', 'https://evil.example');
        let ready = false;
        const on = (e: MessageEvent) => {
          if (e.source === frame.contentWindow) ready = true;
        };
        window.addEventListener('message', on);
        const loaded = new Promise((r) => frame.addEventListener('load', r, { once: true }));
        frame.src = url.href;
        document.body.append(frame);
        await loaded;
        // framed correctly, the same page does announce itself (the control)
        const good = document.createElement('iframe');
        const goodUrl = new URL(page);
        goodUrl.searchParams.set('host', location.origin);
        const announced = new Promise<unknown>((r) =>
          window.addEventListener('message', function m(e) {
            if (e.source === good.contentWindow) {
              window.removeEventListener('message', m);
              r(e.data);
            }
          }),
        );
        good.src = goodUrl.href;
        document.body.append(good);
        expect(await announced).to.deep.include({ method: 'ui/notifications/sandbox-proxy-ready' });
        expect(ready).to.equal(false);
        window.removeEventListener('message', on);
        frame.remove();
        good.remove();
      });

    if (mode.perServer) {
      it('a view same-origin with its proxy rewrites the proxy page and its own frame to drop its policy: every undeclared fetch still fails', async () => {
        const { hub, t, s } = await setUp(mode.sandbox());
        const marker = unique('rewrite');
        const call = await hub.callTool({
          serverId: s.id,
          tool: 'show-hostile',
          source: 'user',
          arguments: { actions: ['rewrite'], marker },
        });
        const logged = recordEvents(hub, ['mcp-server-log']);
        await fixture(html`<mcp-app-view .hub=${hub} call-id=${call.id}></mcp-app-view>`);
        await t.report('rewrite-done', 300);
        const reports = await t.reports();
        const of = (k: string) => reports.find((r) => r.key === k)?.value as { escaped: boolean; error?: string };
        // the control: it does reach its proxy's page
        expect(of('proxy-reachable').escaped).to.equal(true);
        for (const k of ['fetch-meta-removed', 'proxy-fetch', 'proxy-script', 'fresh-frame', 'own-origin-page'])
          expect(of(k), k).to.deep.include({ escaped: false });
        // its frame rewritten with a document that has no policy: it runs (it reports) and its fetch fails
        expect(await t.report('srcdoc-fetch')).to.deep.include({ escaped: false });
        const pings = (await fetch(`${urls.appsFixture}/pings`).then((r) => r.json())) as string[];
        expect(pings.filter((p) => p.startsWith(marker))).to.deep.equal([]);
        // a second proxy-ready and a resource sent through the proxy's own window: refused, logged
        const log = () =>
          logged.seen.map((e) => (e as CustomEvent<{ entry: { text: string } }>).detail.entry.text).join('\n');
        await until(async () => (/sandbox-resource-ready message/.test(log()) ? true : undefined), 'the refusals');
        expect(log()).to.match(/a ui\/notifications\/sandbox-proxy-ready message the proxy did not send/);
        logged.stop();
        const after = await hub.callTool({ serverId: s.id, tool: 'show-probe', source: 'user', arguments: {} });
        expect(after.status).to.equal('success');
      });

      it("another server's view reads neither that server's view storage nor its frames; the server's own next view does", async () => {
        const hub = privateHub({ sandboxUrl: mode.sandbox() });
        const a = await connectApps(hub, 'A');
        const b = await connectApps(hub, 'B');
        const marker = unique('secret');
        const show = async (server: { id: string }, actions: string[]) => {
          const call = await hub.callTool({
            serverId: server.id,
            tool: 'show-hostile',
            source: 'user',
            arguments: { actions, marker },
          });
          await fixture(html`<mcp-app-view .hub=${hub} call-id=${call.id}></mcp-app-view>`);
        };
        await show(a.s, ['store']);
        expect(await a.t.report('stored')).to.equal(marker);
        // A's view stays on the page while B's looks for it
        await show(b.s, ['steal']);
        expect(await b.t.report('stolen')).to.equal(null);
        expect(await b.t.report('frames-reached')).to.deep.equal([]);
        // the control: a second view of A (the same origin) reads what the first kept
        await show(a.s, ['steal']);
        expect(await a.t.report('stolen')).to.equal(marker);
      });

      const keeps = typeof (Element.prototype as { moveBefore?: unknown }).moveBefore === 'function';
      it(`a proxy loaded ahead for its server's next view (same origin, only the ceiling policy) is out of its views' reach${keeps ? '' : ' (none loaded ahead here: no moveBefore; the view still names no frame)'}`, async () => {
        // frames waiting under the shelf element (src/apps/warm-frames.ts), in its shadow root or not
        const shelf = () => {
          const el = document.querySelector('mcp-warm-frames');
          return (
            (el?.querySelectorAll('iframe').length ?? 0) + (el?.shadowRoot?.querySelectorAll('iframe').length ?? 0)
          );
        };
        const { hub, t, s } = await setUp(mode.sandbox());
        const marker = unique('warm');
        // an honest view first: once it runs, a proxy for the server's next such view is loaded
        await showCall(hub, s.id, 'show-probe', {});
        if (keeps) await until(async () => (shelf() >= 1 ? true : undefined), 'a warm frame');
        // the hostile view declares a permission, so it gets a frame of its own and the warm one
        // waits while it looks for frames of its origin to fetch through
        await showCall(hub, s.id, 'show-hostile', { actions: ['warm'], marker });
        await t.report('warm-done', 300);
        const reports = await t.reports();
        expect(reports.find((r) => r.key === 'warm-frames-named')?.value).to.equal(0);
        expect(reports.find((r) => r.key === 'warm-fetch')?.value).to.deep.include({ escaped: false });
        if (keeps) expect(shelf()).to.be.greaterThan(0);
        const pings = (await fetch(`${urls.appsFixture}/pings`).then((r) => r.json())) as string[];
        expect(pings.filter((p) => p.startsWith(marker))).to.deep.equal([]);
      });
    }
  });

describe('MCP Apps: the sandbox page opened as a top-level page', () => {
  it('refuses to run and says so on the page', async () => {
    // the built page as this test's server serves it (dist/sandbox/), so the test can read it:
    // the popup is same-origin with this page. The checks after the top-level one would let it
    // run: the host given is another origin, and the popup has no referrer to contradict it. (A
    // proxy running top-level would still be inert — its parent is itself, so it would announce
    // itself to itself and take nothing from this page — so its refusal is what can be seen.)
    const page = `${location.origin}/dist/sandbox/index.html?host=${encodeURIComponent('http://127.0.0.1:9')}`;
    // a popup window, not a tab: the test page stays visible (a hidden page's timers are throttled)
    const popup = window.open('about:blank', unique('sandbox-top'), 'popup,width=480,height=320');
    expect(popup, 'the popup').to.exist;
    try {
      // navigated by a script of its own, under no-referrer: the page sees no embedding page
      popup!.document.write(
        `<!doctype html><meta name="referrer" content="no-referrer"><script>location.replace(${JSON.stringify(page)});</script>`,
      );
      popup!.document.close();
      // loaded: its module script (deferred) ran before the document completed
      const deadline = Date.now() + 15000;
      while (!(
        popup!.location.pathname.endsWith('/dist/sandbox/index.html') && popup!.document.readyState === 'complete'
      )) {
        if (Date.now() > deadline)
          throw new Error(`the sandbox page did not load top-level (at ${popup!.location.href})`);
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(popup!.document.referrer).to.equal('');
      expect(popup!.document.body.textContent!.trim()).to.equal(
        'MCP App sandbox: this page only runs inside an MCP Apps host page.',
      );
    } finally {
      popup?.close();
    }
  });
});
