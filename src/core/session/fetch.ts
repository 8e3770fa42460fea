// The fetch every transport uses: response bodies capped, network failures explained (CORS names
// the exact headers a browser needs), and what was sent recorded for the diagnosis.
import { McpConnectionError } from '../errors.js';
import { requestSignal } from '../request-signal.js';

import { CORS_HINT, corsHint, crossOrigin, preflightHeaders } from './cross-origin.js';

export { CORS_HINT, corsHint, crossOrigin, preflightHeaders };

export function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'the server';
  }
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
 * The answers in an event stream, read as the SDK's parser reads it: the text decoded as it
 * passes (a character cut between chunks waits for its rest; a leading BOM is dropped), split
 * into lines (at CRLF, LF or a lone CR), an event's `data:` lines joined and parsed when the
 * event ends (its blank line), only events of type `message`. The work is builtins' (decode, a
 * regex split, startsWith, one JSON.parse per answer): it runs once per call, between network waits.
 */
class AnswerScan {
  readonly answered = new Set<string>();
  resumable = false;
  readonly #decoder = new TextDecoder();
  /** The unfinished last line, in pieces (a long line is searched once, not once per chunk). */
  #partial: string[] = [];
  /** The current event: its data lines, and whether its type is `message` (the default). */
  #data: string[] = [];
  #message = true;
  /** The last chunk ended with a CR: an LF first in the next one belongs to it. */
  #afterCR = false;

  see(chunk: Uint8Array) {
    let text = this.#decoder.decode(chunk, { stream: true });
    // the LF of a CRLF whose CR ended the last chunk: that line has ended already
    if (this.#afterCR && text.charCodeAt(0) === LF) text = text.slice(1);
    // a line ends at CRLF, LF or a lone CR, as the SDK's parser reads it
    const eol = text.includes('\r') ? ANY_EOL : LF_EOL;
    eol.lastIndex = 0;
    let start = 0;
    for (let m = eol.exec(text); m; m = eol.exec(text)) {
      let line = text.slice(start, m.index);
      if (this.#partial.length) {
        this.#partial.push(line);
        line = this.#partial.join('');
        this.#partial = [];
      }
      this.#line(line);
      start = eol.lastIndex;
    }
    this.#afterCR = start === text.length && text.charCodeAt(start - 1) === CR;
    if (start < text.length) this.#partial.push(start ? text.slice(start) : text);
  }

  #line(line: string) {
    if (!line) this.#dispatch();
    else if (line.startsWith('data:')) this.#data.push(valueOf(line, 5));
    else if (line.startsWith('id:')) this.resumable = true;
    else if (line.startsWith('event:')) {
      const type = valueOf(line, 6);
      this.#message = !type || type === 'message';
    }
  }

  #dispatch() {
    const data = this.#data;
    const message = this.#message;
    this.#data = [];
    this.#message = true;
    if (!data.length || !message) return;
    const text = data.length === 1 ? data[0]! : data.join('\n');
    // an event without data is no message (a 2025 server's priming event: an id, `data:` empty);
    // the SDK skips it too. Parsing it threw, at ~13 µs a call (ARCHITECTURE › Per-call cost, fifth pass)
    if (!text) return;
    try {
      const m = JSON.parse(text) as { id?: unknown; result?: unknown; error?: unknown };
      if (m && ('result' in m || 'error' in m)) this.answered.add(String(m.id));
    } catch {
      // an event that is not one JSON message: not an answer
    }
  }
}
const LF = 10;
const CR = 13;
const LF_EOL = /\n/g;
const ANY_EOL = /\r\n|\r|\n/g;
/** A field's value: after its colon (at `at`), without one leading space. */
const valueOf = (line: string, at: number) => line.slice(line.charCodeAt(at) === 32 ? at + 1 : at);

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
 * `body` the watched stream and every reader reading it. A new Response cost ~25 µs a POST in
 * Node (undici checks and copies the headers again), more than the rest of the watch.
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

/** What the explaining fetch saw last, for errors raised above it (EventSource hides the cause). */
export interface FetchRecord {
  lastNetwork?: McpConnectionError;
  /** The revision in use once known (pinned or negotiated): hints name only its headers. */
  revision?: string;
}

/** A fetch that turns network-layer failures into a McpConnectionError explaining likely causes. */
export function explainingFetch(
  base: typeof fetch | undefined,
  record: FetchRecord,
  watch?: {
    max?: number;
    onExceed: (ids: (string | number)[], e: McpConnectionError) => void;
    onBroken?: (unanswered: (string | number)[], resumable: boolean) => void;
  },
): typeof fetch {
  return async (input, init) => {
    const f = base ?? globalThis.fetch;
    // only request/response bodies are watched; the long-lived GET stream is not one result
    const post = !!watch && (init?.method ?? 'GET').toUpperCase() === 'POST';
    // a POST follows the caller's (long-lived) signal until its body is over (request-signal.ts)
    const link = post && init?.signal ? requestSignal(init.signal) : undefined;
    try {
      const res = await f(input, link ? { ...init, signal: link.signal } : init);
      if (post) {
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
      }
      return res;
    } catch (e) {
      link?.done();
      if (e instanceof McpConnectionError) throw e;
      if ((e as Error)?.name === 'AbortError' || (e as Error)?.name === 'TimeoutError') throw e;
      const url = input instanceof Request ? input.url : String(input);
      const origin = safeOrigin(url);
      let hint = 'Is the server running, and is the URL right?';
      if (crossOrigin(url)) {
        const sent = preflightHeaders(init);
        hint =
          'Either nothing answers there, or the server does not send the CORS headers a browser needs. ' +
          corsHint(record.revision) +
          (sent.length
            ? ` This request sent ${sent.join(', ')}: the server's Access-Control-Allow-Headers must list each of them.`
            : '');
      }
      const err = new McpConnectionError('network', `Could not reach ${origin}. ${hint}`, { cause: e });
      record.lastNetwork = err;
      // still a TypeError, as fetch's own: the SDK reads a TypeError at the 2026-07-28 probe as a
      // CORS refusal and falls back to the 2025 handshake; toConnectionError finds the cause
      // eslint-disable-next-line preserve-caught-error -- the explanation (whose cause is `e`) is the cause
      throw new TypeError(err.message, { cause: err });
    }
  };
}
