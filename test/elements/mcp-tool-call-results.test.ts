// Results a person can read (issue 25 item 9): markdown rendered by marked + DOMPurify (a lazy
// chunk) and hostile markdown inert; JSON pretty-printed or a tree, never both; images that
// enlarge (keyboard, Escape); Copy on arguments; progress in steps and percent with the elapsed
// time; one Cancel where the server's form has its own. Real servers where one can send it
// (server-everything's image, progress and form); a record as a server sends it where none does
// (markdown, hostile markdown, bad shapes): the card renders records, wherever they come from.
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/index.js';
import type { McpToolCallElement, ToolCallRecord } from '../../src/index.js';
import { captureClipboard, nextEvent, privateHub, untilRendered, urls } from '../helpers.js';
import { elicitingCall } from './eliciting-call.js';

const shadow = (el: Element) => el.shadowRoot!;
const PWN = 'window.__pwned=(window.__pwned||0)+1';

/** A finished call's record with these content blocks, as the hub stores it. */
function record(content: unknown[], extra: Partial<ToolCallRecord> = {}): ToolCallRecord {
  return {
    id: `call-${Math.random().toString(36).slice(2)}`,
    assistantId: 'default',
    gptId: 'default',
    serverId: 's',
    serverName: 'Docs',
    tool: 'read',
    name: 'Docs__read',
    arguments: { path: 'README.md' },
    status: 'success',
    source: 'model',
    createdAt: Date.now(),
    result: { content: content as never },
    ...extra,
  } as ToolCallRecord;
}

async function show(call: ToolCallRecord) {
  return fixture<McpToolCallElement>(html`<mcp-tool-call .hub=${privateHub()} .call=${call}></mcp-tool-call>`);
}

/** Wait until the markdown chunk has loaded and rendered into the card. */
async function rendered(el: McpToolCallElement) {
  await untilRendered(el, () => shadow(el).querySelector('.markdown > :not(pre.prose)'), 'the rendered markdown');
  return shadow(el).querySelector('.markdown') as HTMLElement;
}

const MARKDOWN = [
  '## Results',
  '',
  'Found **3** files, see [the docs](https://example.com/docs).',
  '',
  '- one',
  '- two',
  '',
  '| name | size |',
  '| --- | --- |',
  '| a.txt | 3 |',
  '',
  '```js',
  'let x = 1;',
  '```',
].join('\n');

describe('<mcp-tool-call> results', () => {
  it('markdown in a text block is rendered: headings, lists, tables, code, links that open safely', async () => {
    const el = await show(record([{ type: 'text', text: MARKDOWN }]));
    const md = await rendered(el);
    expect(md.querySelector('h2')!.textContent).to.equal('Results');
    expect(md.querySelector('strong')!.textContent).to.equal('3');
    expect([...md.querySelectorAll('li')].map((l) => l.textContent)).to.deep.equal(['one', 'two']);
    expect(md.querySelector('table td')!.textContent).to.equal('a.txt');
    expect(md.querySelector('pre code')!.textContent).to.equal('let x = 1;\n');
    const a = md.querySelector('a')!;
    expect(a.getAttribute('href')).to.equal('https://example.com/docs');
    expect(a.getAttribute('target')).to.equal('_blank');
    expect(a.getAttribute('rel')).to.contain('noopener');
    await expect(el).to.be.accessible();
  });

  it('a text/markdown resource is rendered too; one line with a link stays plain text', async () => {
    const el = await show(
      record([
        {
          type: 'resource',
          resource: { uri: 'file:///README.md', mimeType: 'text/markdown', text: '# Title\n\nBody' },
        },
        { type: 'text', text: 'See [this](https://example.com) and *that*.' },
      ]),
    );
    const md = await rendered(el);
    expect(md.querySelector('h1')!.textContent).to.equal('Title');
    const prose = shadow(el).querySelector('pre.prose')!;
    expect(prose.textContent).to.equal('See [this](https://example.com) and *that*.');
  });

  it('hostile markdown is inert: no script, handler, style, javascript: link or remote image; raw HTML shows as text', async () => {
    (window as any).__pwned = 0;
    const hostile = [
      '# Hi',
      '',
      `<script>${PWN}</script>`,
      '',
      `<img src=x onerror="${PWN}">`,
      '',
      `[click](javascript:${PWN}) [data](data:text/html,<script>${PWN}</script>) [ok](https://example.com)`,
      '',
      `![pixel](https://evil.example/track.png) ![inline](javascript:${PWN})`,
      '',
      `<a href="javascript:${PWN}">a</a> <svg onload="${PWN}"></svg> <div style="color:red">styled</div>`,
      '',
      `- [x](  JaVaScRiPt:${PWN})`,
      '- <iframe src="javascript:1"></iframe>',
    ].join('\n');
    const el = await show(record([{ type: 'text', text: hostile }]));
    const md = await rendered(el);
    expect(md.querySelector('h1')!.textContent).to.equal('Hi');
    const all = [...md.querySelectorAll('*')];
    expect(all.filter((n) => /^(SCRIPT|IFRAME|SVG|OBJECT|EMBED|STYLE|FORM|INPUT)$/i.test(n.nodeName))).to.deep.equal(
      [],
    );
    expect(all.filter((n) => [...n.attributes].some((a) => /^on|^style$/i.test(a.name)))).to.deep.equal([]);
    // links: only the https one keeps an href
    expect([...md.querySelectorAll('a[href]')].map((a) => a.getAttribute('href'))).to.deep.equal([
      'https://example.com',
    ]);
    // no image from anywhere but data: (none here): the remote one is its alt text
    expect(md.querySelectorAll('img').length).to.equal(0);
    expect(md.textContent).to.contain('pixel');
    // the raw HTML is shown as what it is: text
    expect(md.textContent).to.contain(`<script>${PWN}</script>`);
    expect(md.textContent).to.contain('<img src=x onerror=');
    expect((window as any).__pwned).to.equal(0);
  });

  it('JSON text is pretty-printed; a structured result with its JSON twin is one tree, never both', async () => {
    const data = { city: 'Oslo', temps: [3, 4], nested: { ok: true } };
    const el = await show(record([{ type: 'text', text: JSON.stringify(data) }]));
    const pre = shadow(el).querySelector('pre.json')!;
    expect(pre.textContent).to.equal(JSON.stringify(data, null, 2));
    expect(shadow(el).querySelector('[role=tree]')).to.equal(null);
    const both = await show(
      record([{ type: 'text', text: JSON.stringify(data) }], {
        result: { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data },
      }),
    );
    expect(shadow(both).querySelector('[role=tree]')).to.not.equal(null);
    expect(shadow(both).querySelectorAll('pre.json, pre.text').length).to.equal(0);
  });

  it('an image enlarges: a button reached by keyboard opens it large; Escape closes and focus returns', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'Everything', url: urls.everything });
    await hub.connect(s.id);
    await hub.assistants.update('default', { approval: 'auto' });
    const r = await hub.callTool({ serverId: s.id, tool: 'get-tiny-image' });
    const el = await fixture<McpToolCallElement>(html`<mcp-tool-call .hub=${hub} call-id=${r.id}></mcp-tool-call>`);
    await untilRendered(el, () => shadow(el).querySelector('[data-action=enlarge]'), 'the image button');
    const zoom = shadow(el).querySelector('[data-action=enlarge]') as HTMLButtonElement;
    expect(zoom.querySelector('img[part=image]')).to.not.equal(null);
    const dialog = shadow(el).querySelector('dialog.zoomed') as HTMLDialogElement;
    expect(dialog.open).to.equal(false);
    zoom.focus();
    expect(shadow(el).activeElement).to.equal(zoom);
    await sendKeys({ press: 'Enter' });
    await untilRendered(el, () => dialog.open, 'the large view');
    expect(dialog.matches(':modal')).to.equal(true);
    const big = dialog.querySelector('img')!;
    await big.decode();
    expect(big.getBoundingClientRect().width).to.be.greaterThan(
      zoom.querySelector('img')!.getBoundingClientRect().width,
    );
    await expect(el).to.be.accessible();
    await sendKeys({ press: 'Escape' });
    await untilRendered(el, () => !dialog.open, 'the large view to close');
    expect(shadow(el).activeElement).to.equal(zoom);
    // and Close does it too
    zoom.click();
    expect(dialog.open).to.equal(true);
    (dialog.querySelector('[data-action=close-image]') as HTMLButtonElement).click();
    expect(dialog.open).to.equal(false);
  });

  it('Copy on the arguments puts their JSON on the clipboard', async () => {
    const el = await show(record([{ type: 'text', text: 'ok' }], { arguments: { path: 'a b', n: 2 } }));
    const args = shadow(el).querySelector('details[part=arguments]') as HTMLDetailsElement;
    args.open = true;
    const { written, restore } = captureClipboard();
    try {
      (args.querySelector('[data-action=copy]') as HTMLButtonElement).click();
      const note = args.querySelector('.copy-note') as HTMLElement;
      await untilRendered(el, () => note.textContent === 'Copied.', 'Copied.');
      expect(written).to.deep.equal([JSON.stringify({ path: 'a b', n: 2 }, null, 2)]);
    } finally {
      restore();
    }
  });

  it('progress from a real server: steps of a total and a percent, and the time since the call started', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'Everything', url: urls.everything });
    await hub.connect(s.id);
    await hub.assistants.update('default', { approval: 'auto' });
    const started = nextEvent<CustomEvent>(hub, 'mcp-tool-call-started');
    const p = hub.callTool({
      serverId: s.id,
      tool: 'trigger-long-running-operation',
      arguments: { duration: 2, steps: 4 },
    });
    const id = (await started).detail.call.id;
    const el = await fixture<McpToolCallElement>(html`<mcp-tool-call .hub=${hub} call-id=${id}></mcp-tool-call>`);
    await untilRendered(el, () => shadow(el).querySelector('.progress-text'), 'the progress line');
    const text = shadow(el).querySelector('.progress-text')!.textContent!;
    expect(text).to.match(/^\d of 4 \(\d+%\)$/);
    const bar = shadow(el).querySelector('progress')!;
    expect(bar.max).to.equal(4);
    expect(bar.getAttribute('aria-valuetext')).to.equal(text);
    expect(shadow(el).querySelector('[part=elapsed]')!.textContent).to.match(/^for \d+ s$/);
    await expect(el).to.be.accessible();
    await p;
    await el.updateComplete;
    expect(shadow(el).querySelector('[part=elapsed]')).to.equal(null);
  });

  it('progress without a total: a count and an indeterminate bar; minutes in the elapsed time', async () => {
    const el = await show(
      record([], {
        status: 'running',
        result: undefined,
        startedAt: Date.now() - 65_000,
        progress: { progress: 7, message: 'Indexing' },
      }),
    );
    expect(shadow(el).querySelector('.progress-text')!.textContent).to.equal('7 so far');
    expect(shadow(el).querySelector('progress')!.hasAttribute('value')).to.equal(false);
    expect(shadow(el).querySelector('[part=elapsed]')!.textContent).to.match(/^for 1 min 5 s$|^for 1 min 6 s$/);
  });

  it("one Cancel in sight: the call's own is 'Cancel call' in the header, the server's form keeps its Cancel", async () => {
    const { p, el } = await elicitingCall(privateHub());
    await untilRendered(el, () => shadow(el).querySelector('mcp-elicitation-view'), 'the form');
    const form = shadow(el).querySelector('mcp-elicitation-view') as HTMLElement & { updateComplete: Promise<unknown> };
    await customElements.whenDefined('mcp-elicitation-view');
    await form.updateComplete;
    const labels = (root: ShadowRoot) => [...root.querySelectorAll('button')].map((b) => b.textContent!.trim());
    const inCard = labels(shadow(el));
    const inForm = labels(form.shadowRoot!);
    expect(inCard.filter((l) => l === 'Cancel call')).to.have.length(1);
    expect([...inCard, ...inForm].filter((l) => l === 'Cancel')).to.have.length(1);
    expect(shadow(el).querySelector('header [data-action=cancel]')).to.not.equal(null);
    (shadow(el).querySelector('header [data-action=cancel]') as HTMLButtonElement).click();
    expect((await p).status).to.equal('cancelled');
  });

  it('bad shapes render as what they are, not at all or as text: bad base64, empty markdown, a negative total', async () => {
    const el = await show(
      record(
        [
          { type: 'image', mimeType: 'image/png', data: 'not base64!' },
          { type: 'image', mimeType: 'image/svg+xml', data: 'PHN2Zz4=' },
          { type: 'resource', resource: { uri: 'x:y', mimeType: 'text/markdown', text: '' } },
          { type: 'text', text: '{"unterminated": ' },
        ],
        { progress: { progress: 3, total: -1 } },
      ),
    );
    expect(shadow(el).querySelectorAll('img, dialog').length).to.equal(0);
    expect(shadow(el).textContent).to.contain('Image from the tool (image/png)');
    expect(shadow(el).textContent).to.contain('Image from the tool (image/svg+xml)');
    expect(shadow(el).querySelector('pre.prose')!.textContent).to.equal('{"unterminated": ');
    const running = await show(
      record([], { status: 'running', result: undefined, startedAt: Date.now(), progress: { progress: 3, total: -1 } }),
    );
    expect(shadow(running).querySelector('.progress-text')!.textContent).to.equal('3 so far');
  });
});
