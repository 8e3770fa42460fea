// theme="auto" (the default) matches the page the elements sit in, whatever the OS says: on a
// light-only page and on dark-only pages (dark by background, as G4F's chat is, and dark by
// `color-scheme` alone), in both OS schemes, every visible text of every element reads at
// 4.5:1 or better, measured from computed styles. theme="light|dark" and the tokens override.
import { expect, fixture, html } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import '../../src/index.js';
import { engine, privateHub } from '../helpers.js';
import { allElements as everything } from './all-elements.js';
import { textContrasts } from './contrast.js';

// Only CDP can switch prefers-color-scheme at run time; Firefox and WebKit run in the engine's own.
const osModes: Array<'light' | 'dark' | undefined> = engine === 'chromium' ? ['light', 'dark'] : [undefined];

const PAGES = {
  'light-only page (color-scheme: only light, white)': {
    css: 'html { color-scheme: only light; background: #ffffff; color: #111111; }',
    scheme: 'light',
  },
  'dark page by its background alone (like G4F: no color-scheme)': {
    css: 'html { background: #181a1b; color: #e8e6e3; } body { background: #181a1b; }',
    scheme: 'dark',
  },
  'dark-only page by color-scheme alone (canvas dark, no background set)': {
    css: 'html { color-scheme: only dark; }',
    scheme: 'dark',
  },
  'light page with a dark panel the elements sit in': {
    css: 'html { color-scheme: light; background: #fff; } #panel { background: rgb(30 30 36); color: #eee; }',
    scheme: 'dark',
  },
} as const;

let pageStyle: HTMLStyleElement | undefined;
function setPage(css: string) {
  pageStyle?.remove();
  pageStyle = document.createElement('style');
  pageStyle.textContent = css;
  document.head.append(pageStyle);
}
/** Wait for the page-wide watcher (one animation frame after the page's change). */
const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));

describe('theme="auto" follows the host page, not the OS', () => {
  afterEach(async () => {
    pageStyle?.remove();
    pageStyle = undefined;
    if (engine === 'chromium') await emulateMedia({ colorScheme: 'light' });
  });

  for (const [name, page] of Object.entries(PAGES))
    for (const os of osModes)
      it(`${name}${os ? `, OS ${os}` : ''}: the ${page.scheme} palette, every text at 4.5:1 or more`, async () => {
        if (os) await emulateMedia({ colorScheme: os });
        setPage(page.css);
        const { elements, finish } = await everything();
        await frame();
        for (const el of elements) {
          expect(el.matches(':state(host-dark)'), `${el.localName} dark`).to.equal(page.scheme === 'dark');
          const texts = textContrasts(el);
          expect(texts.length, `${el.localName} shows text`).to.be.greaterThan(0);
          const low = texts.filter((t) => t.ratio < 4.5);
          expect(low, `${el.localName}: texts under 4.5:1`).to.deep.equal([]);
        }
        await finish();
      });

  it('the page switching its own theme (a class on <body>) is followed; theme="light|dark" and tokens override', async () => {
    setPage('body.dark { background: #111; color: #eee; }');
    const hub = privateHub();
    const el = await fixture<any>(html`<mcp-tool-call .hub=${hub}></mcp-tool-call>`);
    const light = getComputedStyle(el).color;
    document.body.classList.add('dark');
    try {
      await frame();
      expect(el.matches(':state(host-dark)')).to.equal(true);
      const dark = getComputedStyle(el).color;
      expect(dark).not.to.equal(light);
      el.theme = 'light';
      await el.updateComplete;
      expect(getComputedStyle(el).color).to.equal(light);
      el.theme = 'auto';
      await el.updateComplete;
      expect(getComputedStyle(el).color).to.equal(dark);
      document.body.classList.remove('dark');
      await frame();
      expect(getComputedStyle(el).color).to.equal(light);
      el.setAttribute('theme', 'dark');
      await el.updateComplete;
      expect(getComputedStyle(el).color).to.equal(dark);
      el.style.setProperty('--mcp-color-text', 'rgb(1, 2, 3)');
      expect(getComputedStyle(el).color).to.equal('rgb(1, 2, 3)');
    } finally {
      document.body.classList.remove('dark');
    }
  });

  it('an element created before it is in the page, and moved from a light container to a dark one, follows', async () => {
    const hub = privateHub();
    const root = await fixture<HTMLElement>(
      html`<div>
        <div id="l" style="background:#fafafa"></div>
        <div id="d" style="background:#0b0b0b"></div>
      </div>`,
    );
    const el = document.createElement('mcp-task-monitor') as any;
    el.hub = hub;
    root.querySelector('#l')!.append(el);
    await el.updateComplete;
    expect(el.matches(':state(host-dark)')).to.equal(false);
    root.querySelector('#d')!.append(el);
    await el.updateComplete;
    expect(el.matches(':state(host-dark)')).to.equal(true);
  });
});
