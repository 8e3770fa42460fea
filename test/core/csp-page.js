// Loaded by /__csp.html, a page whose Content-Security-Policy has no 'unsafe-eval'. Uses the
// built CDN bundle exactly as a host page would, and reports back to the test.
const violations = [];
document.addEventListener('securitypolicyviolation', (e) => violations.push(`${e.violatedDirective}: ${e.blockedURI}`));
try {
  const servers = (await import('/__servers.js')).default;
  await import('/dist/cdn/mcp-elements.js');
  const hub = new globalThis.McpElements.McpHub({ storeName: `csp-${Date.now()}` });
  const s = await hub.servers.add({ name: 'everything', url: servers.everything });
  const cat = await hub.connect(s.id);
  const structured = await hub.client(s.id).callTool('get-structured-content', { location: 'Chicago' });
  // an element under `style-src 'self'` (no inline styles): the explorer's virtual list with
  // thousands of tools must position its rows and scroll
  const many = await hub.servers.add({ name: 'many', url: `${servers.fixture}/many/mcp` });
  const manyCat = await hub.connect(many.id);
  const explorer = document.createElement('mcp-tool-explorer');
  explorer.hub = hub;
  explorer.serverId = many.id;
  document.body.append(explorer);
  await explorer.updateComplete;
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
  await frame();
  const list = explorer.shadowRoot.querySelector('[role="listbox"]');
  const tops = () =>
    [...explorer.shadowRoot.querySelectorAll('[role="option"]')].map((r) => r.getBoundingClientRect().top);
  const before = tops();
  list.scrollTop = 5000;
  list.dispatchEvent(new Event('scroll'));
  await explorer.updateComplete;
  await frame();
  const firstAfter = Number(explorer.shadowRoot.querySelector('[role="option"]')?.getAttribute('aria-posinset'));
  const listCheck = {
    tools: manyCat.tools.length,
    rowsDistinct: new Set(before.map(Math.round)).size === before.length && before.length > 1,
    before,
    scrolledTo: firstAfter,
  };
  explorer.remove();
  await hub.dispose();
  // let any late violation report arrive before answering
  await new Promise((r) => setTimeout(r, 0));
  parent.postMessage(
    {
      csp: true,
      tools: cat.tools.map((t) => ({ name: t.name, outputSchema: !!t.outputSchema })),
      structured: !!structured.structuredContent,
      list: listCheck,
      violations,
    },
    '*',
  );
} catch (e) {
  parent.postMessage({ csp: true, error: String((e && e.stack) || e), violations }, '*');
}
