// The connection code (the SDK's Client and transports, our session layer: ≈ 60 % of the core's
// bytes) as a chunk fetched the first time the hub opens a session. A page that shows calls and
// history, or has no server yet, never fetches it; a page with servers fetches it while it
// renders. See docs/ARCHITECTURE.md, "The SDK on first connect".
import { McpConnectionError } from '../errors.js';

type SessionModule = typeof import('../session/index.js');

let loading: Promise<SessionModule> | undefined;

/** The session module, imported once; a failed import is tried again by the next caller. */
export function loadSession(): Promise<SessionModule> {
  loading ??= import('../session/index.js').catch((e: unknown) => {
    loading = undefined;
    throw new McpConnectionError(
      'network',
      `Could not load mcp-elements' connection code (${e instanceof Error ? e.message : String(e)}). Check the network and try again.`,
      { cause: e },
    );
  });
  return loading;
}
