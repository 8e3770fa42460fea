import { McpVaultError } from '../errors.js';
import type { RecordStorage } from './storage.js';
import type { SecretRef } from '../schemas.js';

const KEY_RECORD = 'vault:key';
const SECRET_PREFIX = 'secret:';

/**
 * One encrypted record. `v: 2`: the record's key (`secret:<name>`) is the AES-GCM additional
 * data, so a ciphertext copied under another name does not decrypt there. Records without `v`
 * were written before (no additional data): they are read once and rewritten as `v: 2`.
 */
interface SealedSecret {
  readonly iv: Uint8Array<ArrayBuffer>;
  readonly data: ArrayBuffer;
  readonly v?: 2;
}

const sameBytes = (a: Uint8Array | undefined, b: Uint8Array) =>
  !!a && a.length === b.length && a.every((x, i) => x === b[i]);

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
  /** Clear values by reference, while the reference exists: what one server's secrets are. */
  readonly #byRef = new Map<string, string>();
  /**
   * `scoped` (a backend serving many users): a stored secret is not added to `knownValues`, so it
   * is scrubbed only from what its own server sends (`valuesOf` its refs), and it is forgotten
   * when it is deleted. Default (a page, one user): every value ever handled is scrubbed everywhere.
   */
  readonly scoped: boolean;
  constructor(
    private readonly storage: RecordStorage,
    options: { scoped?: boolean } = {},
  ) {
    this.scoped = options.scoped ?? false;
  }

  #hold(ref: string, value: string): void {
    this.#byRef.set(ref, value);
    if (!this.scoped) this.#known.add(value);
  }

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

  /** Encrypt `plain` as the record `record` (its name the additional data). */
  async #encrypt(record: string, plain: string): Promise<SealedSecret> {
    const key = await this.#getKey();
    const iv = crypto.getRandomValues(new Uint8Array(12));
    try {
      const data = await this.#subtle().encrypt(
        { name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(record) },
        key,
        new TextEncoder().encode(plain),
      );
      return { iv, data, v: 2 };
    } catch (e) {
      throw new McpVaultError('Could not encrypt a secret.', { cause: e });
    }
  }

  /**
   * Decrypt the record `record`; undefined when there is none. A record of an older version
   * (no additional data) is rewritten bound to its name, unless another tab changed it meanwhile.
   * Throws what WebCrypto throws when the ciphertext does not open (wrong name, key or bytes).
   */
  async #decrypt(record: string): Promise<string | undefined> {
    const sealed = await this.storage.get<SealedSecret>(record);
    if (!sealed) return undefined;
    const key = await this.#getKey();
    const legacy = sealed.v !== 2;
    const plain = new TextDecoder().decode(
      await this.#subtle().decrypt(
        { name: 'AES-GCM', iv: sealed.iv, ...(legacy ? {} : { additionalData: new TextEncoder().encode(record) }) },
        key,
        sealed.data,
      ),
    );
    if (legacy) {
      const bound = await this.#encrypt(record, plain);
      await this.storage
        .update<SealedSecret>(record, (now) => (now && now.v !== 2 && sameBytes(now.iv, sealed.iv) ? bound : now!))
        .catch(() => {}); // stays legacy; read again next time
    }
    return plain;
  }

  /** Encrypt and store a secret; returns its reference. */
  async put(value: string): Promise<SecretRef> {
    const ref = newRef();
    await this.storage.set(SECRET_PREFIX + ref, await this.#encrypt(SECRET_PREFIX + ref, value));
    this.#hold(ref, value);
    return { secretRef: ref };
  }

  /** Decrypt a secret by reference. */
  async get(ref: SecretRef): Promise<string> {
    let value: string | undefined;
    try {
      value = await this.#decrypt(SECRET_PREFIX + ref.secretRef);
    } catch (e) {
      if (e instanceof McpVaultError) throw e;
      throw new McpVaultError(`A stored secret could not be decrypted (${ref.secretRef}); enter it again.`, {
        cause: e,
      });
    }
    if (value === undefined) throw new McpVaultError(`A stored secret is missing (${ref.secretRef}); enter it again.`);
    this.#hold(ref.secretRef, value);
    return value;
  }

  async delete(ref: SecretRef): Promise<void> {
    this.#byRef.delete(ref.secretRef);
    await this.storage.delete(SECRET_PREFIX + ref.secretRef);
  }

  /** The clear values of `refs` this vault holds (put or opened, not deleted since). */
  valuesOf(refs: readonly SecretRef[]): string[] {
    const out: string[] = [];
    for (const r of refs) {
      const v = this.#byRef.get(r.secretRef);
      if (v !== undefined) out.push(v);
    }
    return out;
  }

  /** Clear values held in memory (by reference and for redaction), for checks that none outlive their use. */
  get heldValues(): number {
    return this.#byRef.size + this.#known.size;
  }

  /**
   * Encrypt a JSON value under a name of the caller's choosing (record `secret:<name>`), for
   * secrets that are looked up by what they belong to rather than by reference: OAuth tokens
   * (by server), client registrations (by issuer), a sign-in in progress (PKCE verifier, state).
   */
  async seal(name: string, value: unknown): Promise<void> {
    const record = SECRET_PREFIX + name;
    await this.storage.set(record, await this.#encrypt(record, JSON.stringify(value)));
  }

  /** Decrypt a value sealed under `name`; undefined when there is none (or it cannot be read). */
  async unseal<T>(name: string): Promise<T | undefined> {
    try {
      const plain = await this.#decrypt(SECRET_PREFIX + name);
      return plain === undefined ? undefined : (JSON.parse(plain) as T);
    } catch {
      return undefined;
    }
  }

  /** Delete a value sealed under `name`. */
  async remove(name: string): Promise<void> {
    await this.storage.delete(SECRET_PREFIX + name);
  }

  /** Treat a value derived from secrets (e.g. a Basic header's base64) as secret too. */
  remember(value: string): void {
    this.#known.add(value);
  }

  /** Every clear secret value this vault has handled on this page (for redaction only); scoped: derived ones only. */
  get knownValues(): Iterable<string> {
    return this.#known;
  }
}

export function isSecretKey(key: string): boolean {
  return key.startsWith(SECRET_PREFIX) || key === KEY_RECORD;
}
