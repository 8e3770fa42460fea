// Fetch layer: every POST's response body watched as it streams — capped (a hostile or broken
// server cannot make the page buffer an unbounded result) and, for an event stream, read for the
// answers to the POST's requests, so a stream that ends before them is reported at once (the SDK
// would wait out the timeout). The request follows the caller's long-lived signal only until its
// body is over (request-signal.ts). GET streams and other methods pass through.
import { McpConnectionError } from '../../errors.js';
import { requestSignal } from '../../request-signal.js';
import { AnswerScan } from './answer-scan.js';
import type { FetchLayer } from './compose.js';

/** What the session does when a POST's response is too large, or its stream ends unanswered. */
export interface BodyWatchOptions {
  /** Largest body accepted (bytes); 0 or absent: no cap. */
  max?: number;
  onExceed: (ids: (string | number)[], e: McpConnectionError) => void;
  /** An event stream ended (or broke) before answering these ids; `resumable`: it carried event ids. */
  onBroken?: (unanswered: (string | number)[], resumable: boolean) => void;
}

/** Watch the body of every POST's response (see the top of this file). */
export function watchBodies(watch: BodyWatchOptions): FetchLayer {
  return (next) => async (input, init) => {
    if ((init?.method ?? 'GET').toUpperCase() !== 'POST') return next(input, init);
    // a POST follows the caller's (long-lived) signal until its body is over (request-signal.ts)
    const link = init?.signal ? requestSignal(init.signal) : undefined;
    try {
      const res = await next(input, link ? { ...init, signal: link.signal } : init);
      let ids: (string | number)[] | undefined;
      const idsOf = () => (ids ??= requestIds(init?.body));
      return watchBody(res, {
        max: watch.max,
        ids: idsOf,
        onExceed: (e) => watch.onExceed(idsOf(), e),
        ...(watch.onBroken ? { onBroken: watch.onBroken } : {}),
        over: link?.done ?? noop,
        following: !!link,
      });
    } catch (e) {
      link?.done();
      throw e;
    }
  };
}

/** What to watch in the body of one POST's response. */
interface BodyWatch {
  /** Largest body accepted (bytes); 0 or absent: no cap. */
  max?: number;
  onExceed: (e: McpConnectionError) => void;
  /** The request ids this POST carried (read from the body only when needed). */
  ids: () => readonly (string | number)[];
  /** An event stream ended (or broke) before answering them; `resumable`: it carried event ids. */
  onBroken?: (unanswered: (string | number)[], resumable: boolean) => void;
  /** The body is over (read to its end, failed, cancelled, or handed on unwatched). */
  over: () => void;
  /** The request follows a caller's signal until `over`: its body is watched to its end, an error's too. */
  following?: boolean;
}

/**
 * Watch a response body as it streams: count its bytes and fail it past `max` (a hostile or
 * broken server cannot make the page buffer an unbounded result), and for an event stream see
 * whether the answers to the POST's requests arrived before it ended. The SDK waits out the
 * whole timeout when a 2026-07-28 stream ends early; this says so at once.
 */
function watchBody(res: Response, w: BodyWatch): Response {
  const max = w.max || Infinity;
  const tooLarge = () =>
    new McpConnectionError(
      'too-large',
      `The server's response is larger than the ${Math.round(max / 1048576)} MB limit; it was discarded.`,
    );
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > max) {
    void res.body?.cancel();
    const e = tooLarge();
    w.onExceed(e);
    throw e;
  }
  // no body: nothing to follow
  if (!res.body) {
    w.over();
    return res;
  }
  const scan =
    res.ok && w.onBroken && /^text\/event-stream/i.test(res.headers.get('content-type') ?? '')
      ? new AnswerScan()
      : undefined;
  // without a cap, only an event stream needs watching (a declared length is no cap: it counts the
  // compressed bytes, and whether a response was compressed is hidden from cross-origin reads)
  if (!scan && (max === Infinity || !res.ok) && !w.following) {
    w.over();
    return res;
  }
  const ended = () => {
    w.over();
    if (!scan) return;
    const unanswered = w.ids().filter((id) => !scan.answered.has(String(id)));
    if (unanswered.length) w.onBroken!(unanswered, scan.resumable);
  };
  const reader = res.body.getReader();
  let n = 0;
  let since = now();
  // a chunk is handed on in slices, one per pull, so a yield can fall between the slices of a
  // big chunk too (the SDK parses and dispatches a whole chunk's messages before reading again)
  let rest: Uint8Array | undefined;
  const body = new ReadableStream<Uint8Array>({
    async pull(ctrl) {
      // a flood (10,000 progress notifications) is read and handled in one chain of microtasks,
      // in which a page draws nothing: give the event loop a turn after each 50 ms of it
      if (now() - since > YIELD_AFTER_MS) {
        await macrotask();
        since = now();
      }
      if (rest) {
        const slice = rest.subarray(0, SLICE);
        rest = rest.byteLength > SLICE ? rest.subarray(SLICE) : undefined;
        ctrl.enqueue(slice);
        return;
      }
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (e) {
        ended();
        throw e;
      }
      const { done, value } = chunk;
      if (done) {
        ended();
        return ctrl.close();
      }
      n += value.byteLength;
      // an error's body is not capped (as before): it is only followed to its end
      if (n > max && res.ok) {
        w.over();
        void reader.cancel();
        const e = tooLarge();
        w.onExceed(e);
        ctrl.error(e);
        return;
      }
      scan?.see(value);
      if (value.byteLength > SLICE) {
        rest = value.subarray(SLICE);
        ctrl.enqueue(value.subarray(0, SLICE));
      } else ctrl.enqueue(value);
    },
    cancel: (r) => {
      w.over();
      return reader.cancel(r);
    },
  });
  return withBody(res, body);
}

/**
 * The response with its body replaced: the same object (status, headers, url as they came),
 * `body` the watched stream and every reader reading it. A new Response costs more in Node
 * (undici checks and copies the headers again) than the rest of the watch (decision 037).
 */
function withBody(res: Response, body: ReadableStream<Uint8Array>): Response {
  let whole: Response | undefined;
  const read = () =>
    (whole ??= new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers }));
  // a host's fetch may hand back a frozen Response: then a new one, as before
  if (!Object.isExtensible(res)) return read();
  const own: PropertyDescriptorMap = {
    // after clone() the body is whole's new branch, as on any Response
    body: { get: () => whole?.body ?? body },
    bodyUsed: { get: () => whole?.bodyUsed ?? body.locked },
  };
  for (const k of READERS)
    if (k in Response.prototype)
      own[k] = {
        value() {
          let r: Record<string, () => unknown>;
          try {
            r = read() as unknown as Record<string, () => unknown>;
          } catch (e) {
            // a body already read: the readers reject, as a Response's do (clone throws, as its does)
            if (k === 'clone') throw e;
            return Promise.reject(e as Error);
          }
          return r[k]!.call(r);
        },
      };
  return Object.defineProperties(res, own);
}
/** What reads a Response's body (`bytes` where the platform has it). */
const READERS = ['text', 'json', 'arrayBuffer', 'blob', 'formData', 'bytes', 'clone'];

const noop = () => {};
const YIELD_AFTER_MS = 50;
const SLICE = 16 * 1024;
const now = () => globalThis.performance?.now() ?? Date.now();
/** One turn of the event loop (a task, not a microtask: the page can draw in between). */
const macrotask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** JSON-RPC request ids in a POST body (one message or a batch). */
function requestIds(body: unknown): (string | number)[] {
  if (typeof body !== 'string') return [];
  let m: unknown;
  try {
    m = JSON.parse(body);
  } catch {
    return [];
  }
  const ids: (string | number)[] = [];
  for (const x of Array.isArray(m) ? m : [m])
    if (x && typeof x === 'object' && 'method' in x && 'id' in x) ids.push((x as { id: string | number }).id);
  return ids;
}
