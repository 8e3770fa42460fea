// Which relays the host allows (`relayUrl`, `allowedRelays`), and when a server's relay changed.
// A relay sees every request of the servers it carries (credentials included), so a relay is the
// host's choice: an imported mcp.json may name only one of these, and moving a server to another
// relay is a move like a URL edit to another origin (registry.ts).
import { McpConfigError, type FieldIssue } from '../errors.js';
import { urlProblem } from '../schemas.js';
import { endpointAllowed, normalizeEndpoint, urlListIssues } from '../auth/options.js';
import { originOf } from '../assistants/trust.js';
import type { ServerConfig } from '../schemas.js';
import { refuseCarriedSecrets } from './secrets.js';

/** The hub's relay options. */
export interface RelayOptions {
  relayUrl?: string;
  allowedRelays?: readonly string[];
}

/**
 * Validate `relayUrl` and `allowedRelays` (McpConfigError naming each bad one); returns the
 * relays an import may name: `relayUrl` and every `allowedRelays` entry, normalized.
 */
export function checkRelayOptions(options: RelayOptions): readonly string[] {
  const issues: FieldIssue[] = [];
  const { relayUrl, allowedRelays } = options;
  if (relayUrl !== undefined) {
    const problem = typeof relayUrl === 'string' ? urlProblem(relayUrl) : 'must be a URL string';
    if (problem) issues.push({ path: 'relayUrl', message: problem });
  }
  issues.push(...urlListIssues(allowedRelays, 'allowedRelays', 'relay URLs'));
  if (issues.length) throw new McpConfigError(issues);
  return Object.freeze(
    [...(relayUrl !== undefined ? [relayUrl] : []), ...(allowedRelays ?? [])].map(normalizeEndpoint),
  );
}

/** Whether `relay` is one of the allowed relays (exact URL once normalized: case, default port, `/`). */
export const relayAllowed = (allowed: readonly string[], relay: string): boolean => endpointAllowed(allowed, relay);

/** A relay as compared for a move: normalized, '' for none (or one that does not parse). */
function relayKey(relay: string | null | undefined): string {
  if (!relay) return '';
  try {
    return normalizeEndpoint(relay);
  } catch {
    return relay;
  }
}

/**
 * Whether a patch changes where the server's requests go through: a relay added, removed or
 * replaced by another. `patched` is the patch's `relay` (undefined: not in the patch; null: removed).
 */
export function relayChanged(current: string | undefined, patched: string | null | undefined): boolean {
  return patched !== undefined && relayKey(patched) !== relayKey(current);
}

/**
 * Whether requests to `next` would go to another origin or through another relay than `current`'s
 * (a move); if so, a stored secret carried along is refused (McpConfigError naming each field)
 * unless `confirmSecrets`. One rule for `servers.update()` and an edit form's Test connection.
 */
export function checkMove(
  current: ServerConfig,
  next: { url?: string; relay?: string | null; auth?: unknown; headers?: unknown },
  confirmSecrets = false,
): boolean {
  const url = next.url ?? current.url;
  const relay = next.relay === undefined ? current.relay : (next.relay ?? undefined);
  const moved = originOf(url) !== originOf(current.url) || relayChanged(current.relay, next.relay);
  if (moved && !confirmSecrets)
    refuseCarriedSecrets(
      current,
      next,
      relay ? `${originOf(url)} through the relay ${originOf(relay)}` : originOf(url)!,
    );
  return moved;
}
