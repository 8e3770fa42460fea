// DPoP (RFC 9449, SEP-1932): sender-constrained tokens for an OAuth server whose authorization
// server advertises `dpop_signing_alg_values_supported`. The SDK signs the proofs (`DpopSession`:
// the token and refresh requests through `auth()`, and `withDpop` for resource requests, with
// the `use_dpop_nonce` retry at both); this file keeps the key. The key pair is generated
// non-extractable and kept in IndexedDB as CryptoKeys (one per server: its tokens are bound to
// the key's thumbprint, so the key must outlive a reload as long as they do), and dropped with
// the tokens on sign-out.
import {
  DPOP_SUPPORTED_ALGS,
  DpopSession,
  generateDpopKeyPair,
  withDpop,
  type DpopAlg,
  type DpopKeyPair,
} from '@modelcontextprotocol/client';
import { KEYS } from '../context.js';
import { upstreamOfRelayUrl } from '../relay-url.js';
import type { RecordStorage } from '../persistence/storage.js';

/**
 * The proof algorithm to use, or undefined for Bearer tokens. The authorization server must
 * advertise DPoP (RFC 9449 §5.1); with `auto` the protected resource must too (RFC 9728
 * `dpop_signing_alg_values_supported` or `dpop_bound_access_tokens_required`): a server that
 * knows only Bearer refuses the `DPoP` scheme, and a DPoP-bound refresh token cannot be turned
 * back into a Bearer one without the user signing in again. `prefer` trusts the authorization
 * server alone.
 */
export function dpopAlgFor(
  mode: 'auto' | 'prefer' | 'off',
  as: Readonly<Record<string, unknown>> | undefined,
  resource: Readonly<Record<string, unknown>> | undefined,
): DpopAlg | undefined {
  if (mode === 'off') return undefined;
  const listed = as?.dpop_signing_alg_values_supported;
  if (!Array.isArray(listed)) return undefined;
  const accepts = (r: Readonly<Record<string, unknown>> | undefined) =>
    Array.isArray(r?.dpop_signing_alg_values_supported) || r?.dpop_bound_access_tokens_required === true;
  if (mode === 'auto' && !accepts(resource)) return undefined;
  const rs = resource?.dpop_signing_alg_values_supported;
  const usable = DPOP_SUPPORTED_ALGS.filter((a) => listed.includes(a) && (!Array.isArray(rs) || rs.includes(a)));
  return usable.includes('ES256') ? 'ES256' : usable[0];
}

/** One server's DPoP key and its session (nonces are per session, in memory). */
export class DpopKey {
  #session?: Promise<DpopSession | undefined>;

  constructor(
    private readonly storage: Pick<RecordStorage, 'get' | 'set' | 'delete'>,
    private readonly serverId: string,
  ) {}

  get #name() {
    return KEYS.dpopKey + this.serverId;
  }

  /**
   * The session signing with this server's key: for `alg` (made, or read back, when needed), or
   * without `alg` the key tokens are already bound to, if there is one.
   */
  session(alg?: DpopAlg): Promise<DpopSession | undefined> {
    const current = this.#session;
    const made = (async () => {
      const held = current ? await current.catch(() => undefined) : undefined;
      if (held && (!alg || held.alg === alg)) return held;
      const stored = await this.storage.get<DpopKeyPair>(this.#name).catch(() => undefined);
      if (stored?.privateKey && (!alg || stored.alg === alg)) return DpopSession.create({ keyPair: stored });
      if (!alg) return undefined;
      const keyPair = await generateDpopKeyPair({ alg, extractable: false });
      await this.storage.set(this.#name, keyPair).catch(() => {});
      return DpopSession.create({ keyPair });
    })();
    this.#session = made;
    return made;
  }

  /** Forget the key (signed out: the tokens bound to it are gone). */
  async forget(): Promise<void> {
    this.#session = undefined;
    await forgetDpopKey(this.storage, this.serverId);
  }
}

/** Delete a server's DPoP key from storage. */
export async function forgetDpopKey(storage: Pick<RecordStorage, 'delete'>, serverId: string): Promise<void> {
  await storage.delete(KEYS.dpopKey + serverId).catch(() => {});
}

/**
 * A fetch that presents DPoP-bound access tokens with the `DPoP` scheme and a fresh proof per
 * request (retrying once with the resource server's nonce when it asks); a Bearer token, or
 * none, passes through as the transport set it.
 *
 * Through a relay (`relay()`, the server's relay URL) the request goes to the relay's URL for the
 * server, but the proof is the server's: its `htu` is the server's own URL (RFC 9449 §4.2: the
 * URI of the resource the request is for; the relay forwards the proof unchanged, and the
 * server compares `htu` with its own URL), and the nonces it sends back (`DPoP-Nonce`, passed
 * back by the relay) are kept for the server's origin, never the relay's.
 */
export function dpopFetch(
  session: () => Promise<DpopSession | undefined>,
  boundToken: () => Promise<string | undefined>,
  relay: () => string | undefined = () => undefined,
): (f: typeof fetch) => typeof fetch {
  const signed = withDpop(session, boundToken);
  return (f) => {
    const direct = signed(f) as typeof fetch;
    return (input, init) => {
      const via = relay();
      const upstream = via && upstreamOfRelayUrl(via, input instanceof Request ? input.url : String(input));
      if (!upstream) return direct(input, init);
      // signed for the server's URL, sent to the relay's (the relay URL the transport asked for)
      return (signed((_, signedInit) => f(input, signedInit)) as typeof fetch)(upstream, init);
    };
  };
}
