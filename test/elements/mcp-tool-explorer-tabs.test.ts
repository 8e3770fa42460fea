// <mcp-tool-explorer>'s Resources, Prompts and Log tabs load the first time they are shown
// (src/elements/mcp-tool-explorer/tabs.ts): a loading state while the chunk comes, a clear error
// when it cannot be fetched and another try at the next show, an early fetch on hover. Against the
// sources, whose tab imports the tests can slow down or fail; against the CDN build, the chunks.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { McpToolExplorerElement } from '../../src/index.js';
import { replaceTabImport } from '../../src/elements/mcp-tool-explorer/tabs.js';
import { privateHub, skipBecause, untilRendered, urls } from '../helpers.js';

const root = (el: Element) => el.shadowRoot!;
const q = <T extends HTMLElement = HTMLElement>(el: Element, sel: string) => root(el).querySelector(sel) as T;
/** Which build the elements run from this run (WTR_BUILD=cdn: the CDN entry and its chunks). */
async function build(): Promise<'cdn' | 'source'> {
  // @ts-expect-error served by the test runner (web-test-runner.config.mjs)
  return (await import('/__build.js')).default;
}

/** Wait, frame by frame, for what the element shows (not for updateComplete: it waits on the chunk). */
async function untilShown(check: () => unknown, what: string) {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => requestAnimationFrame(r));
  if (!check()) throw new Error(`gave up waiting for ${what}`);
}

/** The tab's import fails the first time, then is the real one; counts the attempts. */
function failOnce(tab: 'log' | 'prompts', error: Error) {
  const attempts = { count: 0 };
  replaceTabImport(tab, async (real) => {
    if (++attempts.count === 1) throw error;
    return real();
  });
  return attempts;
}

/** Show a tab and wait for it, keeping what the explorer logs (a failed import is logged). */
async function showLogging(el: McpToolExplorerElement, tab: string): Promise<unknown[][]> {
  const logged: unknown[][] = [];
  const error = console.error;
  console.error = (...args: unknown[]) => void logged.push(args);
  try {
    q(el, `#tab-${tab}`).click();
    await el.updateComplete;
  } finally {
    console.error = error;
  }
  return logged;
}

async function explorer() {
  const hub = privateHub();
  const s = await hub.servers.add({ name: 'Everything', url: urls.everything });
  await hub.connect(s.id, { discovery: 'complete' });
  return fixture<McpToolExplorerElement>(html`<mcp-tool-explorer .hub=${hub} server-id=${s.id}></mcp-tool-explorer>`);
}

describe('<mcp-tool-explorer> tabs as chunks', function () {
  before(async function () {
    // the build's explorer has its own copy of tabs.ts: its imports cannot be replaced from here
    if ((await build()) === 'cdn')
      skipBecause(this, 'in the CDN build: its copy of tabs.ts cannot be replaced from a test');
  });
  afterEach(() => {
    replaceTabImport('log');
    replaceTabImport('prompts');
  });

  it('shows a loading state while the tab comes, then the tab; accessible in both', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    replaceTabImport('log', async (real) => {
      await gate;
      return real();
    });
    const el = await explorer();
    q(el, '#tab-log').click();
    await untilShown(() => q(el, '[role=tabpanel] [role=status]'), 'the loading state');
    expect(q(el, '[role=tabpanel] [role=status]').textContent!.trim()).to.equal('Loading…');
    expect(q(el, '[role=tabpanel]').getAttribute('aria-busy')).to.equal('true');
    expect(q(el, '#tab-log').getAttribute('aria-selected')).to.equal('true');
    await expect(el).to.be.accessible();
    release();
    await el.updateComplete;
    expect(q(el, '[role=tabpanel] [part=log] #log-level')).to.exist;
    expect(q(el, '[role=tabpanel] [role=status]')).to.equal(null);
    expect(q(el, '[role=tabpanel]').hasAttribute('aria-busy')).to.equal(false);
    await expect(el).to.be.accessible();
  });

  it('an import that fails shows a clear error; showing the tab again tries again', async () => {
    const attempts = failOnce('log', new TypeError('Failed to fetch dynamically imported module: log-panel.js'));
    const el = await explorer();
    const logged = await showLogging(el, 'log');
    const alert = q(el, '[role=tabpanel] [role=alert]');
    expect(alert.textContent).to.contain('Could not load this tab.').and.contain('log-panel.js');
    expect(q(el, '[role=tabpanel]').hasAttribute('aria-busy')).to.equal(false);
    expect(String(logged[0]?.[0])).to.contain("could not load the explorer's log tab");
    await expect(el).to.be.accessible();
    // the same tab pressed again: the next show
    q(el, '#tab-log').click();
    await el.updateComplete;
    expect(attempts.count).to.equal(2);
    expect(q(el, '[role=tabpanel] [role=alert]')).to.equal(null);
    expect(q(el, '#log-level')).to.exist;
  });

  it('a failed import is tried again when the tab is shown after another', async () => {
    const attempts = failOnce('prompts', new Error('offline'));
    const el = await explorer();
    await showLogging(el, 'prompts');
    expect(q(el, '[role=alert]').textContent).to.contain('offline');
    q(el, '#tab-tools').click();
    await el.updateComplete;
    expect(attempts.count, 'no retry while another tab is shown').to.equal(1);
    q(el, '#tab-prompts').click();
    await el.updateComplete;
    expect(attempts.count).to.equal(2);
    expect(root(el).querySelectorAll('[data-action=get-prompt]').length).to.be.greaterThan(0);
  });

  it('hovering a tab fetches its chunk once, before it is shown', async () => {
    let imports = 0;
    replaceTabImport('prompts', (real) => {
      imports++;
      return real();
    });
    const el = await explorer();
    q(el, '#tab-prompts').dispatchEvent(new PointerEvent('pointerenter'));
    expect(imports).to.equal(1);
    expect(q(el, '#tab-tools').getAttribute('aria-selected'), 'still on Tools').to.equal('true');
    q(el, '#tab-prompts').click();
    await el.updateComplete;
    expect(imports).to.equal(1);
    expect(root(el).querySelectorAll('[data-action=get-prompt]').length).to.be.greaterThan(0);
  });

  it("a tab's strings and rules arrive with it: replaced strings and its styles apply", async () => {
    replaceTabImport('log');
    const el = await explorer();
    el.strings = { logClear: 'Leeren', logKind: 'Art' };
    q(el, '#tab-log').click();
    await el.updateComplete;
    expect(q(el, '[data-action=clear-log]').textContent!.trim()).to.equal('Leeren');
    expect(q(el, 'label[for=log-kind]').textContent!.trim()).to.equal('Art');
    // an English default that came with the tab's chunk
    expect(q(el, '[data-action=copy-log]').textContent!.trim()).to.equal('Copy log');
    // `.log { display: grid }` is one of the rules the log tab brings
    expect(getComputedStyle(q(el, '[part=log]')).display).to.equal('grid');
  });
});

describe('<mcp-tool-explorer> tabs in the CDN build', function () {
  before(async function () {
    if ((await build()) !== 'cdn')
      skipBecause(this, 'in the source build: the CDN pass (`npm test -- cdn`) runs these');
  });

  it('the tabs are chunks the explorer imports dynamically, never up front', async () => {
    const m = await (await fetch('/dist/cdn/manifest.json')).json();
    const own = m.elements['mcp-tool-explorer'] as string;
    const chunk = m.chunks[own] as { imports: string[]; dynamicImports: string[] };
    for (const mod of ['resources-prompts', 'log-panel']) {
      const file = m.modules[`src/elements/mcp-tool-explorer/${mod}.ts`] as string;
      expect(file, mod).to.be.a('string');
      expect(chunk.dynamicImports, mod).to.include(file);
      expect(chunk.imports, mod).not.to.include(file);
    }
    // nor does any chunk the explorer loads up front bring them in
    const upFront = new Set<string>();
    const walk = (f: string) => {
      if (upFront.has(f)) return;
      upFront.add(f);
      for (const i of m.chunks[f]?.imports ?? []) walk(i);
    };
    walk(own);
    for (const mod of ['resources-prompts', 'log-panel'])
      expect(upFront.has(m.modules[`src/elements/mcp-tool-explorer/${mod}.ts`]), mod).to.equal(false);
  });

  it('the Resources and Log tabs work from their chunks', async () => {
    const el = await explorer();
    q(el, '#tab-resources').click();
    await untilRendered(el, () => q(el, '[data-action=read]'), 'the resources');
    q(el, '[data-action=read]').click();
    await untilRendered(el, () => q(el, '[part=result]'), 'the contents');
    q(el, '#tab-log').click();
    await untilRendered(el, () => q(el, '#log-level'), 'the log tab');
    expect(getComputedStyle(q(el, '[part=log]')).display).to.equal('grid');
    // each came as its own file
    const m = await (await fetch('/dist/cdn/manifest.json')).json();
    const fetched = performance.getEntriesByType('resource').map((e) => e.name);
    for (const mod of ['resources-prompts', 'log-panel']) {
      const file = m.modules[`src/elements/mcp-tool-explorer/${mod}.ts`] as string;
      expect(
        fetched.some((url) => url.endsWith(`/dist/cdn/${file}`)),
        file,
      ).to.equal(true);
    }
  });
});
