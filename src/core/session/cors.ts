// CORS diagnosis: a browser cannot read why a preflight failed, so ask the server once per header.
// Only runs after a cross-origin request failed at the network layer; each probe is a harmless
// JSON-RPC `ping` that succeeds or fails at the preflight before any handler cares.

import { mcpHeaders } from './cross-origin.js';

/** Headers an MCP client of some revision sends, in the order they are tried. */
const MCP_HEADERS: Record<string, string> = {
  'mcp-protocol-version': '2025-11-25',
  'mcp-method': 'ping',
  'mcp-name': 'probe',
  'mcp-session-id': 'cors-probe',
  'last-event-id': 'cors-probe',
};

export interface CorsDiagnosis {
  /** False when even a plain JSON POST fails: the server is down or sends no CORS at all. */
  readonly reachable: boolean;
  /** Lower-cased request headers the preflight refused. */
  readonly refused: readonly string[];
}

async function passes(
  url: string,
  fetchFn: typeof fetch,
  extra: Record<string, string>,
  signal?: AbortSignal,
): Promise<boolean> {
  try {
    // a redirect is not followed (the probe carries the configured headers, secrets too): the
    // preflight passed if the redirect came back
    const res = await fetchFn(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...extra },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'mcp-elements-cors-probe', method: 'ping' }),
      signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(5000)]) : AbortSignal.timeout(5000),
    });
    void res.body?.cancel();
    return true;
  } catch {
    return false;
  }
}

/**
 * Which of the MCP headers (of `revision` only, when it is known) and the server's configured
 * headers its CORS preflight refuses.
 */
export async function diagnoseCors(
  url: string,
  configured: Record<string, string>,
  fetchFn: typeof fetch,
  signal?: AbortSignal,
  revision?: string,
): Promise<CorsDiagnosis> {
  if (!(await passes(url, fetchFn, {}, signal))) return { reachable: false, refused: [] };
  const sent = new Set(mcpHeaders(revision));
  const candidates: Record<string, string> = Object.fromEntries(
    Object.entries(MCP_HEADERS).filter(([name]) => sent.has(name)),
  );
  for (const [k, v] of Object.entries(configured)) candidates[k.toLowerCase()] = v;
  const names = Object.keys(candidates);
  const ok = await Promise.all(names.map((n) => passes(url, fetchFn, { [n]: candidates[n]! }, signal)));
  return { reachable: true, refused: names.filter((_, i) => !ok[i]) };
}

/**
 * Whether anything answers at `url` at all, CORS aside: a `no-cors` request resolves with an
 * opaque response from any server that answered, and fails only when nothing did. Tells "nothing
 * is running there" from "it answered, but the browser refused the response". It carries nothing
 * of the server's: no custom header (no-cors allows none), no credentials, an empty body. (Its
 * redirects are followed: Chromium fails a no-cors request with `redirect: 'manual'`.)
 */
export async function answersAtAll(url: string, fetchFn: typeof fetch, signal?: AbortSignal): Promise<boolean> {
  try {
    const res = await fetchFn(url, {
      method: 'POST',
      mode: 'no-cors',
      credentials: 'omit',
      signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(5000)]) : AbortSignal.timeout(5000),
    });
    void res.body?.cancel();
    return true;
  } catch {
    return false;
  }
}
