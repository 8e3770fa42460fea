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
  const form = explorer.shadowRoot.querySelector('mcp-schema-form');
  const rendered = {
    card: card.shadowRoot.textContent.includes('Echo: csp'),
    cardStyled: getComputedStyle(card).display === 'block',
    form: !!form?.shadowRoot?.querySelector('input'),
  };
  card.remove();
  explorer.remove();
  await hub.dispose();
  // let any late violation report arrive before answering
  await new Promise((r) => setTimeout(r, 0));
  parent.postMessage(
    {
      csp: true,
      tools: cat.tools.map((t) => ({ name: t.name, outputSchema: !!t.outputSchema })),
      structured: !!structured.structuredContent,
      rendered,
      violations,
    },
    '*',
  );
} catch (e) {
  parent.postMessage({ csp: true, error: String((e && e.stack) || e), violations }, '*');
}
