// The "stderr" of a server: protocol-level failures the hub saw while talking to it — requests the
// server answered with a JSON-RPC error or not at all, connects that failed, tools it listed that
// had to be dropped — kept in the server's log ring beside its own log messages, as entries of
// kind `protocol` (level `error`, or `warning` for dropped tools). Read from the hub's own events,
// so the parts that fail need no knowledge of the log.
import type { McpHubEventMap } from '../../events/index.js';

/** Call outcomes that are the tool's or the user's, not the protocol's. */
const NOT_PROTOCOL = new Set(['tool-error', 'invalid-arguments', 'denied', 'vetoed', 'cancelled', 'url-required']);

export type ProtocolLogWriter = (
  serverId: string,
  entry: { level: 'error' | 'warning'; logger: string; text: string },
) => void;

/** Write protocol failures reported by the hub's events on `target` into the log. */
export function watchProtocolErrors(target: EventTarget, write: ProtocolLogWriter): void {
  const on = <K extends keyof McpHubEventMap>(type: K, fn: (e: McpHubEventMap[K]) => void) =>
    target.addEventListener(type, fn as EventListener);
  on('mcp-tool-call-failed', ({ detail: { call, error } }) => {
    if (NOT_PROTOCOL.has(error.code)) return;
    write(call.serverId, {
      level: 'error',
      logger: 'tools/call',
      text: `${call.tool}: [${error.code}] ${error.message}`,
    });
  });
  // a result that broke the spec was kept (calls/result-shape.ts): the log says it was repaired
  const repaired = (call: { serverId: string; tool: string; result?: { nonConformant?: string } }) => {
    if (call.result?.nonConformant)
      write(call.serverId, {
        level: 'warning',
        logger: 'tools/call',
        text: `${call.tool}: non-conformant result (${call.result.nonConformant}); kept what the server sent as structured content and its JSON as text`,
      });
  };
  on('mcp-tool-call-completed', ({ detail: { call } }) => repaired(call));
  on('mcp-tool-call-failed', ({ detail: { call } }) => repaired(call));
  on('mcp-tools-dropped', ({ detail }) => {
    for (const t of detail.tools)
      write(detail.serverId, { level: 'warning', logger: 'tools/list', text: `dropped "${t.name}": ${t.reason}` });
  });
  on('mcp-server-status-changed', ({ detail }) => {
    if (detail.status !== 'error' || !detail.error) return;
    write(detail.serverId, {
      level: 'error',
      logger: 'connect',
      text: `[${detail.error.code}] ${detail.error.message}`,
    });
  });
}
