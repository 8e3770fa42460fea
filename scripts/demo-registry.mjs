// The demo's own MCP Registry (the official `/v0.1` API), served by the demo's server so that
// "Find servers" stays on this machine (issue 37: `npm start` sends nothing off 127.0.0.0/8). It
// lists the demo's own servers (they work from the page) and the real published entries of the
// test fixture's snapshot (test/fixtures/registry-snapshot.json), with their icons left out: an
// icon is a request to its publisher's site the moment a list shows it.
//   GET <base>/v0.1/servers?search=&version=latest&limit=&cursor=   (name, title or description)
//   GET <base>/v0.1/servers/<name>/versions/<version|latest>
import { readFileSync } from 'node:fs';

const OFFICIAL = 'io.modelcontextprotocol.registry/official';
const snapshot = JSON.parse(
  readFileSync(new URL('../test/fixtures/registry-snapshot.json', import.meta.url), 'utf8'),
).servers;

/** The demo's servers as registry entries (server.json). */
function ownEntries({ everythingUrl, tasksUrl, debugUrl }) {
  const entry = (name, title, description, url) => ({
    name: `io.github.mcp-elements/${name}`,
    title,
    description,
    version: '1.0.0',
    remotes: [{ type: 'streamable-http', url }],
  });
  return [
    entry('demo-everything', 'Everything (demo)', 'The reference MCP server, as the demo runs it.', everythingUrl),
    entry('demo-jobs', 'Jobs (demo)', 'A server whose tools run as tasks: they survive a reload.', tasksUrl),
    entry('demo-debug', 'Debug app (demo)', 'An MCP Apps server: its tool shows a view under the call.', debugUrl),
  ];
}

/**
 * Connect middleware answering the registry API under the path it is mounted at (connect strips
 * that prefix from `req.url`). `servers`: the demo's URLs.
 */
export function demoRegistry(servers) {
  const meta = (server) => ({
    server,
    _meta: { [OFFICIAL]: { status: 'active', publishedAt: '2026-11-01T00:00:00Z', isLatest: true } },
  });
  // the snapshot holds two versions of one server: the list shows the later
  const all = [...ownEntries(servers), ...snapshot].map(({ icons: _icons, ...server }) => server);
  const latest = [...new Map(all.map((s) => [s.name, s])).values()];
  return (req, res) => {
    const send = (status, body) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method !== 'GET') return send(405, { title: 'Method Not Allowed', status: 405 });
    const version = /^\/v0\.1\/servers\/([^/]+)\/versions\/([^/]+)$/.exec(url.pathname);
    if (version) {
      const [name, v] = version.slice(1).map(decodeURIComponent);
      const s =
        v === 'latest' ? latest.find((x) => x.name === name) : all.find((x) => x.name === name && x.version === v);
      return s ? send(200, meta(s)) : send(404, { title: 'Not Found', status: 404 });
    }
    if (url.pathname !== '/v0.1/servers') return send(404, { title: 'Not Found', status: 404 });
    const q = (url.searchParams.get('search') ?? '').toLowerCase();
    const found = (url.searchParams.get('version') === 'latest' ? latest : all).filter((s) =>
      `${s.name} ${s.title ?? ''} ${s.description ?? ''}`.toLowerCase().includes(q),
    );
    const limit = Math.min(100, Math.max(1, Number(url.searchParams.get('limit')) || 30));
    const cursor = url.searchParams.get('cursor');
    const start = cursor ? Number(Buffer.from(cursor, 'base64url').toString()) || 0 : 0;
    const page = found.slice(start, start + limit);
    const next = start + limit < found.length ? Buffer.from(String(start + limit)).toString('base64url') : undefined;
    send(200, { servers: page.map(meta), metadata: { count: page.length, ...(next ? { nextCursor: next } : {}) } });
  };
}
