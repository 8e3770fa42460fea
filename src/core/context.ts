import type { Implementation } from '@modelcontextprotocol/client';
import type { McpHubEventMap } from '../events/index.js';
import type { RecordStorage, ResilientStorage } from './persistence/storage.js';
import type { Store } from './store.js';
import type { HubState } from './types.js';
import type { Vault } from './persistence/vault.js';

/** Record key prefixes in the store (one key per record, never one big blob). */
export const KEYS = {
  server: 'server:',
  catalogue: 'catalogue:',
  quarantine: 'quarantine:',
  assistant: 'assistant:',
  call: 'call:',
  /** What the user's sign-in to an OAuth server allows (no token: those are sealed in the vault). */
  signIn: 'signin:',
  /** A machine client key (`private_key_jwt`): the non-extractable CryptoKey and its public JWK. */
  clientKey: 'clientkey:',
  /** A server's DPoP key pair (non-extractable CryptoKeys), while tokens are bound to it. */
  dpopKey: 'dpopkey:',
} as const;

/** What other tabs are told: only the kind and id of a changed record; they re-read it. */
export interface SyncMessage {
  from: string;
  kind: 'server' | 'catalogue' | 'assistant' | 'sign-in';
  id: string;
}

/**
 * What every part of the hub shares. It sits below the parts in the import order: parts take a
 * context, never the façade, so there is no import cycle.
 */
export interface HubContext {
  /** The IndexedDB database name (also names the BroadcastChannel and the journal). */
  readonly storeName: string;
  readonly store: Store<HubState>;
  readonly storage: ResilientStorage;
  readonly vault: Vault;
  readonly fetch?: typeof fetch;
  readonly clientInfo: Implementation;
  readonly limits: {
    /** Tool calls kept per assistant. */
    readonly historyLimit: number;
    /** Tool calls running at once per server. */
    readonly callConcurrency: number;
    /** Largest response accepted for one request, in bytes. */
    readonly maxResponseBytes: number;
    /** Connections a browser opens per origin (HTTP/1.1: 6): bounds discovery and streams. */
    readonly connectionsPerOrigin: number;
  };
  /** Resolves once stored records are loaded. */
  readonly ready: Promise<void>;
  /** Dispatch on the hub and on the page; false when a cancelable event was vetoed. */
  emit(event: McpHubEventMap[keyof McpHubEventMap]): boolean;
  /** Log a warning (never a secret) and keep it in `state.warnings`. */
  warn(message: string): void;
  /** Tell other tabs that a record changed. */
  broadcast(kind: SyncMessage['kind'], id: string): void;
}

/** The limits a hub runs with: its options, else the defaults (docs/API.md). */
export function limitsOf(options: McpHubOptions): HubContext['limits'] {
  return {
    historyLimit: options.historyLimit ?? 1000,
    callConcurrency: options.callConcurrency ?? 10,
    maxResponseBytes: options.maxResponseBytes ?? 10 * 1024 * 1024,
    connectionsPerOrigin: options.connectionsPerOrigin ?? 6,
  };
}

/** `<prefix>_<16 random hex>`. */
export function randomId(prefix: string): string {
  // the UUID's first 16 hex digits (8-4-4, dashes left out), without a regex pass over it
  const u = crypto.randomUUID();
  return `${prefix}_${u.slice(0, 8)}${u.slice(9, 13)}${u.slice(14, 18)}`;
}

/** Options of `new McpHub()`. */
export interface McpHubOptions {
  /** IndexedDB database name (one per hub family). Default `mcp-elements`. */
  storeName?: string;
  /** Storage to use instead of IndexedDB (tests, Node). */
  storage?: RecordStorage;
  /** Where events are dispatched besides the hub itself. Default: `window` when there is one. `null` for none. */
  eventTarget?: EventTarget | null;
  /** Keep other tabs of the same origin in step. Default true where BroadcastChannel exists. */
  broadcast?: boolean;
  /** fetch used for every server request. */
  fetch?: typeof fetch;
  /** The client name and version sent at initialize. */
  clientInfo?: Implementation;
  /** Where warnings go. Default `console`. Never receives a secret. */
  logger?: Pick<Console, 'warn'>;
  /** Tool calls kept per assistant (newest first). Default 1,000. */
  historyLimit?: number;
  /** Tool calls running at once per server; more wait in order. Default 10. */
  callConcurrency?: number;
  /** Largest response accepted from a server for one request, in bytes. Default 10 MB. */
  maxResponseBytes?: number;
  /**
   * Where authorization servers send the user back after signing in (OAuth redirect URI): a page
   * of this origin that calls `completeSignIn()`. Default: this page's own URL (origin and path).
   */
  redirectUrl?: string;
  /**
   * The HTTPS URL where the host publishes its OAuth Client ID Metadata Document
   * (`clientMetadataDocument()` writes its JSON); used with servers that support it.
   */
  clientMetadataUrl?: string;
  /**
   * DPoP (RFC 9449) for OAuth servers: `auto` (default) when the authorization server advertises
   * it and the server's Protected Resource Metadata says it accepts DPoP; `prefer` whenever the
   * authorization server advertises it; `off` never (Bearer tokens).
   */
  dpop?: 'auto' | 'prefer' | 'off';
  /**
   * The identity provider token endpoints this page trusts with its users' identity assertions
   * (`jwt-bearer` servers with `flow: 'id-jag'`): the ID token the page's `setIdentityAssertion`
   * function returns is posted to a server's `auth.idp.tokenEndpoint` only when it is on this
   * list (exact URL), and `importConfig()` refuses `idp` blocks naming any other. Default: none.
   */
  idpTokenEndpoints?: readonly string[];
  /**
   * Connections the browser opens per server origin. Default 6 (HTTP/1.1). Discovery runs at most
   * that many requests per origin, and long-lived notification streams may take all but two of
   * them; raise it for servers behind HTTP/2.
   */
  connectionsPerOrigin?: number;
  /**
   * Whose secrets are scrubbed from a server's results and errors. `hub` (default, a page: one
   * user): every secret the hub has handled, from everything. `server` (a backend serving many
   * users): only that server's own, and a server's secrets are forgotten when it is removed.
   */
  secretScope?: 'hub' | 'server';
  /**
   * The relay (the package's relay entry) the host runs, offered by the server manager when a server
   * refuses this page (CORS) or is stdio-only; a server uses it once its config's `relay` is set.
   * An imported mcp.json may name it as a server's `relay`.
   */
  relayUrl?: string;
  /**
   * More relays (besides `relayUrl`) an imported mcp.json may name as a server's `relay` (exact
   * URL): a relay sees every request of the servers it carries, credentials included, so
   * `importConfig()` refuses an entry naming any other. Default: none (only `relayUrl`).
   */
  allowedRelays?: readonly string[];
  /**
   * MCP Apps: the sandbox proxy page (`dist/sandbox/index.html`) served on a second origin the
   * host owns. Without it views run in an opaque-origin `srcdoc` iframe (docs/API.md, "MCP Apps").
   */
  sandboxUrl?: string;
}
