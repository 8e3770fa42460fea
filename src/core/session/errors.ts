// Everything a transport or the SDK throws, mapped to a McpConnectionError with no secret in it.
import {
  InsufficientScopeError,
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  SseError,
} from '@modelcontextprotocol/client';
import { AnswerRefusal } from '../answers/refusal.js';
import { McpAuthError, McpConnectionError, redact } from '../errors.js';
import { redirectRefused, SDK_REDIRECT } from './redirects.js';

/**
 * Marks the JSON-RPC error our fetch wrapper injects for an oversized response. A server may use
 * any code in -32000…-32099 itself, so the code alone cannot say the error is ours: `data` does.
 */
export const TOO_LARGE_MARK = 'mcp-elements.too-large';
/** Marks the error injected for a request whose response stream ended before its answer. */
export const DROPPED_MARK = 'mcp-elements.dropped';

function status401(status: number, detail: string, e: unknown): McpConnectionError {
  return new McpConnectionError('unauthorized', `The server refused the credentials (HTTP ${status}). ${detail}`, {
    status,
    cause: e,
  });
}

/** The SDK's transport refused a redirect: said as the hub's own fetches say it. */
function redirected(detail: string, e: unknown): McpConnectionError {
  const to = /Redirect to (\S+) not followed/.exec(detail)?.[1];
  const err = redirectRefused(to ? `to ${to}` : '(the browser does not show where to)');
  return new McpConnectionError('redirect', err.message, { cause: e });
}

function fromSdkError(e: SdkError, clean: (m: string) => string): McpConnectionError {
  const detail = clean(e.message).slice(0, 500);
  const status = e instanceof SdkHttpError ? e.status : undefined;
  if (SDK_REDIRECT.test(e.message)) return redirected(detail, e);
  if (status === 401 || status === 403) return status401(status, detail, e);
  switch (e.code) {
    case SdkErrorCode.RequestTimeout:
      return new McpConnectionError('timeout', `The server did not answer in time. ${detail}`, { cause: e });
    case SdkErrorCode.ConnectionClosed:
      return new McpConnectionError('network', 'The connection to the server closed.', { cause: e });
    case SdkErrorCode.EraNegotiationFailed:
      if (status)
        return new McpConnectionError('http', `The server answered HTTP ${status}. ${detail}`, { status, cause: e });
      // a probe that got something unreadable back (an HTML page, broken JSON) is a malformed
      // response, not a revision the server lacks; `revision` is for pins and missing fallbacks
      if (e.cause instanceof SdkError) return fromSdkError(e.cause, clean);
      if (e.cause !== undefined)
        return new McpConnectionError('protocol', `The server sent a malformed response: ${detail}`, { cause: e });
      return new McpConnectionError('revision', detail, { cause: e });
    case SdkErrorCode.UnsupportedResultType:
    case SdkErrorCode.InputRequiredRoundsExceeded:
      return new McpConnectionError('input-required', detail, { cause: e });
    case SdkErrorCode.InvalidResult:
      return new McpConnectionError('protocol', `The server sent a malformed response: ${detail}`, { cause: e });
  }
  if (status)
    return new McpConnectionError('http', `The server answered HTTP ${status}. ${detail}`, { status, cause: e });
  return new McpConnectionError('protocol', `Unexpected response from the server. ${detail}`, { cause: e });
}

/**
 * The sign-in error inside what a transport threw, if it is one: an McpAuthError our OAuth
 * provider raised (anywhere in the cause chain), or the transport's InsufficientScopeError.
 */
export function signInError(e: unknown): McpAuthError | undefined {
  for (let c = e, depth = 0; c instanceof Error && depth < 6; c = c.cause, depth++) {
    if (c instanceof McpAuthError) return c;
    if (c instanceof InsufficientScopeError)
      return new McpAuthError(
        'insufficient-scope',
        `The server needs more permissions${c.requiredScope ? ` (${c.requiredScope.slice(0, 200)})` : ''}: sign in again to grant them.`,
        { cause: c, ...(c.requiredScope ? { scope: c.requiredScope } : {}) },
      );
  }
  return undefined;
}

/** Map anything a transport or the SDK throws to a McpConnectionError with no secrets in it. */
export function toConnectionError(e: unknown, secrets: Iterable<string>, signal?: AbortSignal): McpConnectionError {
  const clean = (m: string) => redact(m, secrets);
  const auth = signInError(e);
  if (auth) return new McpConnectionError('unauthorized', clean(auth.message), { cause: auth });
  // the explaining fetch's error travels as the cause of a TypeError, maybe wrapped by the SDK
  for (let c = e, depth = 0; c instanceof Error && depth < 5; c = c.cause, depth++)
    if (c instanceof McpConnectionError && c.code === 'network' && !(e instanceof McpConnectionError)) {
      e = c;
      break;
    }
  if (e instanceof McpConnectionError) {
    const m = clean(e.message);
    return m === e.message ? e : new McpConnectionError(e.code, m, { status: e.status, rpcCode: e.rpcCode });
  }
  if (signal?.aborted) {
    const r = signal.reason as Error | undefined;
    if (r?.name === 'TimeoutError') return new McpConnectionError('timeout', 'The request timed out.', { cause: e });
    return new McpConnectionError('aborted', 'The request was cancelled.', { cause: e });
  }
  if (e instanceof SdkError) return fromSdkError(e, clean);
  if (e instanceof SseError) {
    const status = typeof e.code === 'number' && e.code > 0 ? e.code : undefined;
    const detail = clean(e.message).slice(0, 500);
    if (SDK_REDIRECT.test(e.message)) return redirected(detail, e);
    if (status === 401 || status === 403) return status401(status, detail, e);
    if (status)
      return new McpConnectionError('http', `The server answered HTTP ${status}. ${detail}`, { status, cause: e });
    return new McpConnectionError('protocol', `Unexpected response from the server. ${detail}`, { cause: e });
  }
  if (e instanceof ProtocolError) {
    const message = clean(e.message.replace(/^MCP error -?\d+: /, ''));
    const mark = (e.data as { mark?: string } | undefined)?.mark;
    if (mark === TOO_LARGE_MARK) return new McpConnectionError('too-large', message, { cause: e });
    if (mark === DROPPED_MARK) return new McpConnectionError('dropped', message, { cause: e });
    if (e.code === ProtocolErrorCode.MissingRequiredClientCapability)
      return new McpConnectionError(
        'input-required',
        `The server needs input this page does not offer yet (forms, the model, roots): ${message}`,
        { rpcCode: e.code, cause: e },
      );
    // every other code, -32000…-32099 included, is the server's own error: keep its message
    return new McpConnectionError('server', `The server returned an error: ${message}`, { rpcCode: e.code, cause: e });
  }
  // our answer refused a request of the server's (2026-07-28: the SDK runs the answer inside the
  // call, so the refusal surfaces here): as the SDK's ProtocolError with that code did
  if (e instanceof AnswerRefusal)
    return new McpConnectionError('server', `The server returned an error: ${clean(e.message)}`, {
      rpcCode: e.code,
      cause: e,
    });
  const err = e as Error | undefined;
  // JSON.parse throws a SyntaxError, but WebKit's Response.json() rejects with a DOMException
  // named SyntaxError ("The string did not match the expected pattern."): say what it means
  if (err instanceof SyntaxError || err?.name === 'SyntaxError')
    return new McpConnectionError(
      'protocol',
      `The server sent a malformed response (not valid JSON: ${clean(err.message).slice(0, 500)})`,
      { cause: e },
    );
  if (err?.name === 'ZodError' || err?.name === '$ZodError')
    return new McpConnectionError(
      'protocol',
      `The server sent a malformed response: ${clean(err.message).slice(0, 500)}`,
      { cause: e },
    );
  if (err?.name === 'TimeoutError') return new McpConnectionError('timeout', 'The request timed out.', { cause: e });
  if (err?.name === 'AbortError') return new McpConnectionError('aborted', 'The request was cancelled.', { cause: e });
  return new McpConnectionError('protocol', clean(err?.message ?? String(e)).slice(0, 500), { cause: e });
}
