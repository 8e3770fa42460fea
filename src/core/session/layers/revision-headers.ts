// Fetch layer: send only the headers of the revision in use. `Mcp-Protocol-Version` came with
// 2025-06-18, and a 2025-03-26 server's CORS may allow only its own revision's headers. The SDK
// sends the header with the negotiated version, whichever it is: it is dropped when that version
// predates it. The version is noted for error hints (which then name only that revision's headers).
import { sendsVersionHeader } from '../cross-origin.js';
import type { FetchLayer } from './compose.js';
import type { FetchRecord } from './explain.js';

export function revisionHeaders(record: FetchRecord): FetchLayer {
  return (next) => (input, init) => {
    if (init?.headers) {
      // read in place (the SDK sends a Headers); a copy only to drop the header
      const sent = init.headers instanceof Headers ? init.headers : new Headers(init.headers);
      const v = sent.get('mcp-protocol-version');
      // the revision in use, not the one a server/discover probe offers
      if (v && sent.get('mcp-method') !== 'server/discover') record.revision = v;
      if (v && !sendsVersionHeader(v)) {
        const headers = new Headers(sent);
        headers.delete('mcp-protocol-version');
        init = { ...init, headers };
      }
    }
    return next(input, init);
  };
}
