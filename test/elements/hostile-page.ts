// Loaded by /__hostile.html?i=<string index>&tenant=<t>, a page whose Content-Security-Policy
// allows no inline script or style and no eval (web-test-runner.config.mjs). Points a hub at
// test/fixtures/hostile-server.mjs, whose every field carries hostile string i, renders it
// through every element and every tab, and reports back to test/elements/hostile.test.ts
// (plain data only: the test asserts). An audit after each step walks every open shadow root.
// @ts-expect-error served by the test runner
import servers from '/__servers.js';
import '../../src/index.js';
import { McpHub } from '../../src/core/index.js';
// the attributes a reader sees or hears (data-* and ids may keep the exact string)
import { SHOWN_ATTRIBUTES } from '../../src/internal/bidi.js';
import { HOSTILE_STRINGS, HOSTILE_URLS, hostileToolNames } from '../fixtures/hostile-strings.mjs';

type Any = any;
const violations: string[] = [];
document.addEventListener(
  'securitypolicyviolation',
  (e) => violations.push(`${e.violatedDirective}: ${e.blockedURI}`),
  true,
);
(window as Any).__pwned = 0;

const params = new URLSearchParams(location.search);
const i = Number(params.get('i'));
const s = HOSTILE_STRINGS[i][1];
const BIDI = /[\u202A-\u202E\u2066-\u2069]/;
/** What a reader should see of a server string: bidi controls gone, nothing else changed. */
const visible = (text: string) => text.replace(/[\u202A-\u202E\u2066-\u2069]/g, '');
const IMG = /^data:image\/(png|jpeg|gif|webp|avif|bmp);base64,[A-Za-z0-9+/]+=*$/;
const AUDIO = /^data:audio\/[a-z0-9.+-]+;base64,[A-Za-z0-9+/]*=*$/;
const FORBIDDEN = new Set([
  'SCRIPT',
  'IFRAME',
  'FRAME',
  'FRAMESET',
  'OBJECT',
  'EMBED',
  'BASE',
  'STYLE',
  'LINK',
  'META',
]);
const URL_ATTRS = [
  'href',
  'src',
  'action',
  'formaction',
  'xlink:href',
  'data',
  'poster',
  'background',
  'srcset',
  'ping',
];

const findings: string[] = [];
let audits = 0;
let rootsWalked = 0;
const found = (where: string, what: string) => {
  const finding = `${where}: ${what.slice(0, 200)}`;
  if (findings.length < 40 && !findings.includes(finding)) findings.push(finding);
};

/** Walk the document and every open shadow root under it; record anything unsafe. */
function audit(where: string) {
  audits++;
  const walk = (root: Document | ShadowRoot, inShadow: boolean) => {
    rootsWalked++;
    for (const el of root.querySelectorAll('*')) {
      const tag = el.tagName.toUpperCase();
      if (inShadow && FORBIDDEN.has(tag)) found(where, `<${tag.toLowerCase()}> in a shadow root`);
      if (!inShadow && ['IFRAME', 'OBJECT', 'EMBED'].includes(tag)) found(where, `<${tag.toLowerCase()}> in the page`);
      for (const a of el.attributes) {
        const name = a.name.toLowerCase();
        if (name.startsWith('on')) found(where, `${name} attribute on <${tag.toLowerCase()}>`);
        if (name === 'srcdoc') found(where, `srcdoc on <${tag.toLowerCase()}>`);
        // the URL parser drops leading spaces and controls, and tabs or newlines anywhere
        const v = [...a.value]
          .filter((c) => c > ' ')
          .join('')
          .toLowerCase();
        if (URL_ATTRS.includes(name) && /^(javascript|vbscript|data:text\/html|data:image\/svg)/.test(v))
          found(where, `${name}=${a.value} on <${tag.toLowerCase()}>`);
        if (inShadow && SHOWN_ATTRIBUTES.includes(name) && BIDI.test(a.value))
          found(where, `bidi control in ${name} of <${tag.toLowerCase()}>`);
      }
      if (tag === 'IMG' || tag === 'INPUT' || tag === 'SOURCE' || tag === 'VIDEO') {
        const src = el.getAttribute('src');
        if (src !== null && !IMG.test(src)) found(where, `<${tag.toLowerCase()}> from ${src}`);
        if (el.hasAttribute('srcset')) found(where, `srcset on <${tag.toLowerCase()}>`);
      }
      if (tag === 'AUDIO' && el.getAttribute('src') !== null && !AUDIO.test(el.getAttribute('src')!))
        found(where, `<audio> from ${el.getAttribute('src')}`);
      if (tag === 'A' && el.hasAttribute('href')) {
        const href = el.getAttribute('href')!;
        const ours = el.hasAttribute('download') && href.startsWith('data:application/json'); // the manager's export
        if (!ours && !/^https?:\/\//i.test(href)) found(where, `<a href=${href}>`);
      }
      if (inShadow && el.getAttribute('style')?.includes('url('))
        found(where, `style with url() on <${tag.toLowerCase()}>`);
      if (el.shadowRoot) walk(el.shadowRoot, true);
    }
    if (inShadow) {
      const texts = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let n = texts.nextNode(); n; n = texts.nextNode())
        if (BIDI.test(n.nodeValue ?? '')) found(where, `bidi control in text "${JSON.stringify(n.nodeValue)}"`);
    }
  };
  walk(document, false);
}

const root = (el: Element) => el.shadowRoot!;
const frame = () => new Promise<void>((r) => requestAnimationFrame(() => r()));
async function until(el: Any, check: () => unknown, what: string) {
  for (let n = 0; n < 300; n++) {
    await el.updateComplete;
    if (check()) return;
    await frame();
  }
  throw new Error(`gave up waiting for ${what}`);
}
function add<T extends HTMLElement>(tag: string, hub: McpHub, props: Record<string, unknown> = {}): T {
  const el = document.createElement(tag) as Any;
  el.hub = hub;
  Object.assign(el, props);
  document.body.append(el);
  return el;
}
const once = <E extends Event>(type: string) =>
  new Promise<E>((r) => window.addEventListener(type, (e) => r(e as E), { once: true }));

const shown: Record<string, boolean> = {};
const step = async (name: string, fn: () => Promise<unknown> | unknown) => {
  try {
    await fn();
  } catch (e) {
    found(name, `step failed: ${(e as Error).message}`);
  }
  audit(name);
};

const tenant = params.get('tenant') ?? 'x';
const url = `${servers.hostile}/t/${tenant}/${i}/mcp`;
const hub = new McpHub({ storeName: `hostile-${tenant}-${i}` });
const [main, isErrorTool, rpcErrorTool, elicitTool] = hostileToolNames(s);
try {
  await hub.ready;

  // <mcp-server-manager>: Test connection shows the server's name, version and tools
  const manager = add<Any>('mcp-server-manager', hub);
  await step('manager: test connection', async () => {
    await manager.updateComplete;
    (root(manager).querySelector('[data-action=add]') as HTMLElement).click();
    await manager.updateComplete;
    for (const [id, value] of [
      ['name', 'hostile'],
      ['url', url],
    ]) {
      const input = root(manager).querySelector(`#f-${id}`) as HTMLInputElement;
      input.value = value;
      input.dispatchEvent(new Event('input'));
      await manager.updateComplete;
    }
    (root(manager).querySelector('[data-action=test]') as HTMLElement).click();
    await until(manager, () => root(manager).querySelector('[part=test-result]'), 'the test result');
    const text = root(manager).querySelector('[part=test-result]')!.textContent!;
    shown.managerTest = text.includes(visible(s)) && !BIDI.test(text);
  });
  const server = await hub.servers.add({ name: 'hostile', url });
  await hub.connect(server.id, { discovery: 'complete' });
  await step('manager: list', async () => {
    (root(manager).querySelector('[data-action=cancel]') as HTMLElement | null)?.click();
    await until(manager, () => root(manager).textContent!.includes('hostile'), 'the list');
  });

  // <mcp-tool-call>: a call answering every content type, an isError answer, a JSON-RPC error
  for (const tool of [main, isErrorTool, rpcErrorTool]) {
    await step(`call card: ${tool === main ? 'every content type' : tool.slice(s.length)}`, async () => {
      const record = await hub.callTool({ serverId: server.id, tool, arguments: {}, source: 'user' });
      const card = add<Any>('mcp-tool-call', hub, { call: record });
      await until(card, () => root(card).querySelector('[part=status]'), 'the card');
      const text = root(card).textContent!;
      shown[`card ${tool === main ? 'content' : tool.slice(s.length + 1)}`] =
        text.includes(visible(s).slice(0, 2000)) && !BIDI.test(text);
      if (tool === main) shown.safeImage = !!root(card).querySelector('img[part=image]');
    });
  }
  // a call asking an elicitation: progress, log and the form inside the card, then declined
  await step('call card: elicitation inside a call', async () => {
    const asked = once<Any>('mcp-elicitation-request');
    let card: Any;
    const call = hub.callTool({
      serverId: server.id,
      tool: elicitTool,
      arguments: {},
      source: 'user',
      onCall: (r) => (card = add<Any>('mcp-tool-call', hub, { callId: r.id })),
    });
    const request = await asked;
    // the progress message (sent before the request) and the server's form, both in the card
    const part = visible(s).slice(0, 200);
    await until(
      card,
      () =>
        root(card).querySelector('[part=progress]')?.textContent!.includes(part) &&
        [...root(card).querySelectorAll('*')].some((e) =>
          e.shadowRoot?.querySelector('form')?.textContent!.includes(part),
        ),
      'the progress message and the elicitation form in the card',
    );
    audit('call card: progress and elicitation shown');
    shown.cardElicitation = true;
    hub.respondToElicitation(request.detail.elicitation.id, { action: 'decline' });
    await call;
  });
  // <mcp-elicitation>: the same request outside a call
  const elicitation = add<Any>('mcp-elicitation', hub);
  await step('<mcp-elicitation>', async () => {
    const asked = once<Any>('mcp-elicitation-request');
    const call = hub.client(server.id).callTool(elicitTool, {});
    const request = await asked;
    await until(
      elicitation,
      () => {
        const view = root(elicitation).querySelector('mcp-elicitation-view');
        return (
          view?.shadowRoot?.querySelector('form') && view.shadowRoot.textContent!.includes(visible(s).slice(0, 200))
        );
      },
      'the elicitation form',
    );
    audit('<mcp-elicitation>: form shown');
    shown.elicitation = true;
    hub.respondToElicitation(request.detail.elicitation.id, { action: 'decline' });
    await call;
  });

  // <mcp-tool-explorer>: every tool's detail and Try-it form, raw mode, Run; resources; prompts; log
  const explorer = add<Any>('mcp-tool-explorer', hub, { serverId: server.id });
  await step('explorer: tools', () => until(explorer, () => root(explorer).querySelector('[role=option]'), 'the list'));
  for (const tool of hostileToolNames(s)) {
    await step(`explorer: detail of ${tool === main ? 'the tool' : tool.slice(s.length)}`, async () => {
      const option = [...root(explorer).querySelectorAll<HTMLElement>('[role=option]')].find(
        (o) => o.dataset.tool === tool,
      );
      if (!option) throw new Error('tool not listed');
      option.click();
      await until(
        explorer,
        () => root(explorer).querySelector('mcp-schema-form')?.shadowRoot?.querySelector('input, select'),
        'the Try-it form',
      );
      const h3 = root(explorer).querySelector('[part=detail] h3')?.textContent ?? '';
      if (tool === main) shown.explorerDetail = h3.includes(visible(s)) && !BIDI.test(h3);
    });
  }
  await step('explorer: raw JSON mode', async () => {
    (root(explorer).querySelector('[data-action=raw]') as HTMLElement).click();
    await explorer.updateComplete;
    (root(explorer).querySelector('[data-action=raw]') as HTMLElement).click();
    await explorer.updateComplete;
  });
  await step('explorer: Run', async () => {
    const option = [...root(explorer).querySelectorAll<HTMLElement>('[role=option]')].find(
      (o) => o.dataset.tool === main,
    )!;
    option.click();
    await explorer.updateComplete;
    (root(explorer).querySelector('[data-action=run]') as HTMLElement).click();
    await until(
      explorer,
      () => root(explorer).querySelector('mcp-tool-call')?.shadowRoot?.querySelector('[part=result]'),
      'the result card',
    );
  });
  await step('explorer: resources', async () => {
    (root(explorer).querySelector('#tab-resources') as HTMLElement).click();
    await explorer.updateComplete;
    const reads = [...root(explorer).querySelectorAll<HTMLElement>('[data-action=read]')];
    shown.resources = reads.length === 1 + HOSTILE_URLS.length;
    for (const [n, button] of reads.entries()) {
      button.click();
      await until(explorer, () => root(explorer).querySelector('[part=result], .error-text'), 'the contents');
      audit(`explorer: resource ${n} read`);
    }
    for (const [n, button] of [
      ...root(explorer).querySelectorAll<HTMLElement>('[data-action=read-template]'),
    ].entries()) {
      for (const input of root(explorer).querySelectorAll<HTMLInputElement>('[data-param]')) {
        input.value = s.slice(0, 100);
        input.dispatchEvent(new Event('input'));
      }
      await explorer.updateComplete;
      button.click();
      await until(explorer, () => root(explorer).querySelector('[part=result], .error-text'), 'the template read');
      audit(`explorer: template ${n} read`);
    }
  });
  await step('explorer: prompts', async () => {
    (root(explorer).querySelector('#tab-prompts') as HTMLElement).click();
    await explorer.updateComplete;
    for (const input of root(explorer).querySelectorAll<HTMLInputElement>('[data-prompt-arg]')) {
      input.value = s.slice(0, 100) || 'x';
      input.dispatchEvent(new Event('input'));
    }
    await explorer.updateComplete;
    (root(explorer).querySelector('[data-action=get-prompt]') as HTMLElement).click();
    await until(explorer, () => root(explorer).querySelector('.message'), 'the prompt messages');
    shown.prompt = root(explorer).querySelectorAll('.message').length === 4;
  });
  await step('explorer: log', async () => {
    (root(explorer).querySelector('#tab-log') as HTMLElement).click();
    await until(explorer, () => root(explorer).querySelector('.log-list li'), 'the log');
    // the logger's name and message of the call's log entries, as text
    shown.log = root(explorer).querySelector('.log-list')!.textContent!.includes(visible(s).slice(0, 200));
  });

  // <gpt-tool-selector>
  await step('<gpt-tool-selector>', async () => {
    const selector = add<Any>('gpt-tool-selector', hub);
    await until(selector, () => root(selector).textContent!.includes(visible(s).slice(0, 200)), 'the tools');
    shown.selector = true;
  });
} catch (e) {
  found('page', String((e as Error)?.stack ?? e));
}
await hub.dispose().catch(() => {});
// let any late violation report arrive before answering
await frame();
parent.postMessage(
  { hostile: true, i, findings, violations, pwned: (window as Any).__pwned, audits, rootsWalked, shown },
  '*',
);
