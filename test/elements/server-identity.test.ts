// Servers with an identity (issue 25 item 10): the manager and the explorer show what a server
// says it is in its initialize result (title, version, description, icon, website), the protocol
// revision in words, and the explorer shows the server's instructions. The fixture's /id/ tenant
// gives all of it; the reference server gives a title and instructions; the 2026-07-28 peer and a
// plain JSON-RPC endpoint give their revisions.
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/index.js';
import type { McpServerManagerElement, McpToolExplorerElement } from '../../src/index.js';
import { privateHub, unique, untilRendered, urls } from '../helpers.js';
import { type } from './manager-form.js';

const TITLE = 'Fixture Notes';
const DESCRIPTION = 'Keeps short notes for the test suite; every tool answers at once.';
const INSTRUCTIONS = 'Use echo to repeat text.\nNever call hang unless asked to test cancellation.';
const identityUrl = () => `${urls.fixture.replace(/\/$/, '')}/id/${unique('id')}/mcp`;
const q = (el: Element, sel: string) => el.shadowRoot!.querySelector(sel) as HTMLElement | null;

async function connected(name: string, url: string) {
  const hub = privateHub();
  const s = await hub.servers.add({ name, url, retries: 0 });
  await hub.connect(s.id, { discovery: 'complete' });
  return { hub, s };
}

describe('servers with an identity', () => {
  it('manager row: icon, title, version and description on one line, the revision in words', async () => {
    const { hub, s } = await connected('notes', identityUrl());
    const el = await fixture<McpServerManagerElement>(html`<mcp-server-manager .hub=${hub}></mcp-server-manager>`);
    const row = q(el, `[data-server="${s.id}"]`)!;
    const icon = row.querySelector('img.server-icon') as HTMLImageElement;
    expect(icon.src).to.match(/^data:image\/png;base64,/);
    expect(icon.alt).to.equal('');
    const about = row.querySelector('[part=about]') as HTMLElement;
    expect(about.textContent!.trim()).to.equal(`${TITLE} 1.0.0 — ${DESCRIPTION}`);
    expect(about.title).to.equal(about.textContent!.trim());
    expect(getComputedStyle(about).whiteSpace).to.equal('nowrap');
    // the revision is for the curious: the status's title, not the row's text (issue 38)
    expect(row.querySelector('[part=status]')!.getAttribute('title')).to.equal(
      'Protocol: MCP 2025-11-25 (with a session)',
    );
    expect(row.querySelector('[part=revision]')).to.equal(null);
    expect(row.textContent).not.to.contain('2025-11-25');
    await expect(el).to.be.accessible();
  });

  it("the manager's Test connection names the server by its title, with its name and description", async () => {
    const hub = privateHub();
    const el = await fixture<McpServerManagerElement>(html`<mcp-server-manager .hub=${hub}></mcp-server-manager>`);
    (q(el, '[data-action=add]') ?? q(el, 'button'))!.click();
    await untilRendered(el, () => q(el, '#f-url'), 'the form');
    await type(el, 'name', 'notes');
    await type(el, 'url', identityUrl());
    q(el, '[data-action=test]')!.click();
    await untilRendered(el, () => q(el, '[part=test-result]'), 'the test result');
    const result = q(el, '[part=test-result]')!;
    expect(result.querySelector('strong')!.textContent).to.equal(`${TITLE} 1.0.0`);
    expect(result.textContent).to.contain('(mcp-elements-fixture)');
    expect(result.querySelector('[part=test-description]')!.textContent).to.equal(DESCRIPTION);
    expect(result.textContent).to.contain('MCP 2025-11-25 (with a session)');
    await expect(el).to.be.accessible();
  });

  it('explorer of one server: who it is, its website, and its instructions behind a disclosure (keyboard)', async () => {
    const { hub, s } = await connected('notes', identityUrl());
    const el = await fixture<McpToolExplorerElement>(
      html`<mcp-tool-explorer .hub=${hub} server-id=${s.id}></mcp-tool-explorer>`,
    );
    const about = q(el, '[part=about]')!;
    expect(about.querySelector('.about-head')!.textContent!.replace(/\s+/g, ' ').trim()).to.equal(
      `notes ${TITLE} 1.0.0`,
    );
    expect(about.querySelector('.about-description')!.textContent).to.equal(DESCRIPTION);
    const link = about.querySelector('a') as HTMLAnchorElement;
    expect(link.href).to.equal('https://example.com/fixture-notes');
    expect(link.textContent).to.equal(link.href);
    expect(link.rel).to.contain('noopener');
    expect(about.querySelector('[part=revision]')!.textContent).to.contain('MCP 2025-11-25 (with a session)');
    const box = about.querySelector('[part=instructions]') as HTMLDetailsElement;
    expect(box.open).to.equal(false);
    (box.querySelector('summary') as HTMLElement).focus();
    await sendKeys({ press: 'Enter' });
    await untilRendered(el, () => box.open, 'the instructions open');
    const text = box.querySelector('.instructions') as HTMLElement;
    // as text, line breaks kept
    expect(text.textContent).to.equal(INSTRUCTIONS);
    expect(text.children.length).to.equal(0);
    expect(getComputedStyle(text).whiteSpace).to.equal('pre-wrap');
    await expect(el).to.be.accessible();
  });

  it('explorer of every server: one disclosure lists each; the reference server by its title', async () => {
    const hub = privateHub();
    const a = await hub.servers.add({ name: 'notes', url: identityUrl() });
    const b = await hub.servers.add({ name: 'Everything', url: urls.everything });
    await Promise.all([hub.connect(a.id), hub.connect(b.id, { discovery: 'complete' })]);
    const el = await fixture<McpToolExplorerElement>(html`<mcp-tool-explorer .hub=${hub}></mcp-tool-explorer>`);
    const about = q(el, 'details[part=about]') as HTMLDetailsElement;
    expect(about.querySelector('summary')!.textContent!.trim()).to.equal('About the servers (2)');
    const ev = about.querySelector(`[data-server="${b.id}"]`)!;
    expect(ev.querySelector('.about-head')!.textContent).to.contain('Everything Reference Server 2.0.0');
    expect(ev.querySelector('[part=instructions]')).to.not.equal(null);
    about.open = true;
    await expect(el).to.be.accessible();
  });

  it('the revision in words for a 2026-07-28 server and a plain JSON-RPC endpoint', async () => {
    const modern = await connected('modern', `${urls.modern}/t/${unique('rev')}/mcp`);
    const plain = await connected('plain', urls.jsonrpc);
    for (const [{ hub, s }, words] of [
      [modern, 'MCP 2026-07-28 (stateless)'],
      [plain, 'Plain JSON-RPC (no MCP handshake)'],
    ] as const) {
      const el = await fixture<McpServerManagerElement>(html`<mcp-server-manager .hub=${hub}></mcp-server-manager>`);
      expect(q(el, `[data-server="${s.id}"] [part=status]`)!.getAttribute('title')).to.contain(words);
      // and in words in its edit form
      el.startEdit(s.id);
      await el.updateComplete;
      expect(q(el, `[data-server="${s.id}"] form [part=revision]`)!.textContent).to.contain(words);
    }
  });

  it('explorer names are cut with an ellipsis, the whole name as the tooltip', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'Everything', url: urls.everything });
    await hub.connect(s.id);
    const el = await fixture<McpToolExplorerElement>(
      html`<div style="width: 22rem"><mcp-tool-explorer .hub=${hub}></mcp-tool-explorer></div>`,
    ).then((d) => d.querySelector('mcp-tool-explorer') as McpToolExplorerElement);
    await untilRendered(el, () => q(el, '.row .name'), 'the rows');
    const long = [...el.shadowRoot!.querySelectorAll<HTMLElement>('.row .name')].find(
      (n) => n.scrollWidth > n.clientWidth,
    );
    expect(long, 'a name wider than its row').to.not.equal(undefined);
    expect(getComputedStyle(long!).textOverflow).to.equal('ellipsis');
    expect((long!.closest('.title') as HTMLElement).title).to.contain(long!.textContent!);
  });
});
