import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { GptToolSelectorElement } from '../../src/index.js';
import { estimateTokens } from '../../src/core/index.js';
import { fixtureTenant, nextEvent, privateHub, recordEvents, urls, expectNoLeakedSubscriptions } from '../helpers.js';

const q = (el: Element, sel: string) => el.shadowRoot!.querySelector(sel) as HTMLElement;
const qa = (el: Element, sel: string) => [...el.shadowRoot!.querySelectorAll(sel)] as HTMLElement[];

async function setup() {
  const hub = privateHub();
  const a = await hub.servers.add({ name: 'Everything', url: urls.everything });
  const b = await hub.servers.add({ name: 'Fixture', url: fixtureTenant().url });
  await Promise.all([hub.connect(a.id), hub.connect(b.id)]);
  const el = await fixture<GptToolSelectorElement>(
    html`<gpt-tool-selector .hub=${hub} gpt-id="writer"></gpt-tool-selector>`,
  );
  return { hub, a, b, el };
}

describe('<gpt-tool-selector>', () => {
  it('is accessible when there are no servers', async () => {
    const el = await fixture<GptToolSelectorElement>(
      html`<gpt-tool-selector .hub=${privateHub()}></gpt-tool-selector>`,
    );
    expect(el.shadowRoot!.textContent).to.contain('No MCP servers yet');
    await expect(el).to.be.accessible();
  });

  it('lists servers with status and tool counts; unchecking a server removes its tools', async () => {
    const { hub, a, b, el } = await setup();
    await expect(el).to.be.accessible();
    const row = q(el, `[data-server="${b.id}"]`);
    expect(row.textContent).to.contain('Connected');
    const count = hub.catalogue(b.id)!.tools.length;
    expect(row.textContent).to.contain(`${count}/${count} tools`);
    const changed = nextEvent<CustomEvent>(window, 'mcp-tool-selection-changed');
    (row.querySelector('input[type=checkbox]') as HTMLInputElement).click();
    const ev = await changed;
    expect(ev.detail.assistantId).to.equal('writer');
    expect(Object.keys(ev.detail.profile.servers)).to.deep.equal([a.id]);
    expect(hub.modelTools({ assistantId: 'writer' }).every((t) => t.serverId === a.id)).to.equal(true);
  });

  it('chooses individual tools, select none/all, and shows the context cost', async () => {
    const { hub, b, el } = await setup();
    const before = el.contextCost.characters;
    expect(q(el, '[part=cost]').textContent).to.contain(before.toLocaleString('en'));
    const echo = q(el, `[data-server="${b.id}"] input[data-tool="echo"]`) as HTMLInputElement;
    const changed = nextEvent(window, 'mcp-tool-selection-changed');
    echo.click();
    await changed;
    await el.updateComplete;
    expect(hub.modelTools({ assistantId: 'writer' }).some((t) => t.name === 'Fixture__echo')).to.equal(false);
    expect(el.contextCost.characters).to.be.lessThan(before);
    let next = nextEvent(window, 'mcp-tool-selection-changed');
    q(el, '[data-action=none]').click();
    await next;
    expect(hub.toolsFor('openai', { assistantId: 'writer' })).to.deep.equal([]);
    next = nextEvent(window, 'mcp-tool-selection-changed');
    q(el, '[data-action=all]').click();
    await next;
    expect(hub.assistants.get('writer').servers).to.equal('all');
  });

  it('sets the approval mode, and a host can veto the change', async () => {
    const { hub, el } = await setup();
    const radio = (value: string) =>
      qa(el, 'input[type=radio]').find((r) => (r as HTMLInputElement).value === value) as HTMLInputElement;
    const seen = recordEvents(window, ['mcp-tool-selection-changed']);
    window.addEventListener('mcp-tool-selection-change-request', (e) => e.preventDefault(), { once: true });
    radio('auto').click();
    // an allowed change after the veto: once its event has arrived, a vetoed write that had
    // gone through anyway (the store applies writes in order) would have landed before it
    const changed = nextEvent<CustomEvent>(window, 'mcp-tool-selection-changed');
    radio('trusted-only').click();
    await changed;
    seen.stop();
    expect(seen.seen.map((e) => (e as CustomEvent).detail.profile.approval)).to.deep.equal(['trusted-only']);
    expect(hub.assistants.get('writer').approval).to.equal('trusted-only');
    await el.updateComplete;
    expect(radio('auto').checked).to.equal(false);
    const again = nextEvent(window, 'mcp-tool-selection-changed');
    radio('auto').click();
    await again;
    expect(hub.assistants.get('writer').approval).to.equal('auto');
  });

  // issue 38: "Run without asking" was chosen with no word of what it means
  it('"Run without asking" shows what it means, as the auto choice\'s description, only while it is the mode', async () => {
    const { hub, el } = await setup();
    const radio = (value: string) =>
      qa(el, 'input[type=radio]').find((r) => (r as HTMLInputElement).value === value) as HTMLInputElement;
    expect(hub.assistants.get('writer').approval).to.not.equal('auto');
    expect(q(el, '[part=auto-warning]')).to.equal(null);
    expect(radio('auto').hasAttribute('aria-describedby')).to.equal(false);
    const changed = nextEvent(window, 'mcp-tool-selection-changed');
    radio('auto').click();
    await changed;
    await el.updateComplete;
    const warning = q(el, '[part=auto-warning]');
    expect(warning, 'the warning').to.exist;
    expect(warning.textContent).to.match(/without asking you first/);
    expect(warning.textContent).to.match(/destructive tools/);
    expect(warning.checkVisibility()).to.equal(true);
    expect(radio('auto').getAttribute('aria-describedby')).to.equal(warning.id);
    await expect(el).to.be.accessible();
    // another mode: the warning goes with it
    const back = nextEvent(window, 'mcp-tool-selection-changed');
    radio('always-ask').click();
    await back;
    await el.updateComplete;
    expect(q(el, '[part=auto-warning]')).to.equal(null);
    expect(radio('auto').hasAttribute('aria-describedby')).to.equal(false);
  });

  it('lists trusted tools and removes one', async () => {
    const { hub, b, el } = await setup();
    await hub.assistants.trust('writer', b.id, 'echo');
    await el.updateComplete;
    expect(q(el, '[part=trusted]').textContent).to.contain('Fixture › echo');
    await expect(el).to.be.accessible();
    const changed = nextEvent(window, 'mcp-tool-selection-changed');
    q(el, '[data-action=untrust]').click();
    await changed;
    expect(hub.assistants.get('writer').trusted).to.deep.equal([]);
  });

  it('shows the token estimate per selected tool and per server, matching toolsFor', async () => {
    const { hub, b, el } = await setup();
    const row = q(el, `[data-server="${b.id}"]`);
    const entries = hub.toolsFor('openai', { assistantId: 'writer' }) as any[];
    const echo = entries.find((t) => t.function.name === 'Fixture__echo');
    const echoTokens = estimateTokens(echo);
    const tool = q(el, `[data-server="${b.id}"] input[data-tool="echo"]`).closest('li')!;
    expect(tool.querySelector('.tokens')!.getAttribute('data-tokens')).to.equal(String(echoTokens));
    expect(tool.querySelector('.tokens')!.textContent).to.contain(`~${echoTokens} tokens`);
    const serverTotal = entries
      .filter((t) => t.function.name.startsWith('Fixture__'))
      .reduce((n: number, t) => n + estimateTokens(t), 0);
    expect(row.querySelector('.row > .tokens')!.getAttribute('data-tokens')).to.equal(String(serverTotal));
    // an unselected tool has no estimate
    const changed = nextEvent(window, 'mcp-tool-selection-changed');
    (q(el, `[data-server="${b.id}"] input[data-tool="echo"]`) as HTMLInputElement).click();
    await changed;
    await el.updateComplete;
    expect(tool.querySelector('.tokens')).to.equal(null);
    expect(Number(row.querySelector('.row > .tokens')!.getAttribute('data-tokens'))).to.equal(serverTotal - echoTokens);
  });

  it('pins a tool with an accessible toggle; a host can veto; pinned tools survive a budget', async () => {
    const { hub, b, el } = await setup();
    const pin = q(el, `[data-server="${b.id}"] input[data-tool="echo"]`)
      .closest('li')!
      .querySelector('[data-action=pin]')!;
    expect(pin.tagName).to.equal('BUTTON');
    expect(pin.getAttribute('aria-pressed')).to.equal('false');
    expect(pin.getAttribute('aria-label')).to.match(/^Pin .*echo/i);
    const otherPin = q(el, `[data-server="${b.id}"] input[data-tool]:not([data-tool="echo"])`)
      .closest('li')!
      .querySelector('[data-action=pin]') as HTMLElement;
    const other = otherPin.closest('li')!.querySelector('input[data-tool]')!.getAttribute('data-tool');
    const seen = recordEvents(window, ['mcp-tool-selection-changed']);
    window.addEventListener('mcp-tool-selection-change-request', (e) => e.preventDefault(), { once: true });
    (pin as HTMLElement).click();
    // an allowed change after the veto; when its event is in, only it may have taken effect
    const allowed = nextEvent<CustomEvent>(window, 'mcp-tool-selection-changed');
    otherPin.click();
    await allowed;
    seen.stop();
    expect(seen.seen.map((e) => (e as CustomEvent).detail.profile.pinned)).to.deep.equal([
      [{ serverId: b.id, tool: other }],
    ]);
    expect(hub.assistants.get('writer').pinned).to.deep.equal([{ serverId: b.id, tool: other }]);
    await el.updateComplete;
    expect(pin.getAttribute('aria-pressed')).to.equal('false');
    const unpinned = nextEvent(window, 'mcp-tool-selection-changed');
    otherPin.click();
    await unpinned;
    const changed = nextEvent<CustomEvent>(window, 'mcp-tool-selection-changed');
    (pin as HTMLElement).click();
    expect((await changed).detail.profile.pinned).to.deep.equal([{ serverId: b.id, tool: 'echo' }]);
    await el.updateComplete;
    expect(pin.getAttribute('aria-pressed')).to.equal('true');
    await expect(el).to.be.accessible();
    const names = hub
      .modelTools({ assistantId: 'writer', query: 'sum of two numbers', maxTools: 1 })
      .map((t) => t.name);
    expect(names).to.deep.equal(['Fixture__echo']);
    const off = nextEvent(window, 'mcp-tool-selection-changed');
    (pin as HTMLElement).click();
    await off;
    await el.updateComplete;
    expect(pin.getAttribute('aria-pressed')).to.equal('false');
    expect(hub.assistants.get('writer').pinned).to.deep.equal([]);
  });

  it('the gpt-id attribute sets assistantId; the gptId property is its old name; the request carries both', async () => {
    const { hub, b, el } = await setup();
    expect([el.assistantId, el.gptId]).to.deep.equal(['writer', 'writer']);
    await hub.assistants.setServer('reader', b.id, false);
    el.gptId = 'reader';
    expect(el.assistantId).to.equal('reader');
    await el.updateComplete;
    expect((q(el, `[data-server="${b.id}"] input[type=checkbox]`) as HTMLInputElement).checked).to.equal(false);
    el.setAttribute('gpt-id', 'editor');
    await el.updateComplete;
    expect([el.assistantId, el.gptId]).to.deep.equal(['editor', 'editor']);
    const request = nextEvent<CustomEvent>(el, 'mcp-tool-selection-change-request');
    const changed = nextEvent<CustomEvent>(window, 'mcp-tool-selection-changed');
    q(el, '[data-action=none]').click();
    expect((await request).detail).to.deep.include({ assistantId: 'editor', gptId: 'editor', patch: { servers: {} } });
    expect((await changed).detail).to.include({ assistantId: 'editor', gptId: 'editor' });
  });

  it('leaves no subscription behind after 10 attach/detach cycles', () =>
    expectNoLeakedSubscriptions('gpt-tool-selector'));
});
