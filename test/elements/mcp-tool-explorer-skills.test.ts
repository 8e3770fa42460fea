// <mcp-tool-explorer>'s Skills tab (SEP-2640) against the SDK's own skills server
// (test/fixtures/skills-server.mjs): listed when the tab is shown, no file read until "Use in
// chat", which loads and verifies the skill and fires `mcp-skill-loaded` for the chat page.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { McpSkillLoadedEvent, McpToolExplorerElement } from '../../src/index.js';
import { nextEvent, privateHub, unique, urls } from '../helpers.js';

const root = (el: Element) => el.shadowRoot!;
const q = <T extends HTMLElement = HTMLElement>(el: Element, sel: string) => root(el).querySelector(sel) as T;

/** Wait, frame by frame, for what the element shows. */
async function until(check: () => unknown, what: string) {
  for (let i = 0; i < 400 && !(await check()); i++) await new Promise((r) => requestAnimationFrame(r));
  if (!(await check())) throw new Error(`gave up waiting for ${what}`);
}

describe('<mcp-tool-explorer> skills tab', function () {
  this.timeout(30000);

  it('lists skills on show (no file read), "Use in chat" verifies one and hands it to the page', async () => {
    const hub = privateHub();
    const base = `${urls.skills}/t/${unique('skills')}`;
    const reads = async () =>
      ((await (await fetch(`${base}/seen`)).json()).calls as { read?: string }[]).map((c) => c.read);
    const lists = async () =>
      ((await (await fetch(`${base}/seen`)).json()).requests as { rpc?: { method?: string } }[]).filter(
        (r) => r.rpc?.method === 'skills/list',
      ).length;
    const s = await hub.servers.add({ name: 'Skills', url: `${base}/mcp` });
    await hub.connect(s.id, { discovery: 'complete' });
    const el = await fixture<McpToolExplorerElement>(
      html`<mcp-tool-explorer .hub=${hub} server-id=${s.id}></mcp-tool-explorer>`,
    );
    q(el, '#tab-skills').click();
    await until(() => root(el).querySelectorAll('[data-skill]').length === 2, 'the two skills');
    const items = [...root(el).querySelectorAll('[data-skill]')];
    expect(items.map((li) => li.querySelector('strong')!.textContent)).to.deep.equal([
      'pdf-processing',
      'release-notes',
    ]);
    expect(items[0].textContent).to.contain('Extract, fill, and assemble PDF documents').and.contain('2 files');
    expect(await reads()).to.deep.equal([]);
    await expect(el).to.be.accessible();

    const loaded = nextEvent<McpSkillLoadedEvent>(window, 'mcp-skill-loaded');
    (items[0].querySelector('[data-action=use-skill]') as HTMLButtonElement).click();
    const e = await loaded;
    expect(e.detail).to.include({ serverId: s.id, uri: 'skill://pdf-processing/SKILL.md', verified: true });
    expect(e.detail.body).to.match(/^# PDF processing/);
    await until(() => q(el, '.skill-body'), 'the loaded skill');
    expect(q(el, '.skill-body').textContent).to.equal(e.detail.body);
    expect(q(el, '[data-skill] [role=status]').textContent).to.contain('handed to the chat page');
    expect(await reads()).to.deep.equal(['skill://pdf-processing/SKILL.md']);
    await expect(el).to.be.accessible();
    // a new session (reconnect): listed again, once; still no file read for it
    expect(await lists()).to.equal(1);
    await hub.connect(s.id);
    await until(async () => (await lists()) === 2, 'a second skills/list');
    await until(() => root(el).querySelectorAll('[data-skill]').length === 2, 'the skills again');
    expect(await reads()).to.deep.equal(['skill://pdf-processing/SKILL.md']);
  });

  it('a server without skills: "No skills." and nothing asked of it', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'Everything', url: urls.everything });
    await hub.connect(s.id);
    const el = await fixture<McpToolExplorerElement>(
      html`<mcp-tool-explorer .hub=${hub} server-id=${s.id}></mcp-tool-explorer>`,
    );
    q(el, '#tab-skills').click();
    await until(() => root(el).textContent?.includes('No skills.'), '"No skills."');
    expect(hub.offersSkills(s.id)).to.equal(false);
    await expect(el).to.be.accessible();
  });
});
