// Fetch layer (plain JSON-RPC): redirects followed only within the origin, keeping the method;
// anything else refused with a typed error, having sent nothing to where it points (redirects.ts).
import { fetchWithinOrigin } from '../redirects.js';
import type { FetchLayer } from './compose.js';

export const withinOrigin: FetchLayer = (next) => (input, init) =>
  fetchWithinOrigin(next, input instanceof Request ? input.url : String(input), init ?? {});
