// A server-sent event stream for an edge handler's answer, over Hono's SSE writer
// (`SSEStreamingApi` of hono/streaming: the event framing, a client gone noticed by the stream).
// Runtime-neutral.
import { SSEStreamingApi } from 'hono/streaming';

/** Events written as they come, each `event: <name>` with its data as one line of JSON. */
export class SseWriter {
  readonly #api: SSEStreamingApi;
  constructor() {
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    this.#api = new SSEStreamingApi(writable, readable);
  }

  /** Write one event. Never rejects: a client that has gone away is not the writer's error. */
  send(event: string, data: unknown): Promise<void> {
    return this.#api.writeSSE({ event, data: JSON.stringify(data) }).catch(() => {});
  }

  /** End the stream (idempotent). */
  close(): Promise<void> {
    return this.#api.close();
  }

  /** The answer that streams the events, with `headers` (CORS) beside the stream's own. */
  response(headers: Record<string, string> = {}): Response {
    return new Response(this.#api.responseReadable, {
      headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-store', ...headers },
    });
  }
}
