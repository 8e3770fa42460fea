// Loaded by /__csp.html, a page whose Content-Security-Policy has no 'unsafe-eval' and no
// 'unsafe-inline' styles. Uses the built CDN entry exactly as a host page would (elements come
// through its autoloader) and reports back to the test.
const violations = [];
document.addEventListener('securitypolicyviolation', (e) => violations.push(`${e.violatedDirective}: ${e.blockedURI}`));
try {
  const servers = (await import('/__servers.js')).default;
  await import('/dist/cdn/mcp-elements.js');
  const hub = new globalThis.McpElements.McpHub({ storeName: `csp-${Date.now()}` });
  const s = await hub.servers.add({ name: 'everything', url: servers.everything });
  const cat = await hub.connect(s.id);
  const structured = await hub.client(s.id).callTool('get-structured-content', { location: 'Chicago' });
  // elements, autoloaded: a tool call card and the explorer with its "Try it" form
  const call = await hub.callTool({ serverId: s.id, tool: 'echo', arguments: { message: 'csp' }, source: 'user' });
  const card = document.createElement('mcp-tool-call');
  card.hub = hub;
  card.call = call;
  const explorer = document.createElement('mcp-tool-explorer');
  explorer.hub = hub;
  document.body.append(card, explorer);
  await Promise.all(['mcp-tool-call', 'mcp-tool-explorer'].map((t) => customElements.whenDefined(t)));
  await card.updateComplete;
  await explorer.updateComplete;
  explorer.shadowRoot.querySelector('[role=option][data-tool=echo]').click();
  await explorer.updateComplete;
  const tryForm = explorer.shadowRoot.querySelector('mcp-schema-form');
  const rendered = {
    card: card.shadowRoot.textContent.includes('Echo: csp'),
    cardStyled: getComputedStyle(card).display === 'block',
    form: !!tryForm?.shadowRoot?.querySelector('input'),
  };
  card.remove();
  explorer.remove();
  // the elements render under the same policy: a server's form in <mcp-elicitation>
  const el = document.createElement('mcp-elicitation');
  el.hub = hub;
  document.body.append(el);
  await customElements.whenDefined('mcp-elicitation');
  const asked = hub.client(s.id).callTool('trigger-elicitation-request', {});
  const form = () => el.shadowRoot?.querySelector('mcp-elicitation-view')?.shadowRoot?.querySelector('form');
  for (let i = 0; i < 500 && !form(); i++) await new Promise((r) => setTimeout(r, 10));
  const formShown = !!form();
  const styled = formShown && getComputedStyle(form().querySelector('.actions')).display === 'flex';
  hub.respondToElicitation(Object.keys(hub.store.state.elicitations)[0], { action: 'decline' });
  await asked;
  // and the explorer's virtualised list (rows placed by inline position) and its log tab
  const explorer2 = document.createElement('mcp-tool-explorer');
  explorer2.hub = hub;
  document.body.append(explorer2);
  await explorer2.updateComplete;
  const rows = explorer2.shadowRoot.querySelectorAll('[role=option]').length;
  explorer2.shadowRoot.querySelector('#tab-log').click();
  await explorer2.updateComplete;
  // an element under `style-src 'self'` (no inline styles): the explorer's virtual list with
  // thousands of tools must position its rows and scroll
  const many = await hub.servers.add({ name: 'many', url: `${servers.fixture}/many/mcp` });
  const manyCat = await hub.connect(many.id);
  const big = document.createElement('mcp-tool-explorer');
  big.hub = hub;
  big.serverId = many.id;
  document.body.append(big);
  await big.updateComplete;
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
  await frame();
  const list = big.shadowRoot.querySelector('[role="listbox"]');
  const tops = () => [...big.shadowRoot.querySelectorAll('[role="option"]')].map((r) => r.getBoundingClientRect().top);
  const before = tops();
  list.scrollTop = 5000;
  list.dispatchEvent(new Event('scroll'));
  await big.updateComplete;
  await frame();
  const firstAfter = Number(big.shadowRoot.querySelector('[role="option"]')?.getAttribute('aria-posinset'));
  const listCheck = {
    tools: manyCat.tools.length,
    rowsDistinct: new Set(before.map(Math.round)).size === before.length && before.length > 1,
    before,
    scrolledTo: firstAfter,
  };
  big.remove();
  await hub.dispose();
  // let any late violation report arrive before answering
  await new Promise((r) => setTimeout(r, 0));
  parent.postMessage(
    {
      csp: true,
      tools: cat.tools.map((t) => ({ name: t.name, outputSchema: !!t.outputSchema })),
      structured: !!structured.structuredContent,
      rendered,
      list: listCheck,
      formShown,
      styled,
      rows,
      violations,
    },
    '*',
  );
} catch (e) {
  parent.postMessage({ csp: true, error: String((e && e.stack) || e), violations }, '*');
}
