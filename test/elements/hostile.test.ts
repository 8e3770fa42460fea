// Safe rendering, hardened (issue 13 item 6): every string of test/fixtures/hostile-strings.mjs
// in every field test/fixtures/hostile-server.mjs sends, rendered through every element under a
// strict Content-Security-Policy (test/elements/hostile-page.ts does it in a frame and reports).
import { expect } from '@open-wc/testing';
import { HOSTILE_FIELDS, HOSTILE_STRINGS, HOSTILE_URLS, HOSTILE_URL_FIELDS } from '../fixtures/hostile-strings.mjs';
import { unique } from '../helpers.js';

interface Report {
  i: number;
  findings: string[];
  violations: string[];
  pwned: number;
  audits: number;
  rootsWalked: number;
  shown: Record<string, boolean>;
}

function renderIn(i: number, tenant: string): Promise<Report> {
  return new Promise((resolve) => {
    const frame = document.createElement('iframe');
    window.addEventListener('message', function on(e) {
      if (!e.data?.hostile || e.data.i !== i) return;
      window.removeEventListener('message', on);
      frame.remove();
      resolve(e.data);
    });
    frame.src = `/__hostile.html?i=${i}&tenant=${tenant}`;
    document.body.append(frame);
  });
}

describe('hostile strings in every server field, through every element, under a strict CSP', () => {
  const tenant = unique('hostile');
  const totals = { strings: 0, audits: 0, roots: 0 };
  (window as any).__pwned = 0;
  for (const [i, [label]] of HOSTILE_STRINGS.entries()) {
    it(`${label}: nothing runs, no violation, nothing unsafe in any shadow root, bidi neutralised`, async function () {
      this.timeout(60000);
      const r = await renderIn(i, tenant);
      // one comparison, so a failure shows everything that went wrong for this string
      expect({
        findings: r.findings,
        violations: r.violations,
        canaryInFrame: r.pwned,
        canaryInTestPage: (window as any).__pwned,
        shown: r.shown,
      }).to.deep.equal({
        findings: [],
        violations: [],
        canaryInFrame: 0,
        canaryInTestPage: 0,
        // every render really happened and shows the string as text, without bidi controls
        shown: {
          managerTest: true,
          'card content': true,
          safeImage: true,
          'card isError': true,
          'card rpc-error': true,
          cardElicitation: true,
          elicitation: true,
          explorerDetail: true,
          resources: true,
          prompt: true,
          log: true,
          selector: true,
        },
      });
      totals.strings++;
      totals.audits += r.audits;
      totals.roots += r.rootsWalked;
    });
  }
  after(() => {
    // the figures for docs/decisions/039-safe-rendering.md
    console.log(
      `hostile: ${totals.strings} strings × ${HOSTILE_FIELDS.length} fields = ${totals.strings * HOSTILE_FIELDS.length}, ` +
        `${HOSTILE_URLS.length} URLs × ${HOSTILE_URL_FIELDS.length} URL fields, ` +
        `${totals.audits} audited renders, ${totals.roots} shadow roots walked`,
    );
  });
});
