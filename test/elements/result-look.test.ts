// Results a person can read (issue 25 item 9, first part): prose in the body font, JSON data in
// the code font, and a structured result shown once (the tree), not also as its JSON twin.
// Against server-everything: echo (prose) and get-structured-content (structured + JSON text).
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { McpToolCallElement } from '../../src/index.js';
import { captureClipboard, privateHub, untilRendered, urls } from '../helpers.js';

async function resultOf(tool: string, args: Record<string, unknown>) {
  const hub = privateHub();
  const s = await hub.servers.add({ name: 'Everything', url: urls.everything });
  await hub.connect(s.id);
  await hub.assistants.update('default', { approval: 'auto' });
  const r = await hub.callTool({ serverId: s.id, tool, arguments: args });
  expect(r.status).to.equal('success');
  const el = await fixture<McpToolCallElement>(html`<mcp-tool-call .hub=${hub} call-id=${r.id}></mcp-tool-call>`);
  await untilRendered(el, () => el.shadowRoot!.querySelector('[part=result]'), 'the result');
  return { el, r, result: el.shadowRoot!.querySelector('[part=result]') as HTMLElement };
}

describe('result look', () => {
  it('prose in the body font, not the code font', async () => {
    const { el, result } = await resultOf('echo', { message: 'hello there' });
    const pre = result.querySelector('pre.text') as HTMLElement;
    expect(pre.classList.contains('prose')).to.equal(true);
    expect(getComputedStyle(pre).fontFamily).to.equal(getComputedStyle(el).fontFamily);
  });

  it('a structured result once: the tree, without its JSON twin as text', async () => {
    const { r, result } = await resultOf('get-structured-content', { location: 'New York' });
    expect(r.result?.structuredContent, 'the server sent structured content').to.be.an('object');
    const twin = (r.result?.content ?? []).find((c) => c.type === 'text');
    expect(twin, 'and its JSON as text').to.not.equal(undefined);
    expect(result.querySelector('[role=tree]')).to.not.equal(null);
    expect(result.querySelectorAll('pre.text').length).to.equal(0);
  });

  it('Copy puts the result text on the clipboard and says so', async () => {
    const { result } = await resultOf('echo', { message: 'copy me' });
    const { written, restore } = captureClipboard();
    try {
      (result.querySelector('[data-action=copy]') as HTMLButtonElement).click();
      const note = result.querySelector('.copy-note') as HTMLElement;
      await untilRendered({ updateComplete: Promise.resolve() }, () => note.textContent === 'Copied.', 'Copied.');
      expect(written).to.deep.equal(['Echo: copy me']);
    } finally {
      restore();
    }
  });
});
