// The vault binds each ciphertext to its record name (AES-GCM additional data, issue 27 item 6):
// a sealed value copied under another name does not open there. Records written before that
// (no additional data) still open once and are rewritten bound. Real IndexedDB, real WebCrypto.
import { expect } from '@open-wc/testing';
import { IdbStorage } from '../../src/core/index.js';
import { Vault } from '../../src/core/persistence/vault.js';
import { unique } from '../helpers.js';

interface Sealed {
  iv: Uint8Array;
  data: ArrayBuffer;
  v?: number;
}

async function freshVault() {
  const storage = new IdbStorage(unique('vault'));
  const vault = new Vault(storage);
  return { storage, vault };
}

/** Seal `value` under `name` the way records were written before additional data (same key). */
async function legacySeal(storage: IdbStorage, vault: Vault, name: string, value: string): Promise<void> {
  await vault.put('make the key'); // the vault's key, created and stored
  const key = (await storage.get<CryptoKey>('vault:key'))!;
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, new TextEncoder().encode(value));
  await storage.set(`secret:${name}`, { iv, data });
}

describe('vault: ciphertexts bound to their record name', () => {
  it('a sealed value copied under another name does not open; under its own it does', async () => {
    const { storage, vault } = await freshVault();
    await vault.seal('oauth:tokens:server-a', { access_token: 'token-of-a' });
    await vault.seal('oauth:tokens:server-b', { access_token: 'token-of-b' });
    // an attacker with write access to storage (not to the key) swaps A's ciphertext into B
    await storage.set('secret:oauth:tokens:server-b', await storage.get('secret:oauth:tokens:server-a'));
    expect(await vault.unseal('oauth:tokens:server-b')).to.equal(undefined);
    expect(await vault.unseal('oauth:tokens:server-a')).to.deep.equal({ access_token: 'token-of-a' });
  });

  it('a secret copied under another reference does not open: McpVaultError, the value not in it', async () => {
    const { storage, vault } = await freshVault();
    const a = await vault.put('secret-a');
    const b = await vault.put('secret-b');
    await storage.set(`secret:${b.secretRef}`, await storage.get(`secret:${a.secretRef}`));
    const error = await vault.get(b).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.name).to.equal('McpVaultError');
    expect(error?.message).not.to.include('secret-a');
    expect(await vault.get(a)).to.equal('secret-a');
  });

  it('a record sealed without additional data (older versions) opens once and is rewritten bound to its name', async () => {
    const { storage, vault } = await freshVault();
    await legacySeal(storage, vault, 'oauth:client:legacy', JSON.stringify({ client_id: 'old-client' }));
    const before = await storage.get<Sealed>('secret:oauth:client:legacy');
    expect(before?.v).to.equal(undefined);
    expect(await vault.unseal('oauth:client:legacy')).to.deep.equal({ client_id: 'old-client' });
    const after = (await storage.get<Sealed>('secret:oauth:client:legacy'))!;
    expect(after.v).to.equal(2);
    expect(new Uint8Array(after.data)).not.to.deep.equal(new Uint8Array(before!.data));
    // the rewritten record needs its name: without additional data it does not decrypt
    const key = (await storage.get<CryptoKey>('vault:key'))!;
    const bare = await crypto.subtle
      .decrypt({ name: 'AES-GCM', iv: after.iv as Uint8Array<ArrayBuffer> }, key, after.data)
      .then(
        () => 'opened',
        () => 'refused',
      );
    expect(bare).to.equal('refused');
    // and it opens again through the vault, by a new vault on the same storage too
    expect(await new Vault(storage).unseal('oauth:client:legacy')).to.deep.equal({ client_id: 'old-client' });
    // a legacy secret by reference migrates the same way
    await legacySeal(storage, vault, 'sec_legacy', 'old-password');
    expect(await vault.get({ secretRef: 'sec_legacy' })).to.equal('old-password');
    expect((await storage.get<Sealed>('secret:sec_legacy'))!.v).to.equal(2);
  });

  it('a legacy record moved under another name does not migrate there', async () => {
    const { storage, vault } = await freshVault();
    await legacySeal(storage, vault, 'oauth:tokens:x', JSON.stringify({ access_token: 'x' }));
    const moved = await storage.get('secret:oauth:tokens:x');
    await vault.unseal('oauth:tokens:x'); // migrated: bound to its name
    await storage.set('secret:oauth:tokens:y', await storage.get('secret:oauth:tokens:x'));
    expect(await vault.unseal('oauth:tokens:y')).to.equal(undefined);
    // an unmigrated copy still opens under any name: the limit of records older than this change
    await storage.set('secret:oauth:tokens:z', moved);
    expect(await vault.unseal('oauth:tokens:z')).to.deep.equal({ access_token: 'x' });
  });
});
