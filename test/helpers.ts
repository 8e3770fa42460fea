// Shared helpers for browser tests. The servers' URLs come from scripts/test.mjs.
// @ts-expect-error served by the test runner (web-test-runner.config.mjs)
import servers from '/__servers.js';
// @ts-expect-error served by the test runner (web-test-runner.config.mjs)
import engineName from '/__engine.js';
import { sendMouse } from '@web/test-runner-commands';
import { McpHub, type McpHubOptions } from '../src/core/index.js';

export const urls = servers as {
  everything: string;
  everythingSse: string;
  fixture: string;
  /** plain JSON-RPC endpoint (G4F style) */
  jsonrpc: string;
  /** 2026-07-28 peer base: append /t/<tenant>/[strict|cached|paged/]mcp */
  modern: string;
  /** the same peer with a CORS preflight that allows only Content-Type */
  modernStrictCors: string;
  /** 2025-03-26-only peer base: append /t/<tenant>/[paged/]mcp */
  legacy0326: string;
  /** the authorization server of the sign-in tests (oidc-provider) */
  oauthIssuer: string;
  /** the MCP server it protects: append /t/<tenant>[/<flags>]/mcp (test/fixtures/oauth-server.mjs) */
  oauthMcp: string;
  /** the fault matrix's server (test/fixtures/fault-server.mjs): append /f/<tenant>/<fault>/mcp */
  faults: string;
  /** the same fault server on 5 more ports, each its own origin (6 connections each in a browser) */
  faultAliases: string[];
  /** the tasks peer: append /t/<tenant>/mcp (test/fixtures/tasks-server.mjs) */
  tasks: string;
  /** every field hostile (test/fixtures/hostile-server.mjs): append /t/<tenant>/<string index>/mcp */
  hostile: string;
  /** identity provider + authorization server + MCP server of the JWT-bearer tests: append /t/<tenant>/mcp (test/fixtures/idjag-server.mjs) */
  idjag: string;
  /** two origins that log every request (preflights too) and a port nothing listens on: append /t/<tenant>/<route> (test/fixtures/origins-server.mjs) */
  origins: { a: string; b: string; bPort: number; dead: string };
  /** the SDK's skills server, SEP-2640 (test/fixtures/skills-server.mjs): append /t/<tenant>/mcp */
  skills: string;
  /** a token endpoint on a second origin that must never receive anything: POST /token, GET /seen */
  idjagThief: string;
  /** server-everything without CORS, and the relay reaching it (test/fixtures/relay-fixture.mjs); absent without a build */
  noCors?: string;
  relay?: string;
  /** Cloudflare's agents McpAgent in workerd (test/fixtures/cf-agent/): append /mcp (Streamable HTTP) or /sse (legacy) */
  cfAgent: string;
  registry: string;
};
/** The engine this run is in (scripts/engines.mjs). */
export const engine = engineName as 'chromium' | 'firefox' | 'webkit';

/**
 * Skip the running test in the named engines, only where it truly cannot run there. The reason
 * goes into the test's title, so `npm test` prints it with the engine's skip count.
 * Use inside `it(..., function () { skipIn(this, { webkit: 'why' }); ... })`.
 */
export function skipIn(ctx: Mocha.Context, reasons: Partial<Record<typeof engine, string>>): void {
  const why = reasons[engine];
  if (!why) return;
  skipBecause(ctx, `in ${engine}: ${why}`);
}

/**
 * Skip the running test, or from a `before` hook every test of its suite, saying why: the reason
 * goes into each skipped test's title (`… (skipped <why>)`), which `npm test` prints; a skip
 * without one counts as a failure there (scripts/test.mjs).
 */
export function skipBecause(ctx: Mocha.Context, why: string): void {
  const t = ctx.test;
  const skipped = (t as { type?: string } | undefined)?.type === 'hook' ? (t?.parent?.tests ?? []) : t ? [t] : [];
  for (const x of skipped) x.title += ` (skipped ${why})`;
  ctx.skip();
}

let n = 0;
/** A unique name, for stores and fixture tenants. */
export function unique(prefix = 't'): string {
  return `${prefix}-${Date.now().toString(36)}-${(n++).toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
}

/** A private hub on its own IndexedDB store. Events go to `window` as in a real page unless told. */
export function privateHub(options: McpHubOptions = {}): McpHub {
  const hub = new McpHub({ storeName: unique('store'), ...options });
  hubs.push(hub);
  return hub;
}
const hubs: McpHub[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((h) => h.dispose()));
});

/** A fresh isolated tenant on our fixture server; returns its MCP URL and control helpers. */
export function fixtureTenant() {
  const t = unique('tenant');
  const base = `${urls.fixture}/t/${t}`;
  return {
    url: `${base}/mcp`,
    expire: () => fetch(`${base}/control/expire`, { method: 'POST' }).then((r) => r.json()),
    stats: () =>
      fetch(`${base}/control/stats`).then((r) => r.json()) as Promise<{
        cancelled: string[];
        running: number;
        maxRunning: number;
        initializes: number;
        posts: number;
        lastHeaders: Record<string, string>;
        sessions: number;
      }>,
  };
}

/** Resolve with the next event of `type` on `target` that satisfies `where`. */
export function nextEvent<E extends Event>(
  target: EventTarget,
  type: string,
  where: (e: E) => boolean = () => true,
): Promise<E> {
  return new Promise((resolve) => {
    const on = (e: Event) => {
      if (!where(e as E)) return;
      target.removeEventListener(type, on);
      resolve(e as E);
    };
    target.addEventListener(type, on);
  });
}

/** Collect every event of the given types dispatched on `target` until stop() is called. */
export function recordEvents(target: EventTarget, types: string[]) {
  const seen: Event[] = [];
  const on = (e: Event) => seen.push(e);
  for (const t of types) target.addEventListener(t, on);
  return {
    seen,
    stop() {
      for (const t of types) target.removeEventListener(t, on);
    },
  };
}

/** Expect `p` to reject; return the error. */
export async function rejects(p: Promise<unknown>): Promise<any> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected the promise to reject');
}

/** Every raw key and value in an IndexedDB database, read without our code. */
export async function rawIdb(dbName: string): Promise<{ key: string; value: unknown }[]> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const r = indexedDB.open(dbName);
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
  const out: { key: string; value: unknown }[] = [];
  for (const storeName of Array.from(db.objectStoreNames)) {
    const tx = db.transaction(storeName, 'readonly');
    const store = tx.objectStore(storeName);
    const [keys, values] = await Promise.all([
      new Promise<IDBValidKey[]>((res) => (store.getAllKeys().onsuccess = (e) => res((e.target as IDBRequest).result))),
      new Promise<unknown[]>((res) => (store.getAll().onsuccess = (e) => res((e.target as IDBRequest).result))),
    ]);
    keys.forEach((k, i) => out.push({ key: String(k), value: values[i] }));
  }
  db.close();
  return out;
}

/** A deep text dump of any value, including typed arrays and ArrayBuffers decoded as UTF-8. */
export function dump(value: unknown): string {
  const parts: string[] = [];
  const seen = new Set<unknown>();
  const walk = (v: unknown) => {
    if (v === null || v === undefined) return;
    if (typeof v === 'string') parts.push(v);
    else if (v instanceof ArrayBuffer) parts.push(new TextDecoder().decode(v));
    else if (ArrayBuffer.isView(v)) parts.push(new TextDecoder().decode(v as Uint8Array));
    else if (typeof v === 'object') {
      if (seen.has(v)) return;
      seen.add(v);
      for (const [k, c] of Object.entries(v as object)) {
        parts.push(k);
        walk(c);
      }
    } else parts.push(String(v));
  };
  walk(value);
  return parts.join('\n');
}

/**
 * Re-check `probe` (each check is a real request or read) until it returns a truthy value: at
 * least `attempts` checks one animation frame apart, and for at least 10 s (a loaded machine
 * draws few frames: 100 frames were under 2 s in Firefox during a full run).
 */
export async function until<T>(probe: () => Promise<T>, what: string, attempts = 100): Promise<NonNullable<T>> {
  const start = Date.now();
  for (let i = 0; i < attempts || Date.now() - start < 10_000; i++) {
    const v = await probe();
    if (v) return v as NonNullable<T>;
    await new Promise((r) => requestAnimationFrame(() => r(null)));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/**
 * Wait until `check()` holds after the element rendered (each check after an animation frame; at
 * least 200 checks and at least 10 s, as `until`).
 */
export async function untilRendered(el: { updateComplete: Promise<unknown> }, check: () => unknown, what: string) {
  const start = Date.now();
  for (let i = 0; i < 200 || Date.now() - start < 10_000; i++) {
    await el.updateComplete;
    if (check()) return;
    await new Promise((r) => requestAnimationFrame(r));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/** Type `name` into the `#f-name` field of server-everything's elicitation form and Accept it. */
export async function acceptNameForm(form: HTMLElement & { updateComplete: Promise<unknown> }, name: string) {
  const input = form.shadowRoot!.querySelector('#f-name') as HTMLInputElement;
  input.value = name;
  input.dispatchEvent(new Event('input'));
  await form.updateComplete;
  (form.shadowRoot!.querySelector('[data-action=accept]') as HTMLButtonElement).click();
}

/** Attach and detach an element 10 times; the hub must end with as many listeners as it began. */
export async function expectNoLeakedSubscriptions(tag: string) {
  const { expect } = await import('@open-wc/testing');
  const hub = privateHub();
  const before = hub.store.listenerCount;
  const el = document.createElement(tag) as HTMLElement & { hub: McpHub; updateComplete: Promise<unknown> };
  el.hub = hub;
  for (let i = 0; i < 10; i++) {
    document.body.append(el);
    await el.updateComplete;
    expect(hub.store.listenerCount).to.equal(before + 1);
    el.remove();
  }
  expect(hub.store.listenerCount).to.equal(before);
}

/** The tags of the six chat elements every cross-element test walks. */
export const CHAT_ELEMENT_TAGS = [
  'mcp-server-manager',
  'mcp-tool-explorer',
  'mcp-tool-call',
  'gpt-tool-selector',
  'mcp-elicitation',
  'mcp-task-monitor',
] as const;

/**
 * Capture what the page writes to the clipboard (each engine grants the permission its own way,
 * so the write itself is replaced); `restore()` puts the browser's own back.
 */
export function captureClipboard() {
  const clipboard = navigator.clipboard as Clipboard & { writeText: (t: string) => Promise<void> };
  const written: string[] = [];
  const own = Object.getOwnPropertyDescriptor(clipboard, 'writeText');
  clipboard.writeText = async (t: string) => void written.push(t);
  return {
    written,
    restore() {
      if (own) Object.defineProperty(clipboard, 'writeText', own);
      else delete (clipboard as { writeText?: unknown }).writeText;
    },
  };
}

/** Wait until IndexedDB store `dbName` holds call `id` with `status` (records are written behind the call path). */
export function untilStored(dbName: string, id: string, status: string) {
  return until(
    async () =>
      (await rawIdb(dbName)).some((r) => r.key === `call:${id}` && (r.value as { status?: string }).status === status),
    `the ${status} record of ${id} to be stored`,
  );
}

/** A real click (user activation: WebKit blocks popups without one) running `fn` in its handler. */
export async function click<T>(fn: () => T): Promise<T> {
  const b = document.createElement('button');
  b.textContent = 'Sign in';
  b.style.cssText = 'position:fixed;left:10px;top:10px;width:120px;height:40px;z-index:99999';
  document.body.append(b);
  let result: { value: T } | undefined;
  b.addEventListener('click', () => (result = { value: fn() }), { once: true });
  const r = b.getBoundingClientRect();
  await sendMouse({ type: 'click', position: [Math.round(r.x + r.width / 2), Math.round(r.y + r.height / 2)] });
  b.remove();
  if (!result) throw new Error('the click did not reach the button');
  return result.value;
}

/** The first element matching `sel` in `root`'s shadow root. */
export const q = <T extends Element = HTMLElement>(root: Element, sel: string) =>
  root.shadowRoot!.querySelector(sel) as T | null;
/** Every element matching `sel` in `root`'s shadow root. */
export const qa = (root: Element, sel: string) => [...root.shadowRoot!.querySelectorAll(sel)] as HTMLElement[];

/** The focused element, inside shadow roots too. */
export function focused(): Element | null {
  let a = document.activeElement;
  while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
  return a;
}
