// What each element page runs live: the element from the CDN build on the page's hub, against the
// MCP servers the docs server started on 127.0.0.1 (scripts/docs-peers.mjs): the reference server
// (server-everything) and, for <mcp-app-view>, an MCP Apps server and the sandbox page.

const SERVER_NAME = 'Reference server (server-everything)';
let ready;

/** The server at `url` in the hub (added under `name` the first time), connected. */
async function connected(hub, name, url) {
  const server = hub.servers.list().find((s) => s.url === url) ?? (await hub.servers.add({ name, url }));
  if (hub.status(server.id).status !== 'connected') await hub.connect(server.id);
  return server;
}

/** Load the CDN entry once, and add and connect the reference server once per page load. */
function setUp(cdnUrl, serverUrl) {
  ready ??= (async () => {
    const lib = await import(/* @vite-ignore */ cdnUrl);
    const hub = lib.getHub();
    await hub.ready;
    if (!serverUrl) return { lib, hub };
    return { lib, hub, server: await connected(hub, SERVER_NAME, serverUrl) };
  })();
  ready.catch(() => (ready = undefined));
  return ready;
}

/** A button under the element that starts a tool call (a person pressed it: no approval step). */
function button(label, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  b.className = 'live-example-action';
  Object.assign(b.style, {
    marginTop: '0.75rem',
    padding: '0.25rem 0.75rem',
    border: '1px solid var(--vp-c-divider)',
    borderRadius: '6px',
  });
  b.addEventListener('click', onClick);
  return b;
}

/**
 * Put `tag` into `host`, set up as its page shows it. Resolves to the note shown above it and a
 * function that undoes what it started.
 */
export async function prepare(tag, host, cdnUrl, peers) {
  const { hub, server } = await setUp(cdnUrl, peers.everything);
  if (!server)
    return {
      note: 'No reference server was started with this site: run `npm run docs` to see the element live.',
      dispose: () => {},
    };
  const el = document.createElement(tag);
  const abort = new AbortController();
  const dispose = () => abort.abort();
  const call = (tool, args, source) =>
    hub.callTool({ serverId: server.id, tool, arguments: args, source, signal: abort.signal });
  switch (tag) {
    case 'mcp-server-manager':
      host.append(el);
      return { note: `Live: the servers this page's hub keeps, with ${SERVER_NAME} added.`, dispose };
    case 'mcp-tool-explorer':
      el.setAttribute('server-id', server.id);
      host.append(el);
      return { note: `Live: the tools of ${SERVER_NAME}. Pick one and press Try it.`, dispose };
    case 'gpt-tool-selector':
      el.setAttribute('gpt-id', 'docs');
      host.append(el);
      return { note: 'Live: which tools the assistant "docs" may use, and how its calls are approved.', dispose };
    case 'mcp-tool-call': {
      host.append(el);
      // a call the model would make: an assistant's calls ask first (always-ask is the default)
      void hub
        .callTool({
          serverId: server.id,
          tool: 'echo',
          arguments: { message: 'Hello from the docs' },
          assistantId: 'docs',
          signal: abort.signal,
          onCall: (c) => el.setAttribute('call-id', c.id),
        })
        .catch(() => {});
      return { note: `Live: an echo call to ${SERVER_NAME}, waiting for your approval.`, dispose };
    }
    case 'mcp-elicitation': {
      // The form leaves once answered: the server's reply shows under it, and the example keeps the
      // tallest height it had, so answering neither empties the box nor pulls the page up.
      const result = document.createElement('p');
      result.className = 'live-example-result';
      result.setAttribute('role', 'status');
      Object.assign(result.style, { whiteSpace: 'pre-line', margin: '0.75rem 0 0' });
      let tallest = 0;
      const keep = new ResizeObserver(() => {
        tallest = Math.max(tallest, host.offsetHeight);
        host.style.minHeight = `${tallest}px`;
      });
      keep.observe(host);
      const run = async () => {
        result.textContent = 'Waiting for the server to ask…';
        try {
          const r = await call('trigger-elicitation-request', {}, 'user');
          const text = (r.result?.content ?? [])
            .filter((c) => c.type === 'text')
            .map((c) => c.text)
            .join('\n');
          result.textContent = `The server answered: ${text || r.status}`;
        } catch (e) {
          if (!abort.signal.aborted) result.textContent = `The call failed: ${e?.message ?? e}`;
        }
      };
      host.append(
        el,
        button('Run trigger-elicitation-request', () => void run()),
        result,
      );
      return {
        note: 'Live: nothing waits yet. Press the button: the server asks, the form appears here, and its answer under it.',
        dispose: () => {
          keep.disconnect();
          dispose();
        },
      };
    }
    case 'mcp-task-monitor':
      host.append(el);
      return {
        note: `Live: tasks of this page's hub. ${SERVER_NAME} runs no tool as a task; the demo's Jobs server does (npm start).`,
        dispose,
      };
    case 'mcp-app-view': {
      if (!peers.apps || !peers.sandbox)
        return { note: 'No MCP Apps server was started with this site: run `npm run docs`.', dispose };
      // server-debug's tool has a view: run it (as a person would) and show the view of that call
      const debug = await connected(hub, 'Debug (server-debug)', peers.apps);
      el.setAttribute('sandbox-url', peers.sandbox);
      const shown = new Promise((resolve) => el.addEventListener('mcp-app-initialized', resolve, { once: true }));
      host.append(el);
      void hub
        .callTool({
          serverId: debug.id,
          tool: 'debug-tool',
          arguments: {},
          source: 'user',
          signal: abort.signal,
          onCall: (c) => el.setAttribute('call-id', c.id),
        })
        .catch(() => {});
      await shown;
      return {
        note: 'Live: the view server-debug ships for its debug-tool, running in the sandbox page on a second origin.',
        dispose,
      };
    }
    default:
      host.append(el);
      return { note: 'Live.', dispose };
  }
}
