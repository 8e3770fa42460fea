// The legacy SSE `endpoint` event rewritten to its relay URL. Runtime-neutral.

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
