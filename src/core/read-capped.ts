// Reading a body up to a size: the sign-in's OAuth answers (auth/fetch.ts), the MCP Registry's
// answers (registry/client.ts), and the relay's and the backend's request bodies (edge/body.ts).

/**
 * The body of `message` (a Request or Response), at most `max` bytes; `undefined` (the stream
 * cancelled) beyond. With `signal`, an abort cancels the stream and rejects with its reason.
 */
export async function readCapped(
  message: { headers: Headers; body: ReadableStream<Uint8Array> | null },
  max: number,
  signal?: AbortSignal,
): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const declared = Number(message.headers.get('content-length') ?? NaN);
  if (declared > max) {
    await message.body?.cancel().catch(() => {});
    return undefined;
  }
  if (!message.body) return new Uint8Array(0); // a null body is an empty one
  const reader = message.body.getReader();
  let onAbort: (() => void) | undefined;
  const aborted = signal
    ? new Promise<never>((_, reject) => {
        onAbort = () => reject(signal.reason);
        if (signal.aborted) onAbort();
        else signal.addEventListener('abort', onAbort, { once: true });
      })
    : undefined;
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await (aborted ? Promise.race([reader.read(), aborted]) : reader.read());
      if (done) break;
      size += value.byteLength;
      if (size > max) {
        await reader.cancel().catch(() => {});
        return undefined;
      }
      chunks.push(value);
    }
  } catch (e) {
    void reader.cancel().catch(() => {});
    throw e;
  } finally {
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) body.set(c, (at += c.byteLength) - c.byteLength);
  return body;
}
