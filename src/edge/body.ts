// Bodies at the edge: a request body read with a size cap and a deadline (a slow client cannot hold
// the handler), and a response body streamed chunk by chunk with a size cap and a lifetime.
// Runtime-neutral.
import { readCapped as readCappedBody } from '../core/read-capped.js';
import { RelayRefusal } from './refusal.js';

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
