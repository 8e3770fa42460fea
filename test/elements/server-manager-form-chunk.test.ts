// The manager's add/edit form is a chunk fetched the first time it opens. When it cannot be
// fetched, the manager says so with Cancel (before, the alert was all there was, and with no
// server yet the Add button never came back), and opening the form again imports it again.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { McpServerManagerElement } from '../../src/elements/mcp-server-manager/mcp-server-manager.js';
import { replaceServerFormImport } from '../../src/elements/mcp-server-manager/form-loader.js';
import { privateHub, skipBecause } from '../helpers.js';
import { q } from './manager-form.js';

async function click(el: McpServerManagerElement, action: string) {
  q(el, `[data-action="${action}"]`).click();
  await el.updateComplete;
}

describe('the server form as a chunk', function () {
  before(async function () {
    // the build has its own copy of form-loader.ts: its import cannot be replaced from here
    // @ts-expect-error served by the test runner (web-test-runner.config.mjs)
    if ((await import('/__build.js')).default === 'cdn')
      skipBecause(this, 'in the CDN build: its copy of form-loader.ts cannot be replaced from a test');
  });
  afterEach(() => replaceServerFormImport());

  it('a failed import: an alert and Cancel, which brings Add back; opening again imports the form again', async () => {
    let attempts = 0;
    replaceServerFormImport(() => {
      attempts++;
      return Promise.reject(new TypeError('Failed to fetch dynamically imported module: chunks/form.js'));
    });
    const error = console.error;
    console.error = () => {}; // the failed import is logged, as on a real page
    try {
      const el = await fixture<McpServerManagerElement>(
        html`<mcp-server-manager .hub=${privateHub()}></mcp-server-manager>`,
      );
      await click(el, 'add');
      const failed = q(el, '[part=form-failed]');
      expect(failed, 'the failure is shown').to.exist;
      expect(failed.querySelector('[role=alert]')!.textContent).to.equal(
        'The form could not be loaded. Check the connection, then reload the page.',
      );
      expect(q(el, '#f-name')).to.equal(null);
      await expect(el).to.be.accessible();

      // Cancel: back to the list with its Add button
      await click(el, 'cancel');
      expect(q(el, '[part=form-failed]')).to.equal(null);
      expect(q(el, '[data-action="add"]')).to.exist;

      // still failing: the failure again; then the import works and opening shows the form
      await click(el, 'add');
      expect(q(el, '[part=form-failed]')).to.exist;
      expect(attempts).to.equal(2);
      await click(el, 'cancel');
      replaceServerFormImport();
      await click(el, 'add');
      expect(q(el, '[part=form-failed]')).to.equal(null);
      expect(q(el, '#f-name'), 'the form').to.exist;
      await expect(el).to.be.accessible();
    } finally {
      console.error = error;
    }
  });
});
