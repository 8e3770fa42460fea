// What a Read or a Get answers in <mcp-tool-explorer> (issue 38): the answer takes focus and comes
// into view (it is below the whole list on a narrow page). Against the real reference server.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { McpToolExplorerElement } from '../../src/index.js';
import { REQUIRED_MESSAGE } from '../../src/internal/required.js';
import { fixtureTenant, privateHub, untilRendered, urls } from '../helpers.js';

const root = (el: Element) => el.shadowRoot!;
const q = <T extends HTMLElement = HTMLElement>(el: Element, sel: string) => root(el).querySelector(sel) as T;
const qa = (el: Element, sel: string) => [...root(el).querySelectorAll(sel)] as HTMLElement[];

/** The explorer on server-everything in a phone-wide column, on the given tab, scrolled to the top. */
async function narrowExplorer(tab: 'resources' | 'prompts') {
  const hub = privateHub();
  const s = await hub.servers.add({ name: 'Everything', url: urls.everything });
  await hub.connect(s.id, { discovery: 'complete' });
  const column = await fixture<HTMLElement>(
    html`<div><mcp-tool-explorer .hub=${hub} server-id=${s.id}></mcp-tool-explorer></div>`,
  );
  column.style.width = '390px';
  const el = column.querySelector('mcp-tool-explorer')!;
  q(el, `#tab-${tab}`).click();
  await el.updateComplete;
  scrollTo(0, 0);
  return { hub, s, el };
}

/** The region is the focused element of the explorer and its top is inside the window. */
function expectFocusedInView(el: McpToolExplorerElement, region: HTMLElement) {
  expect(root(el).activeElement, 'focus on the answer').to.equal(region);
  const r = region.getBoundingClientRect();
  expect(r.top, 'the answer’s top in the window').to.be.within(0, innerHeight - 1);
  expect(region.getAttribute('tabindex')).to.equal('-1');
  const label = root(el).getElementById(region.getAttribute('aria-labelledby')!);
  expect(label?.textContent?.trim(), 'the answer is labelled').to.not.equal('');
}

describe('<mcp-tool-explorer> answers', () => {
  afterEach(() => scrollTo(0, 0));

  it('Read: the contents take focus and come into view', async () => {
    const { el } = await narrowExplorer('resources');
    const read = qa(el, '[data-action=read]');
    // the answer shows below the whole list: out of view when asked
    expect(read.at(-1)!.getBoundingClientRect().top, 'the list is taller than the window').to.be.greaterThan(
      innerHeight,
    );
    read[0].focus();
    read[0].click();
    await untilRendered(
      el,
      () => q(el, '#contents [part=result]') && root(el).activeElement?.id === 'contents',
      'the read',
    );
    expectFocusedInView(el, q(el, '#contents'));
    expect(q(el, '#contents-title').textContent).to.contain('Contents of');
    await expect(el).to.be.accessible();
  });

  it('Read that fails: the error takes focus and comes into view', async () => {
    const { el, hub, s } = await narrowExplorer('resources');
    const tpl = hub.catalogue(s.id)!.resourceTemplates.find((t) => /text/.test(t.uriTemplate))!;
    const item = qa(el, '[data-action=read-template]').find((b) => b.getAttribute('aria-label')!.endsWith(tpl.name))!;
    const input = item.parentElement!.querySelector<HTMLInputElement>('[data-param]')!;
    input.value = 'not-a-number';
    input.dispatchEvent(new Event('input'));
    await el.updateComplete;
    item.click();
    await untilRendered(
      el,
      () => q(el, '#contents [role=alert]') && root(el).activeElement?.id === 'contents',
      'the error',
    );
    expectFocusedInView(el, q(el, '#contents'));
  });

  it('Get: the prompt takes focus and comes into view', async () => {
    const { el, hub, s } = await narrowExplorer('prompts');
    const simple = hub.catalogue(s.id)!.prompts.find((p) => !(p.arguments ?? []).length)!;
    const get = qa(el, '[data-action=get-prompt]');
    expect(get.at(-1)!.getBoundingClientRect().bottom, 'the list is taller than the window').to.be.greaterThan(
      innerHeight,
    );
    const button = get.find((b) => b.dataset.prompt === simple.name)!;
    button.focus();
    button.click();
    await untilRendered(
      el,
      () => q(el, '#prompt-answer .message') && root(el).activeElement?.id === 'prompt-answer',
      'the prompt',
    );
    expectFocusedInView(el, q(el, '#prompt-answer'));
    expect(q(el, '#prompt-answer-title').textContent).to.contain(simple.title ?? simple.name);
    await expect(el).to.be.accessible();
  });

  it('focus stays where the user moved it while the answer came', async () => {
    const { el } = await narrowExplorer('resources');
    const read = qa(el, '[data-action=read]');
    read[0].focus();
    read[0].click();
    // the user went on to another control before the answer arrived
    read[1].focus();
    await untilRendered(el, () => q(el, '#contents [part=result]'), 'the read');
    await el.updateComplete;
    expect(root(el).activeElement).to.equal(read[1]);
  });

  it('Get with a required argument empty: nothing is sent, the field says so and takes focus', async () => {
    const { el, hub, s } = await narrowExplorer('prompts');
    // count what reaches the server's getPrompt
    let sent = 0;
    const client = hub.client.bind(hub);
    hub.client = (id: string) => {
      const c = client(id);
      return { ...c, getPrompt: (...args: Parameters<typeof c.getPrompt>) => (sent++, c.getPrompt(...args)) };
    };
    const prompt = hub.catalogue(s.id)!.prompts.find((p) => p.name === 'args-prompt')!;
    const required = prompt.arguments!.find((a) => a.required)!;
    const get = qa(el, '[data-action=get-prompt]').find((b) => b.dataset.prompt === prompt.name)!;
    get.click();
    await el.updateComplete;
    const field = q<HTMLInputElement>(el, `[data-prompt-arg="${required.name}"]`);
    expect(sent, 'no request').to.equal(0);
    expect(q(el, '#prompt-answer')).to.equal(null);
    expect(field.getAttribute('aria-invalid')).to.equal('true');
    const said = field
      .getAttribute('aria-describedby')!
      .split(' ')
      .map((id) => root(el).getElementById(id)!.textContent);
    expect(said).to.include(REQUIRED_MESSAGE);
    expect(REQUIRED_MESSAGE).to.equal('This field is required.');
    expect(root(el).activeElement).to.equal(field);
    // the optional one is not marked
    const optional = prompt.arguments!.find((a) => !a.required)!;
    expect(q(el, `[data-prompt-arg="${optional.name}"]`).hasAttribute('aria-invalid')).to.equal(false);
    await expect(el).to.be.accessible();
    // filled in: the mark goes, and Get sends
    field.value = 'Paris';
    field.dispatchEvent(new Event('input'));
    await el.updateComplete;
    expect(field.hasAttribute('aria-invalid')).to.equal(false);
    expect(root(el).textContent).to.not.contain(REQUIRED_MESSAGE);
    get.click();
    await untilRendered(el, () => q(el, '#prompt-answer .message'), 'the prompt');
    expect(sent).to.equal(1);
    expect(q(el, '#prompt-answer').textContent).to.contain('Paris');
  });

  /** The suggestions offered with a field: its datalist's values. */
  const offered = (el: Element, input: HTMLInputElement) =>
    [
      ...(root(el)
        .getElementById(input.getAttribute('list') ?? '')
        ?.querySelectorAll('option') ?? []),
    ].map((o) => o.value);
  const type = (input: HTMLInputElement, value: string) => {
    input.value = value;
    input.dispatchEvent(new Event('input'));
  };

  it('completion: a prompt argument offers the server’s values as typed, the other arguments as context', async () => {
    const { el, hub } = await narrowExplorer('prompts');
    // count the completion requests (debounced while typing)
    let asked = 0;
    const client = hub.client.bind(hub);
    hub.client = (id: string) => {
      const c = client(id);
      return { ...c, complete: (...args: Parameters<typeof c.complete>) => (asked++, c.complete(...args)) };
    };
    const dept = q<HTMLInputElement>(el, '[data-prompt-arg=department]');
    const name = q<HTMLInputElement>(el, '[data-prompt-arg=name]');
    expect(root(el).getElementById(dept.getAttribute('list')!)?.localName).to.equal('datalist');
    dept.focus();
    await untilRendered(el, () => offered(el, dept).length === 4, 'the departments');
    expect(offered(el, dept)).to.deep.equal(['Engineering', 'Sales', 'Marketing', 'Support']);
    expect(asked, 'one request on focus').to.equal(1);
    // typed quickly: one request after the pause, for the last value
    for (const v of ['S', 'Su', 'Sup']) type(dept, v);
    await untilRendered(el, () => offered(el, dept).join() === 'Support', 'the narrowed departments');
    expect(asked, 'focus + one after typing').to.equal(2);
    type(dept, 'Engineering');
    name.focus();
    // the department chosen goes with the request: its team
    await untilRendered(el, () => offered(el, name).join() === 'Alice,Bob,Charlie', 'the team');
    await expect(el).to.be.accessible();
  });

  it('completion: a resource template variable too', async () => {
    const { el } = await narrowExplorer('resources');
    const input = qa(el, '[data-param=resourceId]')[0] as HTMLInputElement;
    input.focus();
    type(input, '42');
    await untilRendered(el, () => offered(el, input).join() === '42', 'the suggestion');
  });

  it('completion: nothing offered or asked when the server declares no completions', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'fx', url: fixtureTenant().url });
    await hub.connect(s.id, { discovery: 'complete' });
    let asked = 0;
    const client = hub.client.bind(hub);
    hub.client = (id: string) => {
      const c = client(id);
      return { ...c, complete: (...args: Parameters<typeof c.complete>) => (asked++, c.complete(...args)) };
    };
    const el = await fixture<McpToolExplorerElement>(
      html`<mcp-tool-explorer .hub=${hub} server-id=${s.id}></mcp-tool-explorer>`,
    );
    q(el, '#tab-resources').click();
    await el.updateComplete;
    const input = q<HTMLInputElement>(el, '[data-param=q]');
    input.focus();
    type(input, 'mcp');
    await el.updateComplete;
    expect(input.hasAttribute('list')).to.equal(false);
    expect(root(el).querySelector('datalist')).to.equal(null);
    expect(asked).to.equal(0);
  });
});
