// The connection code (the SDK's Client and transports, our session layer: most of the core's
// bytes) as a chunk fetched the first time the hub opens a session. A page that shows calls and
// history, or has no server yet, never fetches it; a page with servers fetches it while it
// renders. Decision 052.
import { loadValidator } from '../calls/schema-validator.js';
import { McpConnectionError } from '../errors.js';
import { cannotLoad, replaceableImport, rethrow } from '../import-once.js';

type SessionModule = typeof import('../session/index.js');

const sessionImport = replaceableImport(
  // the validator too (the connect chunk shares it): a session's answers and calls validate
  // synchronously (elicitation content, tool arguments)
  () => Promise.all([import('../session/index.js'), loadValidator()]).then(([session]) => session),
  rethrow((e) => new McpConnectionError('network', cannotLoad('connection code', e), { cause: e })),
);

/** The session module, imported once; a failed import is tried again by the next caller. */
export function loadSession(): Promise<SessionModule> {
  return sessionImport.load();
}

/** Tests: import the connection code through `replacement` (given the real import) from now on. @internal */
export function replaceSessionImport(replacement?: (real: () => Promise<SessionModule>) => Promise<SessionModule>) {
  sessionImport.replace(replacement);
}
