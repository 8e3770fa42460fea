// Key pairs for `private_key_jwt` (RFC 7523 client authentication) of machine credentials. The
// private key is a WebCrypto CryptoKey made non-extractable: generated here, or imported once
// from PKCS#8 PEM the host was given, then kept in IndexedDB as the CryptoKey itself (structured
// clone keeps it non-extractable: no script, ours included, can read the key material back).
// Only the public JWK leaves: the host registers it with the authorization server. The client
// assertion is signed with crypto.subtle; no JOSE library is involved.
import { KEYS, type HubContext } from '../context.js';
import { McpAuthError, McpConfigError } from '../errors.js';

/** Signing algorithms offered: ECDSA P-256 (the default) and RSASSA-PKCS1-v1_5 with SHA-256. */
export type ClientKeyAlg = 'ES256' | 'RS256';

/** A machine client key as `hub.createClientKey()` returns it: no private part. */
export interface ClientKeyInfo {
  /** The id to put in the server config (`auth.keyId`) and the JWT's `kid`. */
  readonly keyId: string;
  readonly alg: ClientKeyAlg;
  /** The public key to register with the authorization server (`jwks`). */
  readonly publicJwk: JsonWebKey & { kid: string; alg: ClientKeyAlg; use: 'sig' };
}

interface StoredClientKey extends ClientKeyInfo {
  readonly privateKey: CryptoKey;
  readonly createdAt: number;
}

/** Options of `hub.createClientKey()`. */
export interface CreateClientKeyOptions {
  /** ES256 (default) or RS256. */
  alg?: ClientKeyAlg;
  /** Import this PKCS#8 PEM private key (non-extractable from then on) instead of generating one. */
  privateKeyPem?: string;
}

const PREFIX = KEYS.clientKey;
const ALGS: Record<
  ClientKeyAlg,
  { generate: EcKeyGenParams | RsaHashedKeyGenParams; sign: AlgorithmIdentifier | EcdsaParams }
> = {
  ES256: { generate: { name: 'ECDSA', namedCurve: 'P-256' }, sign: { name: 'ECDSA', hash: 'SHA-256' } },
  RS256: {
    generate: {
      name: 'RSASSA-PKCS1-v1_5',
      modulusLength: 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: 'SHA-256',
    },
    sign: { name: 'RSASSA-PKCS1-v1_5' },
  },
};

function b64url(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
const text = (s: string) => new TextEncoder().encode(s);

function pemBytes(pem: string): Uint8Array<ArrayBuffer> {
  const m = /-----BEGIN PRIVATE KEY-----([A-Za-z0-9+/=\s]+)-----END PRIVATE KEY-----/.exec(pem);
  if (!m)
    throw new McpConfigError([
      { path: 'privateKeyPem', message: 'must be a PKCS#8 PEM private key (-----BEGIN PRIVATE KEY-----)' },
    ]);
  const bin = atob(m[1].replace(/\s+/g, ''));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** The public members of a JWK (what may be registered and shown). */
function publicPart(jwk: JsonWebKey): JsonWebKey {
  const { kty, crv, x, y, n, e } = jwk;
  return Object.fromEntries(Object.entries({ kty, crv, x, y, n, e }).filter(([, v]) => v !== undefined));
}

/** The hub's machine client keys, in its storage. */
export class ClientKeys {
  constructor(private readonly ctx: Pick<HubContext, 'storage' | 'ready'>) {}

  /** Generate (or import) a key pair; the private key is non-extractable and stays in IndexedDB. */
  async create(options: CreateClientKeyOptions = {}): Promise<ClientKeyInfo> {
    const alg = options.alg ?? 'ES256';
    if (!(alg in ALGS)) throw new McpConfigError([{ path: 'alg', message: 'must be ES256 or RS256' }]);
    const subtle = globalThis.crypto?.subtle;
    if (!subtle) throw new McpAuthError('sign-in-failed', 'Client keys need WebCrypto (a secure context).');
    let privateKey: CryptoKey;
    let publicJwk: JsonWebKey;
    if (options.privateKeyPem !== undefined) {
      // read the public half once from a short-lived extractable copy, then import for good
      const der = pemBytes(options.privateKeyPem);
      let full: JsonWebKey;
      try {
        full = await subtle.exportKey('jwk', await subtle.importKey('pkcs8', der, ALGS[alg].generate, true, ['sign']));
        privateKey = await subtle.importKey('pkcs8', der, ALGS[alg].generate, false, ['sign']);
      } catch {
        throw new McpConfigError([{ path: 'privateKeyPem', message: `is not a ${alg} private key` }]);
      }
      publicJwk = publicPart(full);
    } else {
      const pair = (await subtle.generateKey(ALGS[alg].generate, false, ['sign', 'verify'])) as CryptoKeyPair;
      privateKey = pair.privateKey;
      publicJwk = publicPart(await subtle.exportKey('jwk', pair.publicKey));
    }
    const keyId = `mcpe-${b64url(crypto.getRandomValues(new Uint8Array(12)))}`;
    const info: ClientKeyInfo = Object.freeze({
      keyId,
      alg,
      publicJwk: Object.freeze({ ...publicJwk, kid: keyId, alg, use: 'sig' as const }),
    });
    await this.ctx.ready;
    await this.ctx.storage.set(PREFIX + keyId, {
      ...info,
      privateKey,
      createdAt: Date.now(),
    } satisfies StoredClientKey);
    return info;
  }

  /** A key's public part, if it exists. */
  async info(keyId: string): Promise<ClientKeyInfo | undefined> {
    const k = await this.ctx.storage.get<StoredClientKey>(PREFIX + keyId);
    return k ? Object.freeze({ keyId: k.keyId, alg: k.alg, publicJwk: k.publicJwk }) : undefined;
  }

  /** Delete a key (servers that name it can no longer get tokens). */
  async remove(keyId: string): Promise<void> {
    await this.ctx.storage.delete(PREFIX + keyId);
  }

  /**
   * A client assertion (RFC 7523 §2.2) for `clientId` at the authorization server `audience`
   * (its issuer identifier), valid for 60 seconds, with a fresh `jti`.
   */
  async assertion(keyId: string, clientId: string, audience: string): Promise<string> {
    const key = await this.ctx.storage.get<StoredClientKey>(PREFIX + keyId);
    if (!key?.privateKey)
      throw new McpAuthError(
        'token-request-failed',
        `The client key "${keyId}" is not in this browser's storage; create one and register it again.`,
      );
    const now = Math.floor(Date.now() / 1000);
    const header = { alg: key.alg, typ: 'JWT', kid: key.keyId };
    const claims = {
      iss: clientId,
      sub: clientId,
      aud: audience,
      iat: now,
      exp: now + 60,
      jti: b64url(crypto.getRandomValues(new Uint8Array(16))),
    };
    const input = `${b64url(text(JSON.stringify(header)))}.${b64url(text(JSON.stringify(claims)))}`;
    const signature = await crypto.subtle.sign(ALGS[key.alg].sign, key.privateKey, text(input));
    return `${input}.${b64url(new Uint8Array(signature))}`;
  }
}
