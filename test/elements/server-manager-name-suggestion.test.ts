// Test connection with an empty Name (issue 38): instead of refusing, it tests, then fills the
// Name in with the server's own (serverInfo title, else name) and says so under the field. Saving
// with no Name, when no test found one, is still refused at the field.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/elements/mcp-server-manager/define.js';
import type { McpServerManagerElement } from '../../src/elements/mcp-server-manager/mcp-server-manager.js';
import { fixtureTenant, privateHub, untilRendered } from '../helpers.js';
import { q, type } from './manager-form.js';

async function addForm() {
  const hub = privateHub();
  const el = await fixture<McpServerManagerElement>(html`<mcp-server-manager .hub=${hub}></mcp-server-manager>`);
  el.startAdd();
  await el.updateComplete;
  return { hub, el };
}

describe('<mcp-server-manager>: a Name from the server', function () {
  this.timeout(30000);

  it('Test connection with an empty Name fills in the server’s own name and says so', async () => {
    const { hub, el } = await addForm();
    await type(el, 'url', fixtureTenant().url);
    q(el, '[data-action=test]').click();
    await untilRendered(el, () => q(el, '[part=test-result]'), 'the test result');
    expect(q(el, '#e-name'), 'no error for the empty Name').to.equal(null);
    expect(q<HTMLInputElement>(el, '#f-name').value).to.equal('mcp-elements-fixture');
    expect(q(el, '#h-name').textContent).to.contain('name the server gave itself');
    expect(q(el, '#f-name').getAttribute('aria-describedby')).to.contain('h-name');
    await expect(el).to.be.accessible();
    // the user's own choice replaces it, and the note goes
    await type(el, 'name', 'My fixture');
    expect(q(el, '#h-name')).to.equal(null);
    expect(hub.servers.list()).to.have.length(0);
  });

  it('a failed test leaves the Name empty; saving then is refused at the field', async () => {
    const { hub, el } = await addForm();
    await type(el, 'url', 'http://127.0.0.1:9/mcp');
    q(el, '[data-action=test]').click();
    await untilRendered(el, () => q(el, '[part=test-result]'), 'the test result');
    expect(q<HTMLInputElement>(el, '#f-name').value).to.equal('');
    (q(el, 'form') as HTMLFormElement).requestSubmit();
    await untilRendered(el, () => q(el, '#e-name'), 'the Name error');
    expect(q(el, '#e-name').textContent!.trim()).not.to.equal('');
    expect(hub.servers.list()).to.have.length(0);
  });
});
