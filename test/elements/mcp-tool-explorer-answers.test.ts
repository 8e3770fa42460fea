// What a Read or a Get answers in <mcp-tool-explorer> (issue 38): the answer takes focus and comes
// into view (it is below the whole list on a narrow page). Against the real reference server.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { McpToolExplorerElement } from '../../src/index.js';
import { privateHub, untilRendered, urls } from '../helpers.js';

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
});
