// `hub.client(id).complete()`: the server's suggestions for a prompt argument or a resource
// template variable (`completion/complete`), for servers that declare `completions`. The params
// are checked before anything is sent: a malformed one is an McpConfigError naming the field.
import type { CompleteRequestParams, CompleteResult } from '@modelcontextprotocol/client';
import { McpConfigError, McpConnectionError } from '../errors.js';
import type { McpSession, RequestOptions } from '../session/index.js';

/** The longest argument value sent (the protocol sets none; a form field never needs more). */
const MAX_VALUE = 4096;

function issues(params: CompleteRequestParams): { path: string; message: string }[] {
  const p = (params ?? {}) as Partial<CompleteRequestParams>;
  const ref = (p.ref ?? {}) as { type?: unknown; name?: unknown; uri?: unknown };
  const out: { path: string; message: string }[] = [];
  if (ref.type === 'ref/prompt') {
    if (typeof ref.name !== 'string' || !ref.name) out.push({ path: 'ref.name', message: 'must be a prompt name' });
  } else if (ref.type === 'ref/resource') {
    if (typeof ref.uri !== 'string' || !ref.uri) out.push({ path: 'ref.uri', message: 'must be a URI template' });
  } else out.push({ path: 'ref.type', message: "must be 'ref/prompt' or 'ref/resource'" });
  const a = (p.argument ?? {}) as { name?: unknown; value?: unknown };
  if (typeof a.name !== 'string' || !a.name) out.push({ path: 'argument.name', message: 'must be a name' });
  if (typeof a.value !== 'string' || a.value.length > MAX_VALUE)
    out.push({ path: 'argument.value', message: `must be a string of at most ${MAX_VALUE} characters` });
  const args = p.context?.arguments;
  if (args !== undefined && (typeof args !== 'object' || !Object.values(args).every((v) => typeof v === 'string')))
    out.push({ path: 'context.arguments', message: 'must map names to strings' });
  return out;
}

/** Check the params, then ask the session (which must offer completions). */
export async function complete(
  session: McpSession,
  params: CompleteRequestParams,
  request: RequestOptions,
): Promise<CompleteResult> {
  if (!session.complete || !session.capabilities?.completions)
    throw new McpConnectionError('unsupported', 'The server offers no completions.');
  return session.complete(params, request);
}

/** Throws an McpConfigError for malformed params (called before any connection work). */
export function checkComplete(params: CompleteRequestParams): void {
  const found = issues(params);
  if (found.length) throw new McpConfigError(found);
}

/** Whether a live session declared the `completions` capability. */
export const offersCompletions = (session: McpSession | undefined): boolean =>
  !!(session?.complete && session.capabilities?.completions);
