import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
// the "Try it" form loads lazily with the explorer; the corpus tests below use it directly
import '../../src/internal/schema-form-define.js';
import { validateArguments, type McpToolExplorerElement } from '../../src/index.js';
import type { McpSchemaForm } from '../../src/internal/schema-form.js';
import { fixtureTenant, nextEvent, privateHub, urls, expectNoLeakedSubscriptions, untilRendered } from '../helpers.js';
import { CORPUS } from '../fixtures/schemas.js';

const root = (el: Element) => el.shadowRoot!;
const q = <T extends HTMLElement = HTMLElement>(el: Element, sel: string) => root(el).querySelector(sel) as T;
const qa = (el: Element, sel: string) => [...root(el).querySelectorAll(sel)] as HTMLElement[];

async function everything() {
  const hub = privateHub();
  const s = await hub.servers.add({ name: 'Everything', url: urls.everything });
  // resources and prompts too (a connect resolves once the tools are in)
  await hub.connect(s.id, { discovery: 'complete' });
  const el = await fixture<McpToolExplorerElement>(
    html`<mcp-tool-explorer .hub=${hub} server-id=${s.id}></mcp-tool-explorer>`,
  );
  return { hub, s, el };
}
async function search(el: McpToolExplorerElement, text: string) {
  const input = q<HTMLInputElement>(el, 'input[type=search]');
  input.value = text;
  input.dispatchEvent(new Event('input'));
  await el.updateComplete;
}
async function pick(el: McpToolExplorerElement, name: string) {
  await search(el, name);
  (qa(el, '[role=option]').find((o) => o.dataset.tool === name) as HTMLElement).click();
  await el.updateComplete;
}

describe('<mcp-tool-explorer>', () => {
  it('empty state is accessible', async () => {
    const el = await fixture<McpToolExplorerElement>(
      html`<mcp-tool-explorer .hub=${privateHub()}></mcp-tool-explorer>`,
    );
    expect(root(el).textContent).to.contain('No tools');
    await expect(el).to.be.accessible();
  });

  it('lists and searches tools; keyboard selects; badges and output schema shown', async () => {
    const { el, hub, s } = await everything();
    expect(qa(el, '[role=option]').length).to.equal(hub.catalogue(s.id)!.tools.length);
    await expect(el).to.be.accessible();
    await search(el, 'structured');
    expect(qa(el, '[role=option]').map((o) => o.dataset.tool)).to.deep.equal(['get-structured-content']);
    await search(el, '');
    const list = q(el, '[role=listbox]');
    list.focus();
    list.dispatchEvent(new KeyboardEvent('keydown', { key: 'End', bubbles: true }));
    list.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    await el.updateComplete;
    expect(q(el, '[part=detail] h3')).to.exist;
    await pick(el, 'trigger-long-running-operation');
    expect(q(el, '.badges').textContent).to.contain('read-only');
    await pick(el, 'get-structured-content');
    expect(root(el).textContent).to.contain('Output schema');
    await expect(el).to.be.accessible();
  });

  it('Try it: the generated form runs echo and shows the result; raw JSON is validated as you type', async () => {
    const { el } = await everything();
    await pick(el, 'echo');
    const form = q<McpSchemaForm>(el, 'mcp-schema-form');
    await form.updateComplete;
    const input = form.shadowRoot!.querySelector('input') as HTMLInputElement;
    input.value = 'from the form';
    input.dispatchEvent(new Event('input'));
    await el.updateComplete;
    expect(q(el, '#args-problem').textContent).to.equal('');
    const completed = nextEvent(window, 'mcp-tool-call-completed');
    q(el, '[data-action=run]').click();
    await completed;
    await untilRendered(el, () => root(el).textContent!.includes('Echo: from the form'), 'the result');
    // raw JSON mode
    q(el, '[data-action=raw]').click();
    await el.updateComplete;
    const area = q<HTMLTextAreaElement>(el, '#raw-args');
    expect(JSON.parse(area.value)).to.deep.equal({ message: 'from the form' });
    area.value = '{"message": ';
    area.dispatchEvent(new Event('input'));
    await el.updateComplete;
    expect(q(el, '#args-problem').textContent).to.contain('Not valid JSON');
    expect(q<HTMLButtonElement>(el, '[data-action=run]').disabled).to.equal(true);
    area.value = '{"message": 5}';
    area.dispatchEvent(new Event('input'));
    await el.updateComplete;
    expect(q(el, '#args-problem').textContent).to.contain('"message"');
    await expect(el).to.be.accessible();
  });

  it('resources: list, read, and read a template with its parameter', async () => {
    const { el, hub, s } = await everything();
    q(el, '#tab-resources').click();
    await el.updateComplete;
    const first = hub.catalogue(s.id)!.resources.find((r) => r.mimeType?.startsWith('text'))!;
    (qa(el, '[data-action=read]').find((b) => b.dataset.uri === first.uri) as HTMLElement).click();
    await untilRendered(el, () => q(el, '[part=result] pre'), 'the resource text');
    await expect(el).to.be.accessible();
    const tpl = hub.catalogue(s.id)!.resourceTemplates[0];
    const param = tpl.uriTemplate.match(/\{([^}]+)\}/)![1];
    const input = q<HTMLInputElement>(el, `[data-param="${param}"]`);
    input.value = '1';
    input.dispatchEvent(new Event('input'));
    await el.updateComplete;
    q(el, '[data-action=read-template]').click();
    await untilRendered(
      el,
      () =>
        q(el, '[part=result]') &&
        root(el).textContent!.includes(tpl.uriTemplate.replace(`{${param}}`, '1').split('/').pop()!),
      'the template read',
    );
  });

  it('resources: a template with a form-style query ({?q,lang}) reads the URI the server expects', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'fx', url: fixtureTenant().url });
    await hub.connect(s.id, { discovery: 'complete' });
    const el = await fixture<McpToolExplorerElement>(
      html`<mcp-tool-explorer .hub=${hub} server-id=${s.id}></mcp-tool-explorer>`,
    );
    q(el, '#tab-resources').click();
    await el.updateComplete;
    expect(qa(el, '[data-param]').map((i) => i.dataset.param)).to.deep.equal(['q', 'lang']);
    for (const [param, value] of [
      ['q', 'mcp tools'],
      ['lang', 'en'],
    ]) {
      const input = q<HTMLInputElement>(el, `[data-param="${param}"]`);
      input.value = value;
      input.dispatchEvent(new Event('input'));
      await el.updateComplete;
    }
    q(el, '[data-action=read-template]').click();
    await untilRendered(el, () => q(el, '[part=result]'), 'the template read');
    // the server matched its template and saw the query; the URI is the expanded one
    expect(root(el).textContent).to.include('fixture://search?q=mcp%20tools&lang=en');
    expect(root(el).textContent).to.match(/searched q=mcp(%20| )tools lang=en/);
  });

  it('prompts: get with arguments shows the messages', async () => {
    const { el, hub, s } = await everything();
    q(el, '#tab-prompts').click();
    await el.updateComplete;
    const withArgs = hub.catalogue(s.id)!.prompts.find((p) => (p.arguments ?? []).length > 0)!;
    for (const a of withArgs.arguments!) {
      const input = q<HTMLInputElement>(el, `[data-prompt-arg="${a.name}"]`);
      input.value = 'Paris';
      input.dispatchEvent(new Event('input'));
    }
    await el.updateComplete;
    (qa(el, '[data-action=get-prompt]').find((b) => b.dataset.prompt === withArgs.name) as HTMLElement).click();
    await untilRendered(el, () => q(el, '.message'), 'the prompt messages');
    expect(q(el, '.message').textContent).to.contain('user');
    await expect(el).to.be.accessible();
  });

  it('stays virtualised with 2,000 tools', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'Many', url: `${urls.fixture}/many/mcp` });
    await hub.connect(s.id);
    const el = await fixture<McpToolExplorerElement>(html`<mcp-tool-explorer .hub=${hub}></mcp-tool-explorer>`);
    expect(q(el, '[role=status]').textContent).to.contain('2000 tools');
    expect(qa(el, '[role=option]').length).to.be.lessThan(60);
    const last = qa(el, '[role=option]').at(-1)!;
    expect(last.getAttribute('aria-setsize')).to.equal('2000');
    const vp = q(el, '.viewport');
    vp.scrollTop = 56 * 1500;
    vp.dispatchEvent(new Event('scroll'));
    await el.updateComplete;
    expect(qa(el, '[role=option]').some((o) => o.dataset.tool === 'tool_1500')).to.equal(true);
    await search(el, 'delete things');
    expect(q(el, '[role=status]').textContent).to.contain('250 tools');
  });

  it('renders hostile tool text inert', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'Fixture', url: fixtureTenant().url });
    await hub.connect(s.id);
    (window as any).__pwned = 0;
    const el = await fixture<McpToolExplorerElement>(html`<mcp-tool-explorer .hub=${hub}></mcp-tool-explorer>`);
    await pick(el, 'hostile');
    expect(root(el).querySelector('script, img[onerror]')).to.equal(null);
    expect(q(el, '.description').textContent).to.contain('<script>');
    expect(q(el, '[part=detail] h3').textContent).to.contain('\u202eexe.txt');
    expect((window as any).__pwned).to.equal(0);
  });

  it('leaves no subscription behind after 10 attach/detach cycles', () =>
    expectNoLeakedSubscriptions('mcp-tool-explorer'));
});

describe('schema form corpus', () => {
  const forms = async (schema: Record<string, any>) => {
    const el = await fixture<McpSchemaForm>(html`<mcp-schema-form .schema=${schema} .value=${{}}></mcp-schema-form>`);
    return el;
  };
  for (const { source, name, schema } of CORPUS) {
    it(`${name} (${source}): every property gets a control, none blank`, async () => {
      const el = await forms(schema);
      const r = el.shadowRoot!;
      const props = Object.keys(schema.properties);
      for (const p of props) expect(r.textContent, p).to.contain(schema.properties[p].title ?? p);
      expect(r.querySelectorAll('input, select, textarea').length).to.be.greaterThan(0);
      await expect(el).to.be.accessible();
    });
  }

  it('filling the generated fields yields arguments that pass the schema', async () => {
    const schema = CORPUS.find((c) => c.name === 'brave_web_search')!.schema;
    const el = await forms(schema);
    const input = el.shadowRoot!.querySelector('input[type=text]') as HTMLInputElement;
    input.value = 'model context protocol';
    input.dispatchEvent(new Event('input'));
    expect(el.value).to.deep.equal({ query: 'model context protocol' });
    expect(validateArguments({ name: 'x', inputSchema: schema as never }, el.value)).to.equal(null);
  });

  it('arrays add and remove items; oneOf switches branch; unknown shapes fall back to JSON', async () => {
    const schema = CORPUS.find((c) => c.name === 'refs_nullable_unions')!.schema;
    const el = await fixture<McpSchemaForm>(
      html`<mcp-schema-form
        .schema=${schema}
        .value=${{ home: { street: '' }, shape: { kind: 'circle' } }}
      ></mcp-schema-form>`,
    );
    const r = el.shadowRoot!;
    expect(r.querySelectorAll('[data-fallback=json]').length).to.be.greaterThan(0);
    const branch = [...r.querySelectorAll('select')].find((s) => s.id.endsWith('shape-branch'))!;
    branch.value = '1';
    branch.dispatchEvent(new Event('change'));
    await el.updateComplete;
    expect((el.value as any).shape.kind).to.equal('square');
    (r.querySelector('[data-add]') as HTMLButtonElement).click();
    await el.updateComplete;
    expect((el.value as any).matrix).to.deep.equal([[]]);
    (r.querySelector('button[aria-label^="Remove"]') as HTMLButtonElement).click();
    await el.updateComplete;
    expect((el.value as any).matrix).to.deep.equal([]);
  });

  it('every tool of server-everything gets a working form', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'E', url: urls.everything });
    const cat = await hub.connect(s.id);
    for (const t of cat.tools) {
      const el = await forms(t.inputSchema as never);
      expect(el.shadowRoot!.textContent!.trim().length, t.name).to.be.greaterThan(0);
    }
  });
});
