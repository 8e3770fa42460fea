// The views that answer servers are a chunk of their own (src/internal/answer-list.ts). When it
// cannot be fetched, a card whose server asks for something says so (an alert, not an empty
// box) with "Try again"; trying again shows the form, and the answer still reaches the server.
// Against the sources, whose import the test can fail.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { McpElicitationElement, McpToolCallElement } from '../../src/index.js';
import { replaceAnswerViewsImport } from '../../src/internal/answer-list.js';
import { elicitingCall } from './eliciting-call.js';
import { acceptNameForm, privateHub, skipBecause, untilRendered, urls } from '../helpers.js';

const shadow = (el: Element) => el.shadowRoot!;

/** The views' import fails the first time, then is the real one; counts the attempts. */
function failOnce() {
  const attempts = { count: 0 };
  replaceAnswerViewsImport(async (real) => {
    if (++attempts.count === 1) throw new TypeError('Failed to fetch dynamically imported module');
    return real();
  });
  return attempts;
}

describe('the answer views as a chunk', function () {
  before(async function () {
    // the build has its own copy of answer-list.ts: its import cannot be replaced from here
    // @ts-expect-error served by the test runner (web-test-runner.config.mjs)
    if ((await import('/__build.js')).default === 'cdn')
      skipBecause(this, 'in the CDN build: its copy of answer-list.ts cannot be replaced from a test');
  });
  afterEach(() => replaceAnswerViewsImport());

  it('a failed import: the card says so with Try again, which shows the form; the answer reaches the server', async () => {
    const attempts = failOnce();
    const hub = privateHub();
    const logged: unknown[][] = [];
    const error = console.error;
    console.error = (...args: unknown[]) => void logged.push(args);
    let el: McpToolCallElement, p: Promise<{ status: string; result?: unknown }>;
    try {
      ({ el, p } = await elicitingCall(hub));
      await untilRendered(el, () => shadow(el).querySelector('[part=views-failed]'), 'the failure');
    } finally {
      console.error = error;
    }
    const alert = shadow(el).querySelector('[part=views-failed]')!;
    expect(alert.getAttribute('role')).to.equal('alert');
    expect(alert.textContent).to.contain(
      'A server is waiting for your answer, but this part of the page could not be loaded.',
    );
    expect(shadow(el).querySelector('mcp-elicitation-view')).to.equal(null);
    expect(logged.some((a) => String(a[0]).includes('could not load the answer views'))).to.equal(true);
    await expect(el).to.be.accessible();

    alert.querySelector('button')!.click();
    await untilRendered(el, () => shadow(el).querySelector('mcp-elicitation-view'), 'the form');
    expect(attempts.count).to.equal(2);
    expect(shadow(el).querySelector('[part=views-failed]')).to.equal(null);
    const form = shadow(el).querySelector('mcp-elicitation-view') as HTMLElement & { updateComplete: Promise<unknown> };
    await customElements.whenDefined('mcp-elicitation-view');
    await form.updateComplete;
    await acceptNameForm(form, 'Ada Lovelace');
    const r = await p;
    expect(r.status).to.equal('success');
    expect(JSON.stringify(r.result)).to.contain('Ada Lovelace');
  });

  it('<mcp-elicitation> shows the same failure, with the host’s strings', async () => {
    failOnce();
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'Everything', url: urls.everything, retries: 0 });
    await hub.connect(s.id);
    const el = await fixture<McpElicitationElement>(
      html`<mcp-elicitation
        .hub=${hub}
        .strings=${{ viewsFailed: 'Kon niet laden.', viewsRetry: 'Opnieuw' }}
      ></mcp-elicitation>`,
    );
    const error = console.error;
    console.error = () => {};
    try {
      // a request outside any call: the tool's own elicitation, answered here
      void hub.callTool({ serverId: s.id, tool: 'trigger-elicitation-request', source: 'user', arguments: {} });
      await untilRendered(el, () => shadow(el).querySelector('[part=views-failed]'), 'the failure');
    } finally {
      console.error = error;
    }
    const alert = shadow(el).querySelector('[part=views-failed]')!;
    expect(alert.textContent).to.contain('Kon niet laden.');
    expect(alert.querySelector('button')!.textContent!.trim()).to.equal('Opnieuw');
    await expect(el).to.be.accessible();
    alert.querySelector('button')!.click();
    await untilRendered(el, () => shadow(el).querySelector('mcp-elicitation-view'), 'the form');
    await hub.dispose();
  });
});
