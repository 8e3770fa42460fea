// A minimal host page over the public core API. Server text is always set as textContent.
import { getHub, McpConfigError } from '../src/index.js';
// @ts-ignore provided by scripts/start.mjs
import { everythingUrl } from 'virtual:demo-config';

const hub = getHub();
const $ = <T extends HTMLElement>(sel: string) => document.querySelector(sel) as T;

await hub.ready;
// pre-add the reference server on first visit (the user may remove it)
if (!localStorage.getItem('mcp-elements-demo-seeded')) {
  localStorage.setItem('mcp-elements-demo-seeded', '1');
  if (!hub.servers.list().some((s) => s.url === everythingUrl)) await hub.servers.add({ name: 'Everything (reference)', url: everythingUrl });
}

function el(tag: string, text = '', attrs: Record<string, string> = {}) {
  const e = document.createElement(tag);
  e.textContent = text;
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

function render() {
  const { servers, connections, catalogues, storage } = hub.store.state;
  $('#storage').textContent = storage.warning ?? `Storage: ${storage.mode}`;
  const box = $('#servers');
  box.replaceChildren();
  for (const s of Object.values(servers)) {
    const c = connections[s.id];
    const cat = catalogues[s.id];
    const card = el('div', '', { class: 'server' });
    card.append(el('strong', s.name), el('div', s.url));
    const status = el('span', c?.status ?? 'disconnected', { class: 'status', 'data-status': c?.status ?? 'disconnected' });
    card.append(el('div', 'Status: '), status);
    if (c?.error) card.append(el('div', c.error.message));
    if (cat) card.append(el('div', `${cat.serverInfo?.name ?? ''} ${cat.serverInfo?.version ?? ''} · protocol ${cat.protocolVersion ?? '—'} · ${cat.transport ?? ''} · ${cat.tools.length} tools`));
    const connect = el('button', c?.status === 'connected' ? 'Disconnect' : 'Connect');
    connect.onclick = () => void (c?.status === 'connected' ? hub.disconnect(s.id) : hub.connect(s.id).catch(() => {}));
    const remove = el('button', 'Remove');
    remove.onclick = () => confirm(`Remove ${s.name}?`) && void hub.servers.remove(s.id);
    card.append(connect, remove);
    if (cat) {
      const list = el('ul', '', { class: 'tools' });
      for (const t of cat.tools) list.append(el('li', t.name));
      card.append(list);
    }
    box.append(card);
  }
}
hub.store.subscribe(render);
render();

$('#add').addEventListener('submit', async (e) => {
  e.preventDefault();
  const f = new FormData(e.target as HTMLFormElement);
  const token = String(f.get('token') ?? '');
  $('#form-error').textContent = '';
  try {
    const s = await hub.servers.add({
      name: String(f.get('name')),
      url: String(f.get('url')),
      transport: String(f.get('transport')) as never,
      auth: token ? { type: 'bearer', token } : { type: 'none' },
    });
    await hub.connect(s.id).catch(() => {});
  } catch (err) {
    $('#form-error').textContent = err instanceof McpConfigError ? err.issues.map((i) => `${i.path}: ${i.message}`).join('; ') : String(err);
  }
});

$('#echo').addEventListener('submit', async (e) => {
  e.preventDefault();
  const message = String(new FormData(e.target as HTMLFormElement).get('message'));
  const id = Object.keys(hub.store.state.connections).find((k) => hub.status(k).status === 'connected' && hub.catalogue(k)?.tools.some((t) => t.name === 'echo'));
  if (!id) return void ($('#result').textContent = 'Connect a server that has an echo tool first.');
  try {
    $('#result').textContent = JSON.stringify(await hub.client(id).callTool('echo', { message }), null, 2);
  } catch (err) {
    $('#result').textContent = String(err);
  }
});

// connect enabled servers on load
for (const s of hub.servers.list()) if (s.enabled) void hub.connect(s.id).catch(() => {});
