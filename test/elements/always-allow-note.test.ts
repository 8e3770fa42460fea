// "Always allow" says what it will change before it does (issue 25 item 11): in an assistant that
// asks every time, it also switches the assistant to asking only for untrusted tools.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { McpToolCallElement } from '../../src/index.js';
import { fixtureTenant, nextEvent, privateHub } from '../helpers.js';

async function waiting(approval: 'always-ask' | 'trusted-only') {
  const hub = privateHub();
  const s = await hub.servers.add({ name: 'Fixture', url: fixtureTenant().url });
  await hub.connect(s.id);
  await hub.assistants.update('default', { approval });
  const asked = nextEvent<CustomEvent>(hub, 'mcp-tool-call-awaiting-approval');
  const p = hub.callTool({ name: 'Fixture__slow', arguments: { ms: 1 } });
  const id = (await asked).detail.call.id as string;
  const el = await fixture<McpToolCallElement>(html`<mcp-tool-call .hub=${hub} call-id=${id}></mcp-tool-call>`);
  await el.updateComplete;
  const button = el.shadowRoot!.querySelector('[data-action=always-allow]') as HTMLButtonElement;
  const note = el.shadowRoot!.getElementById(button.getAttribute('aria-describedby')!)!;
  return { hub, el, p, id, note };
}

describe('<mcp-tool-call> Always allow, explained', () => {
  it('always-ask: the note says the assistant will switch to asking only for untrusted tools', async () => {
    const { hub, el, p, id, note } = await waiting('always-ask');
    expect(note.textContent!.trim()).to.contain('switches the assistant from asking every time');
    await expect(el).to.be.accessible();
    hub.calls.deny(id);
    await p;
  });

  it('trusted-only: the note says it adds the tool to the trusted ones', async () => {
    const { hub, p, id, note } = await waiting('trusted-only');
    expect(note.textContent!.trim()).to.equal(
      '“Always allow” adds this tool to the tools the assistant runs without asking.',
    );
    hub.calls.deny(id);
    await p;
  });
});
