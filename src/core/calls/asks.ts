// Step 5's asks: a call the server refuses until the user did something runs again once they
// did. A -32042 (URL elicitation required) shows the URLs the server named, as requests of the
// call; a sign-in refusal (401, or 403 insufficient_scope) puts the call in `needs-sign-in` until
// the user signed in — once: a second refusal ends it.
import { McpAuthError } from '../errors.js';
import type { Running, SignInWait, UrlElicit } from './call-options.js';
import type { CallHistory } from './history.js';
import { McpToolError, type ToolCallRecord } from './records.js';

/** The elicitations a -32042 error carries, when it is one. */
function urlElicitations(e: unknown): unknown[] | undefined {
  for (let c = e, depth = 0; c && typeof c === 'object' && depth < 5; c = (c as { cause?: unknown }).cause, depth++) {
    const { code, rpcCode, data } = c as { code?: unknown; rpcCode?: unknown; data?: { elicitations?: unknown } };
    if ((code === URL_REQUIRED || rpcCode === URL_REQUIRED) && Array.isArray(data?.elicitations))
      return data.elicitations;
  }
  return undefined;
}
const URL_REQUIRED = -32042;
/** How often one call may be sent back to the user for URLs before its error stands. */
const URL_ROUNDS = 3;

/** `run` the call, again after each ask the user answered. */
export async function runAsking(
  call: Running,
  run: () => Promise<ToolCallRecord>,
  history: CallHistory,
  signIns?: SignInWait,
  urlElicit?: UrlElicit,
): Promise<ToolCallRecord> {
  for (let resumed = false, urlRounds = 0; ;) {
    const settled = signIns?.callRunning?.(call.serverId);
    try {
      return await run();
    } catch (e) {
      // -32042: the user must open a page first; the call runs again once they did
      const urls = urlElicitations(e);
      if (urls && urlElicit && urlRounds < URL_ROUNDS && !call.signal.aborted) {
        urlRounds++;
        const answers = await urlElicit(call.serverId, call.id, urls, call.signal);
        if (call.signal.aborted) throw e;
        if (answers.every((a) => a.action === 'accept')) continue;
        throw new McpToolError(
          'url-required',
          'The server needs a page opened first; it was not, so the call did not run.',
        );
      }
      const asks = e instanceof McpAuthError && (e.code === 'sign-in-required' || e.code === 'insufficient-scope');
      if (!asks || resumed || !signIns || call.signal.aborted) throw e;
      history.patch(call.id, { status: 'needs-sign-in' });
      const signedIn = signIns.waitFor(call.serverId, e, call.id, call.signal);
      settled?.();
      await signedIn;
      history.patch(call.id, { status: 'pending' });
      resumed = true;
    } finally {
      settled?.();
    }
  }
}
