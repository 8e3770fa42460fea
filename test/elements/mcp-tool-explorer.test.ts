import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
// the "Try it" form loads lazily with the explorer; the corpus tests below use it directly
import '../../src/internal/schema-form-define.js';
import { Validator } from '@cfworker/json-schema';
import { loadValidator, type McpToolExplorerElement } from '../../src/index.js';
import type { McpSchemaForm } from '../../src/internal/schema-form.js';
import { REQUIRED_MESSAGE } from '../../src/internal/required.js';
import { fixtureTenant, nextEvent, privateHub, urls, expectNoLeakedSubscriptions, untilRendered } from '../helpers.js';
import { CORPUS } from '../fixtures/schemas.js';

const root = (el: Element) => el.shadowRoot!;
// the validator is a chunk of its own; the corpus tests check values with it directly
before(() => loadValidator());
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
    // the call is shown as the card every call gets
    await untilRendered(
      el,
      () =>
        q(el, 'mcp-tool-call')
          ?.shadowRoot?.querySelector('[part=result]')
          ?.textContent?.includes('Echo: from the form'),
      'the result in the card',
    );
    expect(q(el, 'mcp-tool-call').shadowRoot!.querySelector('[part=status]')!.textContent).to.equal('Done');
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

  it('Try it with a required choice: starts at "Choose…", no error before Run, Run sends nothing until it is chosen', async () => {
    const { el } = await everything();
    await pick(el, 'get-annotated-message');
    const form = q<McpSchemaForm>(el, 'mcp-schema-form');
    await form.updateComplete;
    const select = form.shadowRoot!.querySelector('select') as HTMLSelectElement;
    expect(select.selectedOptions[0].textContent!.trim()).to.equal('Choose…');
    expect(form.value).to.deep.equal({ includeImage: false });
    // nothing shouts before the user did anything
    expect(q(el, '#args-problem').textContent!.trim()).to.equal('');
    expect(form.shadowRoot!.querySelectorAll('.field-error').length).to.equal(0);
    const requests: Event[] = [];
    const onRequest = (e: Event) => requests.push(e);
    window.addEventListener('mcp-tool-call-request', onRequest);
    try {
      q(el, '[data-action=run]').click();
      await el.updateComplete;
      await form.updateComplete;
      expect(requests).to.have.length(0);
      expect(form.shadowRoot!.querySelector('.field-error')!.textContent).to.equal(REQUIRED_MESSAGE);
      expect(q(el, '#args-problem').textContent!.trim()).to.equal('Fill in the marked fields, then run it again.');
      await expect(el).to.be.accessible();
      select.value = '0';
      select.dispatchEvent(new Event('change'));
      await el.updateComplete;
      expect(q(el, '#args-problem').textContent!.trim()).to.equal('');
      const completed = nextEvent(window, 'mcp-tool-call-completed');
      q(el, '[data-action=run]').click();
      await completed;
      expect(requests).to.have.length(1);
      expect((requests[0] as CustomEvent).detail.call.arguments).to.deep.equal({
        includeImage: false,
        messageType: 'error',
      });
    } finally {
      window.removeEventListener('mcp-tool-call-request', onRequest);
    }
  });

  it("Try it shows progress and Cancel in the card, and a failure as the card's error", async () => {
    const { el } = await everything();
    await pick(el, 'trigger-long-running-operation');
    q(el, '[data-action=raw]').click();
    await el.updateComplete;
    const area = q<HTMLTextAreaElement>(el, '#raw-args');
    area.value = '{"duration": 10, "steps": 10}';
    area.dispatchEvent(new Event('input'));
    await el.updateComplete;
    q(el, '[data-action=run]').click();
    await untilRendered(
      el,
      () => q(el, 'mcp-tool-call')?.shadowRoot?.querySelector('progress'),
      'progress in the card',
    );
    const card = q(el, 'mcp-tool-call');
    expect(q<HTMLButtonElement>(el, '[data-action=run]').disabled).to.equal(true);
    (card.shadowRoot!.querySelector('[data-action=cancel]') as HTMLButtonElement).click();
    await untilRendered(
      el,
      () => card.shadowRoot!.querySelector('[part=status]')?.textContent === 'Cancelled',
      'cancelled',
    );
    await untilRendered(el, () => !q<HTMLButtonElement>(el, '[data-action=run]').disabled, 'Run again');
    await expect(el).to.be.accessible();

    const hub = privateHub();
    const s = await hub.servers.add({ name: 'Fixture', url: fixtureTenant().url });
    await hub.connect(s.id);
    const fx = await fixture<McpToolExplorerElement>(html`<mcp-tool-explorer .hub=${hub}></mcp-tool-explorer>`);
    await pick(fx, 'fail');
    q(fx, '[data-action=run]').click();
    await untilRendered(
      fx,
      () => q(fx, 'mcp-tool-call')?.shadowRoot?.querySelector('[part=status]')?.textContent === 'Failed',
      'the failure',
    );
    expect(q(fx, 'mcp-tool-call').shadowRoot!.textContent).to.contain('it broke on purpose');
  });

  it('resources: list, read, and read a template with its parameter', async () => {
    const { el, hub, s } = await everything();
    q(el, '#tab-resources').click();
    await el.updateComplete;
    const first = hub.catalogue(s.id)!.resources.find((r) => r.mimeType?.startsWith('text'))!;
    // a word of the resource's own text: a text/markdown resource is shown as a <pre> until the
    // markdown chunk is there, then rendered (no <pre>); waiting for a <pre> raced that chunk
    const read = await hub.client(s.id).readResource(first.uri);
    const word = String((read.contents[0] as { text?: string }).text).match(/[A-Za-z]{5,}/)![0];
    (qa(el, '[data-action=read]').find((b) => b.dataset.uri === first.uri) as HTMLElement).click();
    // on a give-up, say what the contents pane showed instead
    await untilRendered(el, () => q(el, '[part=result]')?.textContent?.includes(word), 'the resource text').catch(
      (e: Error) => {
        const shown = q(el, '[part=result]')?.parentElement?.textContent ?? '(no result part)';
        throw new Error(`${e.message} ("${word}"); the contents showed: ${shown.replace(/\s+/g, ' ').slice(0, 600)}`);
      },
    );
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
    // shown without the bidi override (internal/bidi.ts): it reads as written
    expect(q(el, '[part=detail] h3').textContent).to.contain(' exe.txt').and.not.contain('\u202e');
    expect((window as any).__pwned).to.equal(0);
  });

  it('leaves no subscription behind after 10 attach/detach cycles', () =>
    expectNoLeakedSubscriptions('mcp-tool-explorer'));

  it('log tab: ask the server for a level, messages shown by level, filter, copy, clear; keyboard reaches it', async () => {
    const { el, hub, s } = await everything();
    // keyboard: ArrowLeft from the first tab wraps around to the log tab
    const tabs = q(el, '[role=tablist]');
    q(el, '#tab-tools').focus();
    tabs.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true }));
    await el.updateComplete;
    expect(q(el, '#tab-log').getAttribute('aria-selected')).to.equal('true');
    expect(root(el).textContent).to.contain('No log messages from this server yet.');
    expect(q<HTMLButtonElement>(el, '[data-action=clear-log]').disabled).to.equal(true);
    await expect(el).to.be.accessible(); // empty
    // ask the server to send everything
    const level = q<HTMLSelectElement>(el, '#log-server-level');
    level.value = 'debug';
    level.dispatchEvent(new Event('change'));
    await untilRendered(el, () => root(el).textContent!.includes('The server was asked'), 'the level set');
    const logged = nextEvent<CustomEvent>(hub, 'mcp-server-log', (e) => e.detail.serverId === s.id);
    await hub.client(s.id).callTool('toggle-simulated-logging', {});
    const entry = (await logged).detail.entry;
    await hub.client(s.id).callTool('toggle-simulated-logging', {}); // stop it
    await untilRendered(el, () => qa(el, '.log-list li').length > 0, 'the message shown');
    // (the server may have sent more by now: find this one)
    const item = qa(el, '.log-list li').find((li) => li.querySelector('.text')!.textContent === entry.text)!;
    expect(item.dataset.level).to.equal(entry.level);
    expect(q(el, '.log-list').getAttribute('role')).to.equal('log');
    await expect(el).to.be.accessible(); // full
    // filter: only messages at the chosen level or above (the server picks levels at random)
    const levels = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
    const filter = q<HTMLSelectElement>(el, '#log-level');
    const atOrAbove = (min: string) =>
      hub.store.state.logs[s.id]!.filter((e) => levels.indexOf(e.level) >= levels.indexOf(min)).length;
    for (const min of [levels[levels.indexOf(entry.level) + 1], entry.level].filter(Boolean) as string[]) {
      filter.value = min;
      filter.dispatchEvent(new Event('change'));
      await el.updateComplete;
      expect(qa(el, '.log-list li').length, min).to.equal(atOrAbove(min));
      if (!atOrAbove(min)) expect(root(el).textContent).to.contain('No message at this level or above.');
    }
    expect(atOrAbove(entry.level)).to.be.greaterThan(0);
    // copy: the shown lines as text
    let copied = '';
    const clipboard = navigator.clipboard;
    const write = clipboard.writeText;
    clipboard.writeText = async (t: string) => void (copied = t);
    try {
      q<HTMLButtonElement>(el, '[data-action=copy-log]').click();
      await untilRendered(el, () => root(el).textContent!.includes('Copied'), 'copied');
    } finally {
      clipboard.writeText = write;
    }
    expect(copied).to.contain(`[${entry.level}]`);
    expect(copied).to.contain(entry.text);
    // clear
    q<HTMLButtonElement>(el, '[data-action=clear-log]').click();
    await el.updateComplete;
    expect(hub.store.state.logs[s.id]).to.equal(undefined);
    expect(root(el).textContent).to.contain('No log messages from this server yet.');
  });

  it('log tab over all servers: choose the server; a failing level request is shown as an error', async () => {
    const hub = privateHub();
    const a = await hub.servers.add({ name: 'Everything', url: urls.everything });
    await hub.servers.add({ name: 'Offline', url: 'http://127.0.0.1:9/mcp', enabled: false });
    await hub.connect(a.id);
    const el = await fixture<McpToolExplorerElement>(html`<mcp-tool-explorer .hub=${hub}></mcp-tool-explorer>`);
    q(el, '#tab-log').click();
    await el.updateComplete;
    const server = q<HTMLSelectElement>(el, '#log-server');
    expect([...server.options].map((o) => o.textContent).sort()).to.deep.equal(['Everything', 'Offline']);
    server.value = [...server.options].find((o) => o.textContent === 'Offline')!.value;
    server.dispatchEvent(new Event('change'));
    await el.updateComplete;
    const level = q<HTMLSelectElement>(el, '#log-server-level');
    level.value = 'info';
    level.dispatchEvent(new Event('change'));
    await untilRendered(el, () => q(el, '[role=alert]'), 'the error');
    await expect(el).to.be.accessible(); // error
  });
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
      expect(r.querySelectorAll('input, select, textarea, button[data-add]').length).to.be.greaterThan(0);
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
    // judged by the JSON Schema library itself, not the hub's validateArguments the form is built on
    const judge = new Validator(schema as never, '2020-12', false);
    expect(judge.validate(el.value).errors, 'the filled value').to.deep.equal([]);
    expect(judge.validate({}).valid, 'the judge refuses a value without the required query').to.equal(false);
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
    // an optional list with nothing in it is not sent, as before anything was added
    expect((el.value as any).matrix).to.equal(undefined);
  });

  it('every tool of server-everything gets a working form', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'E', url: urls.everything });
    const cat = await hub.connect(s.id);
    let driven = 0;
    for (const t of cat.tools) {
      const schema = t.inputSchema as { properties?: Record<string, any>; required?: string[] };
      const el = await forms(schema);
      const r = el.shadowRoot!;
      // every property has its control, and using it changes what would be sent
      for (const [key, prop] of Object.entries(schema.properties ?? {})) {
        const c = r.querySelector(`#sf-${key.replace(/[^A-Za-z0-9_-]/g, '_')}`);
        expect(c, `${t.name}: a control for ${key}`).to.exist;
        const sent = () => (el.value as Record<string, unknown>)[key];
        if (c instanceof HTMLSelectElement) {
          const option = [...c.options].filter((o) => o.value !== '-1').at(-1)!;
          c.value = option.value;
          c.dispatchEvent(new Event('change'));
          await el.updateComplete;
          expect(sent(), `${t.name}.${key} chosen`).to.not.equal(undefined);
        } else if (c instanceof HTMLInputElement && c.type === 'checkbox') {
          c.click();
          await el.updateComplete;
          expect(sent(), `${t.name}.${key} ticked`).to.equal(c.checked);
        } else if (c instanceof HTMLInputElement && c.type === 'number') {
          const n = typeof prop.minimum === 'number' ? prop.minimum : 1;
          c.value = String(n);
          c.dispatchEvent(new Event('input'));
          await el.updateComplete;
          expect(sent(), `${t.name}.${key} typed`).to.equal(n);
        } else if (c instanceof HTMLInputElement) {
          c.value = 'typed';
          c.dispatchEvent(new Event('input'));
          await el.updateComplete;
          expect(sent(), `${t.name}.${key} typed`).to.equal('typed');
        } else continue; // JSON text areas: the corpus tests fill those
        driven++;
      }
      // a required field left empty is flagged, and Run would not send
      if (schema.required?.length) {
        const empty = await forms(schema);
        expect(empty.reportValidity(), `${t.name}: empty required fields`).to.equal(false);
      }
    }
    expect(driven, 'controls driven across the catalogue').to.be.greaterThan(10);
  });
});
