// Proxy frames loaded ahead of a server's next view (src/apps/warm-frames.ts): where the engine
// keeps a moved frame's document (Element.moveBefore: Chromium, Firefox), the next view of a
// server takes the frame made for it, already loaded; WebKit 2.50 keeps none.
import { expect } from '@open-wc/testing';
import { fixture, html } from '@open-wc/testing';
import '../../src/elements/mcp-app-view/define.js';
import '../../src/elements/mcp-tool-call/define.js';
import type { McpAppInitializedEvent } from '../../src/events/app-initialized.js';
import { nextEvent, privateHub, until } from '../helpers.js';
import { connectApps, showCall, urls } from './helpers.js';
import { dropWarmFrames, MAX_WARM_FRAMES, warmFrame } from '../../src/apps/warm-frames.js';

const PROXY_READY = 'ui/notifications/sandbox-proxy-ready';
const keeps = typeof (Element.prototype as { moveBefore?: unknown }).moveBefore === 'function';
const shelf = () => [...(document.querySelector('mcp-warm-frames')?.shadowRoot?.querySelectorAll('iframe') ?? [])];

// every proxy-ready of the page, per window that sent it, and every method any frame sent:
// registered before any view, so it sees them before the warm frames' own listener takes theirs
const announced = new Map<MessageEventSource, number>();
const methods: string[] = [];
addEventListener(
  'message',
  (e) => {
    const method = (e.data as { method?: unknown } | null)?.method;
    if (typeof method === 'string') methods.push(method);
    if (method === PROXY_READY && e.source) announced.set(e.source, (announced.get(e.source) ?? 0) + 1);
  },
  true,
);

/** Whether a frame is rendered: checkVisibility (display, content-visibility, visibility) and its boxes. */
const hiddenWhileWaiting = (f: HTMLIFrameElement) => ({
  visible: f.checkVisibility({ visibilityProperty: true } as never),
  boxes: f.getClientRects().length,
});

const MODES = [
  { name: 'a sandbox origin per server', sandbox: () => urls.appsSandboxPerServer },
  { name: 'one sandbox origin', sandbox: () => urls.appsSandbox },
];

afterEach(() => dropWarmFrames());

for (const mode of MODES)
  describe(`MCP Apps: warm proxy frames (${mode.name})`, () => {
    it(`a server's next view takes the proxy loaded for it: the same frame, not loaded again${keeps ? '' : ' (none here: no moveBefore)'}`, async () => {
      const hub = privateHub({ sandboxUrl: mode.sandbox() });
      const { t, s } = await connectApps(hub);
      const first = await showCall(hub, s.id, 'show-probe', { text: 'one' });
      const firstFrame = first.view.shadowRoot!.querySelector('iframe')!;
      if (!keeps) {
        const second = await showCall(hub, s.id, 'show-probe', { text: 'two' });
        expect(document.querySelector('mcp-warm-frames')).to.equal(null);
        expect(second.view.shadowRoot!.querySelector('iframe')).not.to.equal(firstFrame);
        return;
      }
      const [warm] = await until(async () => (shelf().length === 1 ? shelf() : undefined), 'a warm frame');
      expect(warm.src).to.equal(firstFrame.src);
      await until(async () => (announced.get(warm.contentWindow!) === 1 ? true : undefined), 'the warm proxy ready');
      // while it waits it is not shown (so not in the accessibility tree), even where the page's
      // own styles would show the shelf
      expect(hiddenWhileWaiting(warm), 'the waiting frame').to.deep.equal({ visible: false, boxes: 0 });
      const pageStyle = document.createElement('style');
      pageStyle.textContent =
        'mcp-warm-frames, mcp-warm-frames * { display: block !important; visibility: visible !important }';
      document.head.append(pageStyle);
      try {
        expect(hiddenWhileWaiting(warm), 'the waiting frame, under page styles that show it').to.deep.equal({
          visible: false,
          boxes: 0,
        });
      } finally {
        pageStyle.remove();
      }
      const second = await showCall(hub, s.id, 'show-probe', { text: 'two' });
      // the same element, moved into the view's box with its document: no second load, no
      // second proxy-ready (which the view's guard would refuse)
      expect(second.view.shadowRoot!.querySelector('iframe')).to.equal(warm);
      expect(announced.get(warm.contentWindow!)).to.equal(1);
      // reachable: nothing of the shelf's hiding moved in with it
      expect(warm.hasAttribute('tabindex')).to.equal(false);
      expect(warm.hasAttribute('aria-hidden')).to.equal(false);
      expect(hiddenWhileWaiting(warm), 'the frame once taken').to.deep.include({ visible: true });
      // and it runs: the view reports its input (sent after initialized)
      const inputs = async () =>
        (await t.reports()).filter((r) => r.key === 'input').map((r) => (r.value as { text?: string }).text);
      await until(async () => ((await inputs()).includes('two') ? true : undefined), 'the second view input');
      // and one more waits for the view after it
      await until(async () => (shelf().length === 1 && shelf()[0] !== warm ? true : undefined), 'the next warm frame');
      await hub.dispose();
    });
  });

describe('MCP Apps: warm proxy frames, while a call waits for approval', () => {
  it(`<mcp-tool-call> readies the view of a model's call the user has not allowed yet: no view code runs, and once allowed the view takes the proxy${keeps ? '' : ' (no proxy kept here: no moveBefore)'}`, async () => {
    const hub = privateHub({ sandboxUrl: urls.appsSandboxPerServer });
    const { t } = await connectApps(hub);
    const waiting = nextEvent<CustomEvent>(hub, 'mcp-tool-call-awaiting-approval');
    const from = methods.length;
    const done = hub.callTool({ name: 'Apps__show-probe', arguments: { text: 'allowed' } });
    const id = (await waiting).detail.call.id as string;
    const card = await fixture(html`<mcp-tool-call .hub=${hub} call-id=${id}></mcp-tool-call>`);
    let warm: HTMLIFrameElement | undefined;
    if (keeps) {
      [warm] = await until(async () => (shelf().length === 1 ? shelf() : undefined), 'a proxy while approval waits');
      await until(async () => (announced.get(warm!.contentWindow!) === 1 ? true : undefined), 'the proxy ready');
    }
    // the server's code has not run: no view anywhere on the page has asked to initialize (a view
    // in a proxy would: the proxy passes its ui/initialize on to this page), nor reported a thing
    expect(card.shadowRoot!.querySelector('mcp-app-view')).to.equal(null);
    expect(methods.slice(from)).not.to.include('ui/initialize');
    expect((await t.reports()).map((r) => r.key)).not.to.include('init');
    const initialized = nextEvent<McpAppInitializedEvent>(window, 'mcp-app-initialized', (e) => e.detail.callId === id);
    hub.calls.approve(id);
    await initialized;
    const frame = card.shadowRoot!.querySelector('mcp-app-view')!.shadowRoot!.querySelector('iframe');
    if (keeps) expect(frame).to.equal(warm);
    else expect(document.querySelector('mcp-warm-frames')).to.equal(null);
    expect((await done).status).to.equal('success');
    await hub.dispose();
  });
});

describe('MCP Apps: warm proxy frames, taken while still loading', () => {
  it(`a view takes a proxy that has not announced itself yet: it announces once, after the move, and the view runs${keeps ? '' : ' (none here: no moveBefore)'}`, async () => {
    // the sandbox page answers 400 ms late: the second view comes long before its proxy is ready
    const sandboxUrl = `${urls.appsSandboxPerServer}?delay=400`;
    const hub = privateHub({ sandboxUrl });
    const { t, s } = await connectApps(hub);
    await showCall(hub, s.id, 'show-probe', { text: 'one' });
    if (!keeps) return expect(document.querySelector('mcp-warm-frames')).to.equal(null);
    const [warm] = await until(async () => (shelf().length === 1 ? shelf() : undefined), 'a warm frame');
    const record = await hub.callTool({
      serverId: s.id,
      tool: 'show-probe',
      source: 'user',
      arguments: { text: 'two' },
    });
    const initialized = nextEvent<McpAppInitializedEvent>(
      window,
      'mcp-app-initialized',
      (e) => e.detail.callId === record.id,
    );
    const view = await fixture<HTMLElement>(html`<mcp-app-view .hub=${hub} call-id=${record.id}></mcp-app-view>`);
    await until(
      async () => (view.shadowRoot!.querySelector('iframe') === warm ? true : undefined),
      'the view takes it',
    );
    expect(announced.get(warm.contentWindow!) ?? 0, 'not ready when taken').to.equal(0);
    await initialized;
    expect(announced.get(warm.contentWindow!)).to.equal(1);
    const inputs = async () =>
      (await t.reports()).filter((r) => r.key === 'input').map((r) => (r.value as { text?: string }).text);
    await until(async () => ((await inputs()).includes('two') ? true : undefined), 'the second view input');
    await hub.dispose();
  });
});

describe('MCP Apps: warm proxy frames, a host that removes them', () => {
  it(`the next view makes a frame of its own when the waiting ones were removed with their element${keeps ? '' : ' (none here: no moveBefore)'}`, async () => {
    const hub = privateHub({ sandboxUrl: urls.appsSandboxPerServer });
    const { s } = await connectApps(hub);
    await showCall(hub, s.id, 'show-probe', { text: 'one' });
    if (keeps) await until(async () => (shelf().length === 1 ? true : undefined), 'a warm frame');
    const [removed] = shelf();
    if (!keeps) expect(document.querySelector('mcp-warm-frames')).to.equal(null);
    document.querySelector('mcp-warm-frames')?.remove();
    if (keeps) {
      // the removed frame's entry does not keep its page from warming again
      warmFrame(removed!.src, removed!.getAttribute('allow') ?? '');
      expect(shelf().length).to.equal(1);
      expect(shelf()[0]).not.to.equal(removed);
    }
    const second = await showCall(hub, s.id, 'show-probe', { text: 'two' });
    const frame = second.view.shadowRoot!.querySelector('iframe')!;
    expect(frame.isConnected).to.equal(true);
    if (keeps) expect(frame).not.to.equal(removed);
    // and the page gets a shelf again for the view after it
    if (keeps) await until(async () => (shelf().length === 1 ? true : undefined), 'a new warm frame');
    await hub.dispose();
  });
});

describe('MCP Apps: warm proxy frames, the bound', () => {
  it(`keeps at most ${MAX_WARM_FRAMES} warm frames, the oldest dropped${keeps ? '' : ' (none here: no moveBefore)'}`, async () => {
    const page = (n: number) => {
      const u = new URL(urls.appsSandbox);
      u.searchParams.set('host', location.origin);
      u.searchParams.set('n', String(n));
      return u.href;
    };
    for (let n = 0; n < MAX_WARM_FRAMES + 2; n++) warmFrame(page(n), '');
    warmFrame(page(MAX_WARM_FRAMES + 1), '');
    const srcs = shelf().map((f) => new URL(f.src).searchParams.get('n'));
    if (!keeps) return expect(srcs).to.deep.equal([]);
    // the newest MAX_WARM_FRAMES, the page asked for twice kept once
    expect(srcs).to.deep.equal(Array.from({ length: MAX_WARM_FRAMES }, (_, i) => String(i + 2)));
    dropWarmFrames();
    expect(shelf()).to.deep.equal([]);
  });
});
