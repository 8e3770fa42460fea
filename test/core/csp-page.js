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
  await hub.dispose();
  // let any late violation report arrive before answering
  await new Promise((r) => setTimeout(r, 0));
  parent.postMessage(
    {
      csp: true,
      tools: cat.tools.map((t) => ({ name: t.name, outputSchema: !!t.outputSchema })),
      structured: !!structured.structuredContent,
      violations,
    },
    '*',
  );
} catch (e) {
  parent.postMessage({ csp: true, error: String((e && e.stack) || e), violations }, '*');
}
