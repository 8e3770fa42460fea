// `ui/download-file` (SEP-1865): a view offers a file, the host saves it after the user confirms
// (views run without `allow-downloads`). What the view sends is untrusted: one file per request,
// inline content (`resource`, text or base64 blob) up to MAX_DOWNLOAD_BYTES, or a link
// (`resource_link`, http(s) only); a name reduced to a safe last path segment.

/** Largest inline file a view may offer (bytes, decoded). Messages over 4 M characters never get here (message-guard.ts). */
export const MAX_DOWNLOAD_BYTES = 2 * 1024 * 1024;

/** A file a view offers, checked: inline content as a Blob, or an http(s) link to open. */
export type ViewDownload =
  | { readonly name: string; readonly size: number; readonly blob: Blob }
  | { readonly name: string; readonly url: string };

const record = (v: unknown): Record<string, unknown> | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/** The last path segment of `uri`, without path tricks, control or reserved characters; `download` when nothing is left. */
export function safeFileName(uri: unknown): string {
  let last = String(uri ?? '')
    .split(/[/\\]/)
    .pop()!;
  try {
    last = decodeURIComponent(last);
  } catch {
    // keep it encoded
  }
  const name = last
    .split(/[/\\]/)
    .pop()!
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f<>:"|?*\u202a-\u202e\u2066-\u2069]/g, '')
    .replace(/^[\s.]+|[\s.]+$/g, '')
    .slice(0, 120);
  return name || 'download';
}

const MIME = /^[\w.+-]+\/[\w.+-]+$/;

/** The file a `ui/download-file` request offers, or why it is refused. */
export function viewDownload(params: unknown): ViewDownload | string {
  const contents = record(params)?.contents;
  if (!Array.isArray(contents) || contents.length !== 1) return 'one file per request';
  const item = record(contents[0]);
  if (item?.type === 'resource_link') {
    const url = URL.canParse(String(item.uri)) ? new URL(String(item.uri)) : undefined;
    if (!url || !/^https?:$/.test(url.protocol) || url.username || url.password)
      return 'a linked file must be an http(s) URL without credentials';
    return { name: safeFileName(typeof item.name === 'string' ? item.name : url.pathname), url: url.href };
  }
  const resource = record(item?.resource);
  if (item?.type !== 'resource' || !resource) return 'only an embedded resource or a resource link';
  const type = typeof resource.mimeType === 'string' && MIME.test(resource.mimeType) ? resource.mimeType : '';
  const name = safeFileName(resource.uri);
  if (typeof resource.text === 'string') {
    const blob = new Blob([resource.text], { type: type || 'text/plain' });
    return blob.size > MAX_DOWNLOAD_BYTES ? `larger than ${MAX_DOWNLOAD_BYTES} bytes` : { name, size: blob.size, blob };
  }
  if (typeof resource.blob === 'string') {
    // the decoded size, known before decoding
    if (Math.floor((resource.blob.length * 3) / 4) > MAX_DOWNLOAD_BYTES + 2)
      return `larger than ${MAX_DOWNLOAD_BYTES} bytes`;
    let bytes: string;
    try {
      bytes = atob(resource.blob);
    } catch {
      return 'the blob is not base64';
    }
    const blob = new Blob([Uint8Array.from(bytes, (c) => c.charCodeAt(0))], {
      type: type || 'application/octet-stream',
    });
    return blob.size > MAX_DOWNLOAD_BYTES ? `larger than ${MAX_DOWNLOAD_BYTES} bytes` : { name, size: blob.size, blob };
  }
  return 'the resource has neither text nor blob';
}
