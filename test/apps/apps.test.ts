// MCP Apps through the hub and <mcp-app-view>, against real app servers: server-debug from npm
// (server-basic-vanillajs has a file of its own, vanilla.test.ts), and our fixture
// (test/fixtures/apps-server.mjs) for what they do not exercise. Each view runs in both modes:
// the sandbox proxy on its own origin, and the opaque srcdoc fallback.
import { expect, fixture, html } from '@open-wc/testing';
import type { ToolCallRecord } from '../../src/core/index.js';
import '../../src/elements/mcp-tool-call/define.js';
import '../../src/elements/mcp-app-view/define.js';
import '../../src/elements/gpt-tool-selector/define.js';
import '../../src/elements/mcp-tool-explorer/define.js';
import type { McpAppViewElement } from '../../src/elements/mcp-app-view/mcp-app-view.js';
import type { McpAppInitializedEvent } from '../../src/events/app-initialized.js';
import type { McpAppMessageEvent } from '../../src/events/app-message.js';
import { nextEvent, privateHub, unique, until } from '../helpers.js';
import { appsTenant, approveAppCalls, connectApps, MODES, showCall, urls } from './helpers.js';

describe('MCP Apps: server-debug through the hub (must show)', () => {
  it('keeps its app-only tools out of toolsFor (every format), modelTools and the selector', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'Debug', url: urls.appsDebug });
    await hub.connect(s.id);
    const names = hub.catalogue(s.id)!.tools.map((t) => t.name);
    expect(names).to.include.members(['debug-tool', 'debug-refresh', 'debug-log']);
    const openai = hub.toolsFor('openai') as { function: { name: string } }[];
    expect(openai.map((t) => t.function.name)).to.deep.equal(['Debug__debug-tool']);
    for (const p of ['openai-responses', 'anthropic', 'gemini'] as const)
      expect(JSON.stringify(hub.toolsFor(p))).not.to.match(/debug-(refresh|log)/);
    expect(hub.modelTools({ maxTokens: 100000 }).map((t) => t.tool.name)).to.deep.equal(['debug-tool']);
    const selector = await fixture<HTMLElement & { updateComplete: Promise<unknown> }>(
      html`<gpt-tool-selector .hub=${hub}></gpt-tool-selector>`,
    );
    await until(
      async () => selector.shadowRoot!.querySelector('[data-tool="debug-tool"]'),
      'selector lists debug-tool',
    );
    expect(selector.shadowRoot!.querySelector('[data-tool="debug-refresh"]')).to.equal(null);
    expect(selector.shadowRoot!.querySelector('[data-tool="debug-log"]')).to.equal(null);
    // its cost is the model's tools only
    const cost = JSON.stringify(hub.toolsFor('openai')).length;
    expect(cost).to.be.lessThan(JSON.stringify(hub.catalogue(s.id)!.tools).length);
  });

  for (const mode of MODES)
    it(`shows the view of a call (${mode.name}): it initialises, gets input and result, and its own app-only calls work`, async () => {
      const hub = privateHub({ sandboxUrl: mode.sandbox() });
      const stop = approveAppCalls(hub);
      const s = await hub.servers.add({ name: 'Debug', url: urls.appsDebug });
      await hub.connect(s.id);
      const marker = unique('marker');
      const initialized = nextEvent<McpAppInitializedEvent>(window, 'mcp-app-initialized');
      let card!: Element;
      const record = await hub.callTool({
        serverId: s.id,
        tool: 'debug-tool',
        source: 'user',
        arguments: { largeInput: marker, delayMs: 300 },
        onCall: (r) => {
          void fixture(html`<mcp-tool-call .hub=${hub} call-id=${r.id}></mcp-tool-call>`).then((el) => (card = el));
        },
      });
      expect(record.status).to.equal('success');
      const ev = await initialized;
      expect(ev.detail.callId).to.equal(record.id);
      expect(ev.detail.mode).to.equal(mode.sandbox() ? 'sandbox' : 'opaque-fallback');
      const view = card.shadowRoot!.querySelector('mcp-app-view') as McpAppViewElement;
      expect(view).to.exist;
      // the view reports what it receives through debug-log (an app-only tool) to the server's log
      const log = async () =>
        (
          (await fetch(`${urls.appsFixture}/debug-log`).then((r) => r.json())) as { type: string; payload: unknown }[]
        ).filter((e) => JSON.stringify(e).includes(marker));
      const seen = await until(async () => {
        const types = new Set((await log()).map((e) => e.type));
        return types.has('ontoolinput') && types.has('ontoolresult') ? types : undefined;
      }, 'the view saw input and result');
      expect([...seen]).to.include.members(['ontoolinput', 'ontoolresult']);
      const entries = await log();
      const input = entries.find((e) => e.type === 'ontoolinput')!.payload as { arguments: unknown };
      expect(input.arguments).to.deep.equal({ largeInput: marker, delayMs: 300 });
      const result = entries.find((e) => e.type === 'ontoolresult')!.payload as { structuredContent: unknown };
      expect(result.structuredContent).to.deep.equal(record.result!.structuredContent);
      const appCalls = hub.calls.list().filter((c) => c.source === 'app');
      expect(appCalls.length).to.be.greaterThan(0);
      expect(appCalls.every((c) => c.tool === 'debug-log' && c.serverId === s.id)).to.equal(true);
      expect(appCalls.some((c) => c.status === 'success')).to.equal(true);
      stop();
    });
});

describe('MCP Apps: what a view may ask', () => {
  for (const mode of MODES)
    it(`refuses a model-only tool, runs an app-only one, reads its own resources (${mode.name})`, async () => {
      const hub = privateHub({ sandboxUrl: mode.sandbox() });
      const t = appsTenant();
      const s = await hub.servers.add({ name: 'Apps', url: t.url });
      await hub.connect(s.id);
      expect(
        (hub.toolsFor('openai') as { function: { name: string } }[]).map((x) => x.function.name).sort(),
      ).to.deep.equal([
        'Apps__model-only',
        'Apps__show-hostile',
        'Apps__show-net',
        'Apps__show-plain',
        'Apps__show-probe',
      ]);
      const record = await hub.callTool({
        serverId: s.id,
        tool: 'show-probe',
        source: 'user',
        arguments: {
          actions: ['call-model-only', 'call-app-only', 'call-other-server', 'read', 'list-tools'],
          text: 'x',
        },
      });
      await fixture(html`<mcp-app-view .hub=${hub} call-id=${record.id}></mcp-app-view>`);
      const modelOnly = await t.report('call-model-only');
      expect(modelOnly.ok).to.equal(false);
      expect(String(modelOnly.e)).to.match(/visibility excludes "app"/);
      expect((await t.report('call-app-only')).ok).to.equal(true);
      expect(((await t.report('call-app-only')).r as { content: { text: string }[] }).content[0]!.text).to.equal(
        'app-only ran',
      );
      expect((await t.report('call-other-server')).ok).to.equal(false);
      expect(await t.report('read')).to.deep.equal({ ok: true, r: 'text/html;profile=mcp-app' });
      // the spec's subset only: no tools/list for views
      expect((await t.report('list-tools')).ok).to.equal(false);
      const result = await t.report('result');
      expect(result.structuredContent).to.deep.equal({ echoed: 'x' });
      // the refusal is logged with its reason in the server's log
      const logs = hub.store.state.logs[s.id] ?? [];
      expect(logs.some((l) => /model-only/.test(l.text))).to.equal(true);
    });

  it('declares the extension in both eras, gives the host context, keeps the read meta over the listing', async () => {
    const hub = privateHub({ sandboxUrl: urls.appsSandbox });
    const { t, s } = await connectApps(hub);
    const seen = (await t.seen()) as { initialize: Record<string, unknown>[]; discover: Record<string, unknown>[] };
    const ui = { mimeTypes: ['text/html;profile=mcp-app'] };
    expect(seen.initialize.at(-1)?.extensions).to.deep.include({ 'io.modelcontextprotocol/ui': ui });
    expect(seen.discover.length).to.be.greaterThan(0);
    expect((seen.discover.at(-1)?.extensions as Record<string, unknown>)?.['io.modelcontextprotocol/ui']).to.deep.equal(
      ui,
    );
    expect(hub.status(s.id).apps).to.deep.equal({
      mode: 'sandbox',
      sandboxOrigin: new URL(urls.appsSandbox).origin,
      viewTools: 5,
    });
    const view = await fixture<McpAppViewElement>(
      html`<mcp-app-view
        theme="dark"
        .hub=${hub}
        server-id=${s.id}
        resource-uri="ui://apps-fixture/probe.html"
      ></mcp-app-view>`,
    );
    const init = await t.report('init');
    const ctx = init.hostContext as Record<string, unknown> & { styles: { variables: Record<string, string> } };
    expect(ctx.theme).to.equal('dark');
    expect(ctx.displayMode).to.equal('inline');
    expect(ctx.locale).to.equal(navigator.language);
    expect(ctx.timeZone).to.equal(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(ctx.styles.variables['--color-background-primary']).to.match(/rgb|#/);
    expect(ctx.styles.variables['--font-sans']).to.be.a('string');
    expect(ctx.availableDisplayModes).to.deep.equal(['inline', 'fullscreen', 'pip']);
    expect(init.protocolVersion).to.equal('2026-01-26');
    // prefersBorder: the listing says false, the read result true: the read result wins
    expect(view.hasAttribute('data-border')).to.equal(true);
    // a theme switch reaches the view
    view.theme = 'light';
    const changed = await t.report('context-changed');
    expect(changed.theme).to.equal('light');
  });

  it('a resize of the element reaches the view: host-context-changed with the new container width, and nothing else', async () => {
    const hub = privateHub({ sandboxUrl: urls.appsSandbox });
    const { t, s } = await connectApps(hub);
    const view = await fixture<McpAppViewElement>(
      html`<mcp-app-view
        style="width: 480px"
        .hub=${hub}
        server-id=${s.id}
        resource-uri="ui://apps-fixture/probe.html"
      ></mcp-app-view>`,
    );
    const init = await t.report('init');
    expect((init.hostContext as { containerDimensions: unknown }).containerDimensions).to.deep.equal({
      width: 480,
      maxHeight: 800,
    });
    // the element's ResizeObserver: the view is told the new width (the SDK sends only what changed)
    view.style.width = '321px';
    const changed = await until(
      async () =>
        (await t.reports()).find(
          (r) =>
            r.key === 'context-changed' &&
            (r.value as { containerDimensions?: { width?: number } }).containerDimensions?.width === 321,
        ),
      'a context change with the new width',
    );
    expect(changed.value).to.deep.equal({ containerDimensions: { width: 321, maxHeight: 800 } });
  });

  it('opens http(s) links only after the user confirms; ui/message is a cancelable event; model context is kept', async () => {
    const hub = privateHub();
    const { t, s } = await connectApps(hub);
    const opened: unknown[] = [];
    const realOpen = window.open;
    window.open = ((...args: unknown[]) => (opened.push(args), null)) as typeof window.open;
    const messages: McpAppMessageEvent[] = [];
    const onMessage = (e: Event) => {
      messages.push(e as McpAppMessageEvent);
      if (messages.length > 1) e.preventDefault();
    };
    window.addEventListener('mcp-app-message', onMessage);
    try {
      const record = await hub.callTool({
        serverId: s.id,
        tool: 'show-probe',
        source: 'user',
        arguments: {
          actions: ['link-js', 'link', 'message', 'message', 'context', 'log'],
        },
      });
      const view = await fixture<McpAppViewElement>(
        html`<mcp-app-view .hub=${hub} call-id=${record.id}></mcp-app-view>`,
      );
      expect((await t.report('link-js')).r).to.deep.equal({ isError: true });
      const open = await until(
        async () => view.shadowRoot!.querySelector<HTMLButtonElement>('[data-action="open-link"]'),
        'the link confirmation',
      );
      expect(view.shadowRoot!.querySelector('[part="link"]')!.textContent).to.contain('https://example.com/docs');
      expect(opened).to.deep.equal([]);
      open.click();
      expect(opened).to.deep.equal([['https://example.com/docs', '_blank', 'noopener,noreferrer']]);
      expect((await t.report('link')).r).to.deep.equal({});
      const sent = await until(
        async () =>
          (await t.reports()).filter((r) => r.key === 'message').length === 2
            ? (await t.reports()).filter((r) => r.key === 'message')
            : undefined,
        'two messages',
      );
      expect(sent.map((r) => (r.value as { r: unknown }).r)).to.deep.equal([{}, { isError: true }]);
      expect(messages[0]!.detail.content).to.deep.equal([{ type: 'text', text: 'hello from the view' }]);
      expect(messages[0]!.detail.callId).to.equal(record.id);
      expect(messages[0]!.cancelable).to.equal(true);
      await t.report('context');
      expect(hub.modelContext({ serverId: s.id })).to.have.length(1);
      expect(hub.modelContext()[0]).to.deep.include({ viewId: view.viewId, callId: record.id, tool: 'show-probe' });
      expect(hub.modelContext()[0]!.structuredContent).to.deep.equal({ items: 3 });
      await t.report('log');
      expect(
        (hub.store.state.logs[s.id] ?? []).some((l) => l.text === 'view log line' && l.logger === 'probe'),
      ).to.equal(true);
      // display modes: display-modes.test.ts
      // removing the view forgets its model context, after ui/resource-teardown
      await view.close();
      await t.report('teardown');
      expect(hub.modelContext()).to.deep.equal([]);
    } finally {
      window.open = realOpen;
      window.removeEventListener('mcp-app-message', onMessage);
    }
  });

  it('asks before a view runs a tool that is not read-only; "Always for this view" asks no more', async () => {
    const hub = privateHub();
    const { t, s } = await connectApps(hub);
    const record = await hub.callTool({
      serverId: s.id,
      tool: 'show-probe',
      source: 'user',
      arguments: { actions: ['call-app-write', 'call-app-write'] },
    });
    const view = await fixture<McpAppViewElement>(html`<mcp-app-view .hub=${hub} call-id=${record.id}></mcp-app-view>`);
    const always = await until(
      async () => view.shadowRoot!.querySelector<HTMLButtonElement>('[part="approval"] [data-action="always-allow"]'),
      'the approval bar',
    );
    always.click();
    await until(
      async () => ((await t.reports()).filter((r) => r.key === 'call-app-write').length === 2 ? true : undefined),
      'both calls',
    );
    const writes = hub.calls.list().filter((c) => c.tool === 'app-write');
    expect(writes.map((c) => c.approval).sort()).to.deep.equal(['app-granted', 'user-always']);
  });
});

describe('MCP Apps: approvals of a view', () => {
  it('calls of one tool waiting together share one bar with their count; Allow once and Deny answer the oldest', async () => {
    const hub = privateHub();
    const { t, s } = await connectApps(hub);
    const { view } = await showCall(hub, s.id, 'show-probe', { actions: ['call-app-write-2'] });
    const bars = () => [...view.shadowRoot!.querySelectorAll<HTMLElement>('[part="approval"]')];
    await until(
      async () => (bars().length === 1 && /2 calls waiting/.test(bars()[0]!.textContent!) ? true : undefined),
      'one bar for two calls',
    );
    bars()[0]!.querySelector<HTMLButtonElement>('[data-action="allow-once"]')!.click();
    await until(
      async () => (bars().length === 1 && !/calls waiting/.test(bars()[0]!.textContent!) ? true : undefined),
      'one call left',
    );
    bars()[0]!.querySelector<HTMLButtonElement>('[data-action="deny"]')!.click();
    const both = (await t.report('call-app-write-2')) as unknown as { ok: boolean }[];
    expect(both.map((r) => r.ok).sort()).to.deep.equal([false, true]);
    const writes = hub.calls.list().filter((c) => c.tool === 'app-write');
    expect(writes.map((c) => c.status).sort()).to.deep.equal(['denied', 'success']);
    expect(bars()).to.have.length(0);
  });
});

describe('MCP Apps: ui/download-file', () => {
  it('saves a file the view offers only after the user confirms, with a safe name; refuses big files and non-http links', async () => {
    const hub = privateHub({ sandboxUrl: urls.appsSandbox });
    const { t, s } = await connectApps(hub);
    const saved: { name: string; text: Promise<string> }[] = [];
    const realCreate = URL.createObjectURL;
    const realClick = HTMLAnchorElement.prototype.click;
    const blobs = new Map<string, Blob>();
    URL.createObjectURL = (b: Blob) => {
      const u = realCreate(b);
      blobs.set(u, b);
      return u;
    };
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      if (this.download) saved.push({ name: this.download, text: blobs.get(this.href)!.text() });
      else realClick.call(this);
    };
    try {
      const record = await hub.callTool({
        serverId: s.id,
        tool: 'show-probe',
        source: 'user',
        arguments: { actions: ['download-big', 'download-js', 'download', 'download-cancel'] },
      });
      const view = await fixture<McpAppViewElement>(
        html`<mcp-app-view .hub=${hub} call-id=${record.id}></mcp-app-view>`,
      );
      expect((await t.report('download-big')).r).to.deep.equal({ isError: true });
      expect((await t.report('download-js')).r).to.deep.equal({ isError: true });
      const bar = await until(
        async () => view.shadowRoot!.querySelector<HTMLElement>('[part="download"]'),
        'the download bar',
      );
      expect(bar.textContent).to.contain('report.json');
      expect(saved).to.deep.equal([]);
      bar.querySelector<HTMLButtonElement>('[data-action="download"]')!.click();
      expect((await t.report('download')).r).to.deep.equal({});
      expect(saved.map((f) => f.name)).to.deep.equal(['report.json']);
      expect(await saved[0]!.text).to.equal('{"items":3}');
      const second = await until(
        async () =>
          view.shadowRoot!.querySelector<HTMLButtonElement>('[part="download"] [data-action="cancel-download"]'),
        'the second download bar',
      );
      second.click();
      expect((await t.report('download-cancel')).r).to.deep.equal({ isError: true });
      expect(saved).to.have.length(1);
      const logs = hub.store.state.logs[s.id] ?? [];
      expect(logs.some((l) => /Refused a download: larger than/.test(l.text))).to.equal(true);
      expect(logs.some((l) => /Refused a download: a linked file must be an http/.test(l.text))).to.equal(true);
    } finally {
      URL.createObjectURL = realCreate;
      HTMLAnchorElement.prototype.click = realClick;
    }
  });
});

describe('MCP Apps: sampling from a view', () => {
  it("goes through the server's sampling rules: offered only with a model and the server's consent, approved by the user", async () => {
    const hub = privateHub({ sandboxUrl: urls.appsSandbox });
    const asked: string[] = [];
    hub.setSamplingHandler(async (req) => ({ text: `answer to ${req.messages[0]!.text}`, model: 'fake-model' }), {
      review: false,
    });
    const onRequest = (e: Event) => {
      const { sampling } = (e as CustomEvent<{ sampling: { id: string; messages: { text: string }[] } }>).detail;
      asked.push(sampling.messages[0]!.text);
      hub.respondToSampling(sampling.id, { approve: true });
    };
    hub.addEventListener('mcp-sampling-request', onRequest);
    /** A probe view of a fresh tenant that asks the host's model; what the view was offered and got. */
    const sampleFrom = async (name: string, allowSampling: boolean) => {
      const { t, s } = await connectApps(hub, name);
      await hub.servers.update(s.id, { allowSampling });
      await showCall(hub, s.id, 'show-probe', { actions: ['sample'] });
      return { s, caps: (await t.report('init')).hostCapabilities as object, sampled: await t.report('sample') };
    };
    try {
      const yes = await sampleFrom('Apps', true);
      expect(yes.caps).to.have.property('sampling');
      expect(yes.sampled.ok).to.equal(true);
      expect(yes.sampled.r).to.deep.include({ role: 'assistant', model: 'fake-model' });
      expect((yes.sampled.r as { content: { text: string } }).content.text).to.equal('answer to a haiku about views');
      expect(asked).to.deep.equal(['a haiku about views']);
      // the user does not let this server sample: the view is not offered it, and is refused
      const no = await sampleFrom('Apps2', false);
      expect(no.caps).not.to.have.property('sampling');
      expect(no.sampled.ok).to.equal(false);
      expect(asked).to.have.length(1);
      expect((hub.store.state.logs[no.s.id] ?? []).some((l) => /Refused a sampling request/.test(l.text))).to.equal(
        true,
      );
    } finally {
      hub.removeEventListener('mcp-sampling-request', onRequest);
    }
  });
});

describe('MCP Apps: the explorer', () => {
  it('labels app-only tools and tools with a view; Try it shows the view under the call', async () => {
    const hub = privateHub();
    const t = appsTenant();
    const s = await hub.servers.add({ name: 'Apps', url: t.url });
    await hub.connect(s.id, { discovery: 'complete' });
    const el = await fixture<HTMLElement & { updateComplete: Promise<unknown> }>(
      html`<mcp-tool-explorer .hub=${hub} server-id=${s.id}></mcp-tool-explorer>`,
    );
    const root = el.shadowRoot!;
    const pick = async (name: string) => {
      const row = await until(
        async () => [...root.querySelectorAll<HTMLElement>('[role=option]')].find((o) => o.dataset.tool === name),
        `row ${name}`,
      );
      row.click();
      await el.updateComplete;
    };
    await pick('app-only');
    expect(root.querySelector('[data-badge="app-only"]')).to.exist;
    expect(root.querySelector('[data-badge="view"]')).to.exist;
    await pick('model-only');
    expect(root.querySelector('[data-badge="model-only"]')).to.exist;
    expect(root.querySelector('[data-badge="app-only"]')).to.equal(null);
    await pick('show-probe');
    const initialized = nextEvent<McpAppInitializedEvent>(window, 'mcp-app-initialized');
    const run = await until(
      async () => root.querySelector<HTMLButtonElement>('[data-action=run]:not([disabled])'),
      'Run',
    );
    run.click();
    const ev = await initialized;
    expect(ev.detail.serverId).to.equal(s.id);
    expect((await t.report('result')).content).to.deep.equal([{ type: 'text', text: 'probe: ' }]);
  });
});

describe('MCP Apps: history', () => {
  it('a reload shows a finished view again from the stored result (input and result re-sent)', async () => {
    const storeName = unique('store');
    const t = appsTenant();
    const hub = privateHub({ storeName });
    const s = await hub.servers.add({ name: 'Apps', url: t.url });
    await hub.connect(s.id);
    const done = await hub.callTool({
      serverId: s.id,
      tool: 'show-probe',
      source: 'user',
      arguments: { text: 'again' },
    });
    await hub.dispose();
    // a new page: the same store, nothing connected
    const next = privateHub({ storeName });
    await next.ready;
    expect(next.calls.get(done.id)?.status).to.equal('success');
    await fixture(html`<mcp-app-view .hub=${next} call-id=${done.id}></mcp-app-view>`);
    const result = await t.report('result');
    expect(result.structuredContent).to.deep.equal({ echoed: 'again' });
    expect((await t.report('input')).text).to.equal('again');
  });

  it('a view of an interrupted call shows that state and tells the view', async () => {
    const hub = privateHub();
    const { t, s } = await connectApps(hub);
    const call: ToolCallRecord = {
      id: unique('call'),
      assistantId: 'default',
      gptId: 'default',
      serverId: s.id,
      serverName: 'Apps',
      tool: 'show-probe',
      name: 'Apps__show-probe',
      arguments: { text: 'cut' },
      status: 'interrupted',
      source: 'model',
      createdAt: Date.now(),
      error: { code: 'interrupted', message: 'The page was closed or reloaded before this call finished.' },
    };
    const view = await fixture<McpAppViewElement>(html`<mcp-app-view .hub=${hub} .call=${call}></mcp-app-view>`);
    expect(view.shadowRoot!.querySelector('[part="notice"]')!.textContent).to.match(/interrupted/);
    const cancelled = await t.report('cancelled');
    expect(cancelled.reason).to.match(/closed or reloaded/);
  });
});
