// The ext-apps host conformance catalogue (examples/conformance-server in the ext-apps repository,
// SEP-1865 2026-01-26), clause by clause, for the clauses no other test here covers. Each test
// names its clause ids; docs/decisions/065-apps-host-conformance.md maps every clause of the catalogue to its test (those
// covered in apps.test.ts and hostile-views.test.ts are listed there). Real peers only: our app
// fixture's probe view and server-debug from npm, in the sandbox origin and the opaque fallback.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/elements/mcp-tool-call/define.js';
import '../../src/elements/mcp-app-view/define.js';
import type { McpAppViewElement } from '../../src/elements/mcp-app-view/mcp-app-view.js';
import type { McpAppInitializedEvent } from '../../src/events/app-initialized.js';
import { McpConfigError, urlProblem } from '../../src/core/index.js';
import { nextEvent, privateHub, unique, until } from '../helpers.js';
import { loadUiResource, McpAppError } from '../../src/apps/resources.js';
import { MODES, approveAppCalls, appsTenant, connectApps, showCall, urls } from './helpers.js';

async function setUp(sandboxUrl: string | undefined) {
  const hub = privateHub({ sandboxUrl });
  return { hub, ...(await connectApps(hub)) };
}

type Where = { origin: string; nested: boolean; parentReadable: boolean; policy: string[] };

for (const mode of MODES)
  describe(`MCP Apps host conformance (${mode.name})`, () => {
    it('lifecycle/initialize-capabilities, context/initialize-hostcontext, lifecycle/tool-input (after initialized), lifecycle/tool-result', async () => {
      const { hub, t, s } = await setUp(mode.sandbox());
      const { record } = await showCall(hub, s.id, 'show-probe', { text: 'order' });
      const init = await t.report('init');
      const caps = init.hostCapabilities as Record<string, unknown>;
      expect(caps).to.include.keys(
        'serverTools',
        'serverResources',
        'openLinks',
        'logging',
        'message',
        'updateModelContext',
      );
      expect(init.hostContext).to.be.an('object');
      expect(await t.report('input-after-initialized')).to.equal(true);
      expect((await t.report('input')).text).to.equal('order');
      expect((await t.report('result')).structuredContent).to.deep.equal(record.result!.structuredContent);
    });

    it('security/iframe-sandboxed, security/sandbox-proxy-required, security/sandbox-distinct-origin (and where we differ: the view itself is opaque)', async () => {
      const { hub, t, s } = await setUp(mode.sandbox());
      const { view } = await showCall(hub, s.id, 'show-probe', { actions: ['where'] });
      const frame = view.shadowRoot!.querySelector('iframe')!;
      const where = (await t.report('where')) as unknown as Where;
      // the view never reads the host page; its parent only when that is its own server's proxy
      expect(where.parentReadable).to.equal(mode.perServer);
      if (mode.perServer) {
        // an origin of this server's own (the template's {server}: a hash of its id and URL),
        // which the view shares with its proxy: storage works, other servers' views are elsewhere
        const origin = new URL(frame.src).origin;
        expect(where.origin).to.equal(origin);
        expect(new URL(origin).hostname).to.match(/^[0-9a-f]{32}\.localhost$/);
        expect(new URL(origin).port).to.equal(new URL(urls.appsSandbox).port);
      } else {
        // one sandbox origin shared by every server's views would let them reach each other
        // (docs/decisions/059-apps-sandbox.md): the view is opaque
        expect(where.origin).to.equal('null');
      }
      if (mode.sandbox()) {
        // a web host wraps the view in the proxy page on another origin, framed with exactly
        // the spec's permissions (forms too: the view's own policy has form-action 'none')
        if (!mode.perServer) expect(new URL(frame.src).origin).to.equal(new URL(urls.appsSandbox).origin);
        expect(new URL(frame.src).origin).not.to.equal(location.origin);
        expect(frame.getAttribute('sandbox')).to.equal('allow-scripts allow-same-origin allow-forms');
        expect(where.nested).to.equal(true);
        expect(hub.status(s.id).apps?.mode).to.equal('sandbox');
      } else {
        // the fallback: the view's own opaque frame in the page, said so in status and on the element
        expect(frame.getAttribute('sandbox')).to.equal('allow-scripts allow-forms');
        expect(frame.hasAttribute('src')).to.equal(false);
        expect(where.nested).to.equal(false);
        expect(hub.status(s.id).apps?.mode).to.equal('opaque-fallback');
        expect(view.hasAttribute('data-opaque')).to.equal(true);
      }
      for (const token of ['allow-top-navigation', 'allow-popups', 'allow-downloads', 'allow-modals'])
        expect(frame.getAttribute('sandbox')).not.to.contain(token);
    });

    it('security/csp-default-deny (no csp declared), security/csp-construct-from-domains and csp-allow-declared (a declared origin is reachable)', async () => {
      const { hub, t, s } = await setUp(mode.sandbox());
      const plain = unique('plain');
      await showCall(hub, s.id, 'show-plain', { actions: ['where', 'ping'], text: plain });
      const where = (await t.report('where')) as unknown as Where;
      expect(where.policy.join(' | ')).to.contain("connect-src 'none'");
      expect(where.policy.join(' | ')).to.contain("default-src 'none'");
      expect((await t.report('ping')).ok).to.equal(false);
      const t2 = appsTenant();
      const s2 = await hub.servers.add({ name: 'Net', url: t2.url });
      await hub.connect(s2.id);
      const net = unique('net');
      await showCall(hub, s2.id, 'show-net', { actions: ['where', 'ping'], text: net });
      const netWhere = (await t2.report('where')) as unknown as Where;
      expect(netWhere.policy.join(' | ')).to.contain(`connect-src ${urls.appsFixture}`);
      expect(await t2.report('ping')).to.deep.equal({ ok: true, r: 'pong' });
      const pings = (await fetch(`${urls.appsFixture}/pings`).then((r) => r.json())) as string[];
      expect(pings).to.include(`probe-${net}`);
      expect(pings).not.to.include(`probe-${plain}`);
    });

    it('lifecycle/tool-input-partial (a host without a call streams arguments) and tool-input-partial-stop (none after the input)', async () => {
      const { hub, t, s } = await setUp(mode.sandbox());
      const initialized = nextEvent<McpAppInitializedEvent>(window, 'mcp-app-initialized');
      const alone = await fixture<McpAppViewElement>(
        html`<mcp-app-view .hub=${hub} server-id=${s.id} resource-uri="ui://apps-fixture/probe.html"></mcp-app-view>`,
      );
      await initialized;
      await alone.sendPartialInput({ text: 'par' });
      expect(await t.report('partial')).to.deep.equal({ text: 'par' });
      const { view } = await showCall(hub, s.id, 'show-probe', { text: 'full' });
      await t.report('input');
      await view.sendPartialInput({ text: 'late' });
      // anything the host sends later reaches the view after it: a theme change, reported
      view.theme = 'dark';
      await t.report('context-changed');
      const t2reports = await t.reports();
      expect(t2reports.filter((r) => r.key === 'partial-after-input')).to.deep.equal([]);
    });

    it('dimensions/listen-size-changed: the frame takes the height the view reports', async () => {
      const { hub, s } = await setUp(mode.sandbox());
      const { view } = await showCall(hub, s.id, 'show-probe', { actions: ['size'] });
      const box = view.shadowRoot!.querySelector<HTMLElement>('[part=frame]')!;
      await until(async () => box.style.getPropertyValue('--_view-height') === '432px', 'the reported height');
      expect(box.getBoundingClientRect().height).to.be.closeTo(432, 2);
    });

    it('lifecycle/teardown-notify and teardown-await: close() waits for the view to answer ui/resource-teardown', async () => {
      const { hub, t, s } = await setUp(mode.sandbox());
      const { view } = await showCall(hub, s.id, 'show-probe', { text: 'bye' });
      await t.report('result');
      await view.close();
      // the probe answers only after its own report reached the server: no waiting here
      expect((await t.reports()).some((r) => r.key === 'teardown')).to.equal(true);
      expect(view.isConnected).to.equal(false);
    });
  });

describe('MCP Apps host conformance: server-debug', () => {
  it('lifecycle/tool-cancelled: a call cancelled while its view shows tells the view', async () => {
    const hub = privateHub({ sandboxUrl: urls.appsSandbox });
    const stop = approveAppCalls(hub);
    const s = await hub.servers.add({ name: 'Debug', url: urls.appsDebug });
    await hub.connect(s.id);
    const marker = unique('cancel');
    const initialized = nextEvent<McpAppInitializedEvent>(window, 'mcp-app-initialized');
    let id = '';
    const done = hub.callTool({
      serverId: s.id,
      tool: 'debug-tool',
      source: 'user',
      arguments: { largeInput: marker, delayMs: 20000 },
      onCall: (r) => {
        id = r.id;
        void fixture(html`<mcp-tool-call .hub=${hub} call-id=${r.id}></mcp-tool-call>`);
      },
    });
    await initialized;
    hub.calls.cancel(id);
    expect((await done).status).to.equal('cancelled');
    const log = async () =>
      (await fetch(`${urls.appsFixture}/debug-log`).then((r) => r.json())) as { type: string; payload: unknown }[];
    // the view logs every event it gets (debug-log, an app-only tool); its input carries the marker
    const cancelled = await until(async () => {
      const entries = await log();
      const i = entries.findIndex((e) => e.type === 'ontoolinput' && JSON.stringify(e.payload).includes(marker));
      return i >= 0 ? entries.slice(i).find((e) => e.type === 'ontoolcancelled') : undefined;
    }, 'the view was told the call was cancelled');
    expect(JSON.stringify(cancelled.payload)).to.match(/cancel/i);
    stop();
  });

  it('display/no-undeclared-mode "if set": server-debug declares no modes, so the host offers its own and fullscreen works', async () => {
    const hub = privateHub({ sandboxUrl: urls.appsSandbox });
    const s = await hub.servers.add({ name: 'Debug', url: urls.appsDebug });
    await hub.connect(s.id);
    const initialized = nextEvent<McpAppInitializedEvent>(window, 'mcp-app-initialized');
    const view = await fixture<McpAppViewElement>(
      html`<mcp-app-view .hub=${hub} server-id=${s.id} resource-uri="ui://debug-tool/mcp-app.html"></mcp-app-view>`,
    );
    await initialized;
    const button = await until(
      async () => view.shadowRoot!.querySelector<HTMLButtonElement>('[part=toolbar] [data-action=fullscreen]'),
      'the fullscreen button',
    );
    button.click();
    expect(view.displayMode).to.equal('fullscreen');
    await view.updateComplete;
    const box = view.shadowRoot!.querySelector<HTMLElement>('[part=frame]')!.getBoundingClientRect();
    expect(box.width).to.be.closeTo(innerWidth, 2);
    expect(box.bottom).to.be.closeTo(innerHeight, 2);
    // the view's logging calls may already ask: their bar sits above the view, not behind it
    const bars = [...view.shadowRoot!.querySelectorAll<HTMLElement>('.bar, .toolbar')]
      .map((b) => b.getBoundingClientRect())
      .filter((r) => r.bottom <= box.top + 1);
    if (!view.shadowRoot!.querySelector('.bar')) expect(box.top).to.be.closeTo(0, 2);
    else expect(box.top).to.be.closeTo(Math.max(...bars.map((r) => r.bottom)), 24);
    expect(view.shadowRoot!.querySelector('[data-action=inline]')).to.exist;
  });
});

describe('MCP Apps: bad input', () => {
  it('a sandbox URL that is not https (http on loopback), has credentials or is no string is refused and changes nothing', () => {
    const hub = privateHub({ sandboxUrl: urls.appsSandbox });
    for (const bad of ['ftp://sandbox.example/', 'http://sandbox.example/', 'https://u:p@sandbox.example/', 'nope', 42])
      expect(() => hub.setSandboxUrl(bad as string), String(bad)).to.throw(McpConfigError);
    expect(hub.sandboxUrl).to.equal(new URL(urls.appsSandbox).href);
    expect(() => privateHub({ sandboxUrl: 'javascript:alert(1)' })).to.throw(McpConfigError);
    hub.setSandboxUrl(null);
    expect(hub.sandboxUrl).to.equal(undefined);
  });

  it('a sandbox template is checked as a URL with {server} filled in; bad ones are refused and change nothing', () => {
    const hub = privateHub({ sandboxUrl: urls.appsSandboxPerServer });
    expect(hub.sandboxUrl).to.equal(urls.appsSandboxPerServer);
    expect(hub.status('nope').apps).to.equal(undefined);
    for (const bad of [
      // plain http off loopback once {server} is filled in; credentials; no URL at all
      'http://{server}.sandbox.example/index.html',
      'https://u:p@{server}.sandbox.example/',
      '{server}',
    ]) {
      expect(() => hub.setSandboxUrl(bad), bad).to.throw(McpConfigError);
      expect(() => privateHub({ sandboxUrl: bad }), bad).to.throw(McpConfigError);
    }
    expect(hub.sandboxUrl).to.equal(urls.appsSandboxPerServer);
    hub.setSandboxUrl('https://{server}.sandbox.example/index.html');
    expect(hub.sandboxUrl).to.equal('https://{server}.sandbox.example/index.html');
  });

  it('*.localhost counts as loopback for the sandbox page only: a server URL there must be https', async () => {
    const hub = privateHub({ sandboxUrl: 'http://{server}.localhost:8/index.html' });
    expect(hub.sandboxUrl).to.equal('http://{server}.localhost:8/index.html');
    // only a name under localhost: credentials, or localhost as a label of another name, are refused
    for (const bad of [
      'http://u:p@{server}.localhost:8/',
      'http://{server}.localhost.evil.example/',
      'http://{server}.localhost:8@evil.example/',
    ])
      expect(() => hub.setSandboxUrl(bad), bad).to.throw(McpConfigError);
    expect(hub.sandboxUrl).to.equal('http://{server}.localhost:8/index.html');
    // a server's URL is fetched from Node too, whose resolver need not map *.localhost to loopback
    expect(urlProblem('http://evil.localhost/mcp'), 'http to *.localhost as a server URL')
      .to.be.a('string')
      .that.matches(/must use https/);
    let refused: unknown;
    await hub.servers.add({ name: 'Sub', url: 'http://evil.localhost/mcp' }).catch((e: unknown) => (refused = e));
    expect(refused).to.be.instanceOf(McpConfigError);
    expect(hub.servers.list()).to.have.length(0);
  });

  for (const where of ['path', 'query'])
    it(`a view refuses a sandbox template with {server} in the ${where}: one origin for every server's views`, async () => {
      const port = new URL(urls.appsSandbox).port;
      const template =
        where === 'path'
          ? `http://127.0.0.1:${port}/{server}/index.html`
          : `http://sandbox.localhost:${port}/index.html?s={server}`;
      // through the hub option (it is a valid URL once filled in) and through the attribute
      for (const viaHub of [true, false]) {
        const { hub, s } = await setUp(viaHub ? template : undefined);
        const view = await fixture<McpAppViewElement>(
          html`<mcp-app-view
            .hub=${hub}
            sandbox-url=${viaHub ? '' : template}
            server-id=${s.id}
            resource-uri="ui://apps-fixture/probe.html"
          ></mcp-app-view>`,
        );
        const error = await until(async () => view.shadowRoot!.querySelector('[part=error]'), 'the error');
        expect(error.textContent).to.match(/\{server\} in the host name/);
        expect(view.shadowRoot!.querySelector('iframe')).to.equal(null);
      }
    });

  it('an HTML resource without profile=mcp-app (text/html alone) is not a view: refused by name, in the element too', async () => {
    const { hub, s } = await setUp(undefined);
    const e = await loadUiResource(hub, s.id, 'ui://apps-fixture/not-app.html').then(
      (r) => r as never,
      (x: Error & { code?: string }) => x,
    );
    expect(e, 'a text/html resource without the profile, loaded as a view').to.be.instanceOf(McpAppError);
    expect(e).to.deep.include({ code: 'not-an-app' });
    expect(e.message).to.match(/is not an MCP App view \(its MIME type must be text\/html;profile=mcp-app\)/);
    const view = await fixture<McpAppViewElement>(
      html`<mcp-app-view .hub=${hub} server-id=${s.id} resource-uri="ui://apps-fixture/not-app.html"></mcp-app-view>`,
    );
    const error = await until(async () => view.shadowRoot!.querySelector('[part=error]'), 'the error');
    expect(error.textContent).to.match(/not an MCP App view/);
    expect(view.shadowRoot!.querySelector('iframe')).to.equal(null);
  });

  it('a view refuses to start with a sandbox page on the page’s own origin', async () => {
    const { hub, s } = await setUp(undefined);
    const view = await fixture<McpAppViewElement>(
      html`<mcp-app-view
        .hub=${hub}
        sandbox-url=${`${location.origin}/index.html`}
        server-id=${s.id}
        resource-uri="ui://apps-fixture/probe.html"
      ></mcp-app-view>`,
    );
    const error = await until(async () => view.shadowRoot!.querySelector('[part=error]'), 'the error');
    expect(error.textContent).to.match(/another origin/);
    expect(view.shadowRoot!.querySelector('iframe')).to.equal(null);
  });
});
