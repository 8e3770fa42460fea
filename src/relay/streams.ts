// Bodies through the relay: request bodies read with a size cap and a deadline (a slow client
// cannot hold the relay), response bodies streamed chunk by chunk with a size cap and a lifetime,
// and the legacy SSE `endpoint` event rewritten to its relay URL. Runtime-neutral.
import { readCapped as readCappedBody } from '../core/read-capped.js';
import { RelayRefusal } from './targets.js';

/** The request body, at most `max` bytes, within `ms`; RelayRefusal 413 / 408 otherwise. */
export async function readCapped(
  message: { headers: Headers; body: ReadableStream<Uint8Array> | null },
  max: number,
  ms: number,
): Promise<Uint8Array> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), ms);
  let body: Uint8Array | undefined;
  try {
    body = await readCappedBody(message, max, deadline.signal);
  } catch {
    throw deadline.signal.aborted
      ? new RelayRefusal(408, `request body not received within ${ms} ms`)
      : new RelayRefusal(400, 'request body could not be read');
  } finally {
    clearTimeout(timer);
  }
  if (!body) throw new RelayRefusal(413, `request body over ${max} bytes`);
  return body;
}

/** Pass `body` through unbuffered; error it past `max` bytes or after `ms`. */
export function capped(
  body: ReadableStream<Uint8Array>,
  max: number,
  ms: number,
  onEnd: () => void,
): ReadableStream<Uint8Array> {
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      timer = setTimeout(() => {
        controller.error(new Error(`relayed response open longer than ${ms} ms`));
        void reader.cancel().catch(() => {});
        onEnd();
      }, ms);
      // A guard, not work: on Node a response nobody reads must not keep the process alive.
      (timer as { unref?: () => void }).unref?.();
    },
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          clearTimeout(timer);
          controller.close();
          onEnd();
          return;
        }
        size += value.byteLength;
        if (size > max) {
          clearTimeout(timer);
          controller.error(new Error(`relayed response over ${max} bytes`));
          void reader.cancel().catch(() => {});
          onEnd();
          return;
        }
        controller.enqueue(value);
      } catch (e) {
        clearTimeout(timer);
        controller.error(e);
        onEnd();
      }
    },
    cancel(reason) {
      clearTimeout(timer);
      onEnd();
      return reader.cancel(reason);
    },
  });
}

/**
 * A legacy SSE stream with its `endpoint` event's URL rewritten by `rewrite` (null: the event is
 * dropped). Works line by line; only an unfinished line is held back.
 */
export function rewriteEndpointEvents(
  body: ReadableStream<Uint8Array>,
  rewrite: (data: string) => string | null,
): ReadableStream<Uint8Array> {
  let pending = '';
  let event = '';
  const encoder = new TextEncoder();
  const lineOut = (line: string): string | null => {
    if (line === '') {
      event = '';
      return line;
    }
    if (line.startsWith('event:')) event = line.slice(6).trim();
    if (event === 'endpoint' && line.startsWith('data:')) {
      const url = rewrite(line.slice(5).trim());
      return url === null ? null : `data: ${url}`;
    }
    return line;
  };
  const decoder = new TextDecoder();
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        pending += decoder.decode(chunk, { stream: true });
        const lines = pending.split(/\r\n|\r(?!$)|\n/);
        pending = lines.pop() ?? '';
        const out = lines.map(lineOut).filter((l) => l !== null);
        if (out.length) controller.enqueue(encoder.encode(out.join('\n') + '\n'));
      },
      flush(controller) {
        pending += decoder.decode();
        if (pending) controller.enqueue(encoder.encode(lineOut(pending) ?? ''));
      },
    }),
  );
}
