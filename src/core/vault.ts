import { McpVaultError } from './errors.js';
import type { RecordStorage } from './storage.js';
import type { SecretRef } from './schemas.js';

const KEY_RECORD = 'vault:key';
const SECRET_PREFIX = 'secret:';

interface SealedSecret {
  readonly iv: Uint8Array<ArrayBuffer>;
  readonly data: ArrayBuffer;
}

function newRef(): string {
  return `sec_${crypto.randomUUID()}`;
}

/**
 * Secrets encrypted with AES-GCM under a non-extractable WebCrypto key that lives in the same
 * IndexedDB store (structured-cloned, so its bytes are never readable by script). Plain records
 * hold only `{ secretRef }`. When the key cannot be persisted the vault keeps it in memory for
 * this page only.
 */
export class Vault {
  #key?: Promise<CryptoKey>;
  /** Clear values this page has seen, so error messages can be scrubbed of them. */
  readonly #known = new Set<string>();
  constructor(private readonly storage: RecordStorage) {}

  #subtle(): SubtleCrypto {
    const subtle = globalThis.crypto?.subtle;
    if (!subtle)
      throw new McpVaultError(
        'Secrets need WebCrypto, which this page lacks (it must be served over https: or from localhost).',
      );
    return subtle;
  }

  #getKey(): Promise<CryptoKey> {
    this.#key ??= (async () => {
      const existing = await this.storage.get<CryptoKey>(KEY_RECORD);
      if (existing) return existing;
      const fresh = await this.#subtle().generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
      // Another tab may have created one meanwhile: the first key written wins.
      return this.storage.update<CryptoKey>(KEY_RECORD, (old) => old ?? fresh);
    })().catch((e) => {
      this.#key = undefined;
      throw e instanceof McpVaultError ? e : new McpVaultError('Could not create or load the vault key.', { cause: e });
    });
    return this.#key;
  }

  /** Encrypt and store a secret; returns its reference. */
  async put(value: string): Promise<SecretRef> {
    const key = await this.#getKey();
    const iv = crypto.getRandomValues(new Uint8Array(12));
    let data: ArrayBuffer;
    try {
      data = await this.#subtle().encrypt({ name: 'AES-GCM', iv }, key, new TextEncoder().encode(value));
    } catch (e) {
      throw new McpVaultError('Could not encrypt a secret.', { cause: e });
    }
    const ref = newRef();
    await this.storage.set(SECRET_PREFIX + ref, { iv, data } satisfies SealedSecret);
    this.#known.add(value);
    return { secretRef: ref };
  }

  /** Decrypt a secret by reference. */
  async get(ref: SecretRef): Promise<string> {
    const sealed = await this.storage.get<SealedSecret>(SECRET_PREFIX + ref.secretRef);
    if (!sealed) throw new McpVaultError(`A stored secret is missing (${ref.secretRef}); enter it again.`);
    const key = await this.#getKey();
    try {
      const plain = await this.#subtle().decrypt({ name: 'AES-GCM', iv: sealed.iv }, key, sealed.data);
      const value = new TextDecoder().decode(plain);
      this.#known.add(value);
      return value;
    } catch (e) {
      throw new McpVaultError(`A stored secret could not be decrypted (${ref.secretRef}); enter it again.`, {
        cause: e,
      });
    }
  }

  async delete(ref: SecretRef): Promise<void> {
    await this.storage.delete(SECRET_PREFIX + ref.secretRef);
  }

  /**
   * Encrypt a JSON value under a name of the caller's choosing (record `secret:<name>`), for
   * secrets that are looked up by what they belong to rather than by reference: OAuth tokens
   * (by server), client registrations (by issuer), a sign-in in progress (PKCE verifier, state).
   */
  async seal(name: string, value: unknown): Promise<void> {
    const key = await this.#getKey();
    const iv = crypto.getRandomValues(new Uint8Array(12));
    let data: ArrayBuffer;
    try {
      data = await this.#subtle().encrypt(
        { name: 'AES-GCM', iv },
        key,
        new TextEncoder().encode(JSON.stringify(value)),
      );
    } catch (e) {
      throw new McpVaultError('Could not encrypt a secret.', { cause: e });
    }
    await this.storage.set(SECRET_PREFIX + name, { iv, data } satisfies SealedSecret);
  }

  /** Decrypt a value sealed under `name`; undefined when there is none (or it cannot be read). */
  async unseal<T>(name: string): Promise<T | undefined> {
    const sealed = await this.storage.get<SealedSecret>(SECRET_PREFIX + name);
    if (!sealed) return undefined;
    const key = await this.#getKey();
    try {
      const plain = await this.#subtle().decrypt({ name: 'AES-GCM', iv: sealed.iv }, key, sealed.data);
      return JSON.parse(new TextDecoder().decode(plain)) as T;
    } catch {
      return undefined;
    }
  }

  /** Delete a value sealed under `name`. */
  async remove(name: string): Promise<void> {
    await this.storage.delete(SECRET_PREFIX + name);
  }

  /** Every clear secret value this vault has handled on this page (for redaction only). */
  /** Treat a value derived from secrets (e.g. a Basic header's base64) as secret too. */
  remember(value: string): void {
    this.#known.add(value);
  }

  get knownValues(): Iterable<string> {
    return this.#known;
  }
}

export function isSecretKey(key: string): boolean {
  return key.startsWith(SECRET_PREFIX) || key === KEY_RECORD;
}
