// Light and dark themes of every element, from the engine's real prefers-color-scheme. Its own
// file so that scripts/test.mjs can run it once more in Firefox and WebKit started in the dark
// scheme (WTR_COLOR_SCHEME=dark; web-test-runner.config.mjs), since neither can switch it at run
// time: each pass checks that the engine is in the scheme asked for and that the elements follow.
import { expect, fixture, html } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import '../../src/index.js';
import { CHAT_ELEMENT_TAGS, engine, privateHub } from '../helpers.js';

const TAGS = CHAT_ELEMENT_TAGS;
const colorOf = (el: Element) => getComputedStyle(el).color;
// Only CDP can switch prefers-color-scheme at run time (Firefox over BiDi and WebKit over
// WebDriver have no such command). There the engine is started in a scheme (its prefs, or GTK's
// dark theme: web-test-runner.config.mjs), and scripts/test.mjs runs these tests in both: each
// run checks that the engine really is in the scheme asked for and the elements follow it.
const canEmulateScheme = engine === 'chromium';
// @ts-expect-error served by the test runner (web-test-runner.config.mjs)
const engineScheme = (await import('/__scheme.js')).default as 'light' | 'dark';

describe('themes of all six elements', () => {
  afterEach(async () => {
    if (canEmulateScheme) await emulateMedia({ colorScheme: 'light' });
  });

  for (const tag of TAGS) {
    it(`<${tag}>: theme="system" follows prefers-color-scheme, theme attribute overrides, --mcp-* tokens apply`, async () => {
      const hub = privateHub();
      const el = await fixture(html`<div></div>`);
      const a = document.createElement(tag) as any;
      a.hub = hub;
      // the default (auto) follows the host page instead: test/elements/host-theme.test.ts
      a.setAttribute('theme', 'system');
      el.append(a);
      await a.updateComplete;
      if (canEmulateScheme) {
        await emulateMedia({ colorScheme: 'light' });
        const light = colorOf(a);
        await emulateMedia({ colorScheme: 'dark' });
        const dark = colorOf(a);
        expect(dark).not.to.equal(light);
        a.setAttribute('theme', 'light');
        expect(colorOf(a)).to.equal(light);
      } else {
        // the scheme the engine was started in: no attribute looks like the theme of that
        // scheme, the other differs (the run in the other scheme checks the other way round)
        expect(matchMedia('(prefers-color-scheme: dark)').matches, `the engine runs ${engineScheme}`).to.equal(
          engineScheme === 'dark',
        );
        const auto = colorOf(a);
        a.setAttribute('theme', engineScheme);
        expect(colorOf(a)).to.equal(auto);
        a.setAttribute('theme', engineScheme === 'dark' ? 'light' : 'dark');
        expect(colorOf(a)).not.to.equal(auto);
      }
      a.style.setProperty('--mcp-color-text', 'rgb(1, 2, 3)');
      expect(colorOf(a)).to.equal('rgb(1, 2, 3)');
    });
  }
});
