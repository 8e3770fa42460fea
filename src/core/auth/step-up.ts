// Which scopes an interactive sign-in asks for, and step-up on `403 insufficient_scope`: the
// configured scopes, every scope a server challenged with so far, and (on a step-up) those
// already granted — a refresh cannot widen scope, so the next sign-in asks for the union. A
// client registered through DCR for fewer scopes than that is registered again: the
// authorization server refuses a wider set otherwise (RFC 7591 `scope` restricts the client).
import { computeScopeUnion, type StoredOAuthClientInformation } from '@modelcontextprotocol/client';

/**
 * Sign-ins that asked for a scope the server then still refused (`403 insufficient_scope` for
 * it), after which the hub stops asking the user and ends with `insufficient-scope`: signing in
 * again cannot help when the account lacks the scope (MCP authorization: clients SHOULD limit
 * step-up retries; conformance `auth/scope-retry-limit` allows at most three authorizations).
 */
export const STEP_UP_LIMIT = 2;

/** Per scope challenged, the sign-ins (by time) that asked for it and were refused it anyway. */
export class StepUpRefusals {
  readonly #refused = new Map<string, Set<number>>();

  /**
   * The server refused `scope` again; `asked` is what the current tokens' sign-in asked for,
   * `signedInAt` when. True once STEP_UP_LIMIT such sign-ins were refused (the same refusal
   * reported twice counts once).
   */
  refused(scope: string, asked: string | undefined, signedInAt: number | undefined): boolean {
    const wanted = scope.split(' ').filter(Boolean);
    const had = new Set((asked ?? '').split(' '));
    if (signedInAt === undefined || !wanted.length || !wanted.every((s) => had.has(s))) return false;
    const key = wanted.sort().join(' ');
    let seen = this.#refused.get(key);
    if (!seen) this.#refused.set(key, (seen = new Set()));
    seen.add(signedInAt);
    return seen.size >= STEP_UP_LIMIT;
  }

  clear(): void {
    this.#refused.clear();
  }
}

/** The scopes one server's sign-ins ask for. */
export class ScopeRequest {
  /** The scope the server's last challenge named, and everything asked for since. */
  #asked?: string;

  constructor(private readonly configured: () => readonly string[] | undefined) {}

  /** The scope to ask for: the configured scopes, everything challenged so far, and `extra`. */
  scopeFor(extra?: string): string | undefined {
    this.#asked = computeScopeUnion(this.#asked, extra);
    return computeScopeUnion(this.configured()?.join(' '), this.#asked);
  }
}

/**
 * Whether a stored registration allows every scope of `asked` (`offline_access` aside: servers
 * grant it by grant type). A registration that does not say which scopes it has allows any.
 */
export function registrationAllows(info: StoredOAuthClientInformation, asked: string | undefined): boolean {
  const registered = (info as { scope?: unknown }).scope;
  if (typeof registered !== 'string') return true;
  const allowed = registered.split(' ');
  return !(asked?.split(' ').filter(Boolean) ?? []).some((s) => !allowed.includes(s) && s !== 'offline_access');
}
