// Reading a response body up to a size: the sign-in's OAuth answers (auth/fetch.ts) and the MCP
// Registry's answers (registry/client.ts) both read untrusted bodies this way.

/** The body of `response`, at most `max` bytes; `undefined` (the stream cancelled) beyond. */
export async function readCapped(response: Response, max: number): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > max) {
    await response.body?.cancel().catch(() => {});
    return undefined;
  }
  if (!response.body) return new Uint8Array(0); // a null body is an empty one
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) body.set(c, (at += c.byteLength) - c.byteLength);
  return body;
}
