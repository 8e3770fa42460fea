// Hostile views: a view of our fixture (test/fixtures/app-views.mjs) tries to escape — navigate
// the top page, read its DOM, cookies, storage and IndexedDB, fetch or frame an undeclared domain,
// eval, open popups and downloads, forge host and sandbox messages, reach another view, call a
// model-only tool, loosen its CSP through _meta, flood, send 50 MB. Every attempt must fail or be
// refused with a logged reason, and the hub keeps working. In the sandbox and the opaque fallback.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/elements/mcp-app-view/define.js';
import type { McpAppViewElement } from '../../src/elements/mcp-app-view/mcp-app-view.js';
import { privateHub, recordEvents, unique, until } from '../helpers.js';
import { MODES, connectApps, urls } from './helpers.js';

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
      // forged host and sandbox messages reached no one: the honest view saw its own result only
      const results = reports.filter((r) => r.key === 'result').map((r) => JSON.stringify(r.value));
      expect(results.join()).not.to.match(/forged|cross-view/);
      // the hub still works
      const after = await hub.callTool({
        serverId: s.id,
        tool: 'show-probe',
        source: 'user',
        arguments: { text: 'still' },
      });
      expect(after.status).to.equal('success');
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
      const view = await fixture<McpAppViewElement>(html`<mcp-app-view .hub=${hub} call-id=${call.id}></mcp-app-view>`);
      const refused = await t.report('call-model-only');
      expect(refused.ok).to.equal(false);
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
    }
  });
