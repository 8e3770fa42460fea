// One MCP App view on the page: its frame (the sandbox proxy on the host's second origin, or the
// opaque srcdoc fallback), the official ext-apps AppBridge over PostMessageTransport, and the
// hub's rules for everything the view asks (decision 058).
// The lifecycle is the spec's: ui/initialize (host context) → initialized → tool input →
// tool result or cancelled → ui/resource-teardown before the frame goes.
import {
  AppBridge,
  PostMessageTransport,
  type McpUiDisplayMode,
  type McpUiHostCapabilities,
  type McpUiHostContext,
} from '@modelcontextprotocol/ext-apps/app-bridge';
import type { CallToolResult, McpHub, Tool, ToolCallRecord } from '../core/index.js';
import { McpToolError } from '../core/index.js';
import { allowAttribute, viewDocument, SAME_ORIGIN_VIEW_SANDBOX, VIEW_SANDBOX } from './csp.js';
import { sandboxPage } from './sandbox-origin.js';
import { guardMessages, VIEW_LIMITS, type ViewLimits } from './message-guard.js';
import { loadUiResource, McpAppError, type UiResource } from './resources.js';
import { setModelContext } from './model-context.js';
import { viewDownload, type ViewDownload } from './download.js';
import { PROXY_SANDBOX, takeWarmFrame, viewFrame, warmFrame } from './warm-frames.js';

/** What the element showing the view decides (sizes, modes, the user's confirmations, events). */
export interface ViewHooks {
  /** The view asked for a size (px); the element applies it within its bounds. */
  size(width: number | undefined, height: number | undefined): void;
  /** Show the view in `mode` (already checked: declared by the view and offered by the host). */
  displayMode(mode: McpUiDisplayMode): void;
  /** Ask the user whether to open `url` (http(s) only reaches here); resolves with the answer. */
  confirmLink(url: string): Promise<boolean>;
  /** Ask the user whether to save the file the view offers (checked); resolves with the answer. */
  confirmDownload(file: ViewDownload): Promise<boolean>;
  /** `ui/message`: false when the host refused it (the cancelable event was cancelled). */
  message(params: { role: string; content: unknown[] }): boolean;
  /** A refused request or message, with the reason (also in the server's log). `fatal`: the view is closed. */
  refused(reason: string, fatal?: boolean): void;
  /** A call the view started (its record id): the element shows its approval. */
  appCall(callId: string): void;
}

export interface ViewHostOptions {
  readonly hub: McpHub;
  readonly viewId: string;
  readonly serverId: string;
  readonly resource: UiResource;
  /** The tool whose call the view shows, when it shows one. */
  readonly tool?: Tool;
  readonly callId?: string;
  /** The assistant whose call it is (app calls run under it). */
  readonly assistantId?: string;
  /** The sandbox proxy page; without it, the opaque srcdoc fallback. */
  readonly sandboxUrl?: string;
  /** Where the frame goes. */
  readonly container: HTMLElement;
  readonly context: () => McpUiHostContext;
  readonly hooks: ViewHooks;
  readonly limits?: ViewLimits;
}

const HOST_MODES: readonly McpUiDisplayMode[] = ['inline', 'fullscreen', 'pip'];
const HOST_INFO = { name: 'mcp-elements', version: '0.1.0' };
/** The proxy page for `serverId`'s views (`?host=` this page), and whether it is the server's own origin. */
async function proxyPage(hub: McpHub, sandboxUrl: string, serverId: string) {
  const page = await sandboxPage(sandboxUrl, { id: serverId, url: hub.servers.get(serverId)?.url });
  page.url.searchParams.set('host', location.origin);
  return page;
}

/**
 * Ready what a view of `uri` needs before it may run (a model's call waiting for approval): its
 * resource read (cached) and, in a sandbox mode, its proxy frame loaded (warm-frames.ts). Nothing
 * of the server's code runs. Failures are left for the view itself to show.
 */
export async function prepareView(hub: McpHub, serverId: string, uri: string, sandboxUrl = hub.sandboxUrl) {
  try {
    const resource = await loadUiResource(hub, serverId, uri);
    if (sandboxUrl)
      warmFrame((await proxyPage(hub, sandboxUrl, serverId)).url.href, allowAttribute(resource.meta.permissions));
  } catch {
    // the view, once allowed, reads the resource again and says what failed
  }
}

/** A user's click (or key) in this page or a frame of it within the browser's activation window. */
const userActive = () =>
  (navigator as Navigator & { userActivation?: { isActive: boolean } }).userActivation?.isActive === true;

/** Whether `frame` holds the page's focus (through shadow roots): the user's last click or key was in it. */
function focused(frame: HTMLIFrameElement | undefined): boolean {
  let el: Element | null = document.activeElement;
  while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
  return !!frame && el === frame;
}

/** How long `ui/resource-teardown` may take before the frame goes anyway. */
const TEARDOWN_MS = 1000;

/**
 * The modes a view may be shown in: those it declared that the host offers (inline always). The
 * spec holds a host to `availableDisplayModes` "if set": a view that sets none (server-debug's)
 * may be shown in any mode the host offers; a list, even an empty or malformed one, is kept to.
 */
export function viewModes(declared: unknown): McpUiDisplayMode[] {
  if (declared === undefined) return [...HOST_MODES];
  const list = Array.isArray(declared) ? declared : [];
  return HOST_MODES.filter((m) => m === 'inline' || list.includes(m));
}

export class AppViewHost {
  /** The view's frame (the sandbox proxy's, or the opaque view itself), once start() made it. */
  frame?: HTMLIFrameElement;
  readonly bridge: AppBridge;
  /** Resolves when the view sent `ui/notifications/initialized`. */
  readonly initialized: Promise<void>;
  readonly #o: ViewHostOptions;
  readonly #granted = new Set<string>();
  #mode: McpUiDisplayMode = 'inline';
  #unguard?: () => void;
  #closed = false;
  #ready = false;
  /** Aborts the view's calls still waiting when the view goes (closed) or starts over (a new document). */
  #calls = new AbortController();

  constructor(o: ViewHostOptions) {
    this.#o = o;
    const meta = o.resource.meta;
    const caps: McpUiHostCapabilities = {
      openLinks: {},
      downloadFile: {},
      serverTools: {},
      serverResources: {},
      logging: {},
      message: { text: {} },
      updateModelContext: { text: {}, structuredContent: {} },
      // sampling only where a server's own sampling requests would be answered: the host has a
      // model (setSamplingHandler) and the user allows this server to sample
      ...(o.hub.appViews.answers?.sampling.enabled && o.hub.servers.get(o.serverId)?.allowSampling
        ? { sampling: {} }
        : {}),
      sandbox: {
        ...(meta.csp ? { csp: meta.csp as NonNullable<McpUiHostCapabilities['sandbox']>['csp'] } : {}),
        ...(meta.permissions ? { permissions: meta.permissions } : {}),
      },
    };
    const bridge = (this.bridge = new AppBridge(null, HOST_INFO, caps, { hostContext: this.#context() }));
    this.initialized = new Promise<void>((resolve) => {
      bridge.oninitialized = () => {
        // a second handshake: the view's document was replaced (it navigated or reloaded); the
        // requests of the one before are nobody's now
        if (this.#ready) return this.#dropCalls('The view started again.');
        this.#ready = true;
        resolve();
        // what changed while the view started (a resize, a theme switch) follows in the next
        // task: reading the styles again does not hold back `initialized` and the tool input
        setTimeout(() => this.contextChanged());
      };
    });
    this.#handlers();
  }

  #context(): McpUiHostContext {
    const ctx = this.#o.context();
    return {
      ...ctx,
      displayMode: this.#mode,
      // what the host offers; a request is held to what the view declared (viewModes)
      availableDisplayModes: [...HOST_MODES],
      ...(this.#o.tool ? { toolInfo: { ...(this.#o.callId ? { id: this.#o.callId } : {}), tool: this.#o.tool } } : {}),
    };
  }

  /** Frame the view and connect; `initialized` resolves once it is running. */
  async start(): Promise<void> {
    const o = this.#o;
    const page = o.sandboxUrl ? await proxyPage(o.hub, o.sandboxUrl, o.serverId) : undefined;
    // closed while the sandbox page was worked out: no frame at all
    if (this.#closed) return;
    const origin = page ? page.url.origin : 'null';
    if (page && origin === location.origin)
      throw new McpAppError('bad-sandbox', 'The sandbox page must be served on another origin than this page.');
    const allow = allowAttribute(o.resource.meta.permissions);
    let announced = false;
    let frame: HTMLIFrameElement;
    if (page) {
      const url = page.url;
      // a proxy frame loaded ahead for this server (warm-frames.ts) moves in with its document kept
      const warm = takeWarmFrame(url.href, allow, o.container);
      frame = warm?.frame ?? viewFrame(PROXY_SANDBOX, allow);
      announced = !!warm?.ready;
      this.bridge.onsandboxready = () => {
        // once: a proxy page that reloads (or is navigated) does not get the view again; the
        // guard refuses every later sandbox-* message (message-guard.ts)
        this.bridge.onsandboxready = undefined;
        const { html, meta } = o.resource;
        void this.bridge.sendSandboxResourceReady({
          html,
          // an origin of this server's own: the view may be same-origin with its proxy
          ...(page.perServer ? { sandbox: SAME_ORIGIN_VIEW_SANDBOX } : {}),
          ...(meta.csp ? { csp: meta.csp as never } : {}),
          ...(meta.permissions ? { permissions: meta.permissions } : {}),
        });
      };
      if (!warm) frame.src = url.href;
      // the next view of this server finds its proxy loaded; made once this one runs, so the two
      // do not load side by side
      void this.initialized.then(() => this.#closed || warmFrame(url.href, allow));
    } else {
      // the fallback frame is the view itself: scripts and forms, an opaque origin
      frame = viewFrame(VIEW_SANDBOX, allow);
      frame.srcdoc = viewDocument(o.resource.html, o.resource.meta.csp);
    }
    this.frame = frame;
    frame.title = o.tool?.title ?? o.tool?.name ?? 'MCP App';
    this.#unguard = guardMessages(
      () => frame.contentWindow,
      origin,
      (reason, fatal) => this.#refuse(`Refused from the view: ${reason}.`, fatal),
      o.limits ?? VIEW_LIMITS,
      // a warm proxy already announced itself: every sandbox-* message from it is refused
      !!page && !announced,
    );
    // the frame starts loading as it is appended; its first message comes from a document that
    // is yet to load, long after connect() (microtasks) has the transport listening
    if (!frame.isConnected) o.container.append(frame);
    const win = frame.contentWindow!;
    await this.bridge.connect(new PostMessageTransport(win, win));
    if (announced && !this.#closed) this.bridge.onsandboxready?.({} as never);
  }

  #refuse(reason: string, fatal = false) {
    this.#o.hub.appLog(this.#o.serverId, { level: 'warning', logger: 'mcp-elements', data: reason });
    this.#o.hooks.refused(reason, fatal);
    if (fatal) this.close();
  }

  #handlers() {
    const { bridge } = this;
    const o = this.#o;
    bridge.onsizechange = ({ width, height }) => o.hooks.size(width, height);
    bridge.onrequestdisplaymode = async ({ mode }) => {
      if (!this.availableModes.includes(mode) || mode === this.#mode) return { mode: this.#mode };
      // fullscreen and pip cover the host's own page: only in the user's click in the view (it
      // activates this page too, and focuses the view's frame: typing in the host's chat box
      // activates the page but leaves the focus there), never on the view's own say-so. Going
      // back inline is free
      if (mode !== 'inline' && !(userActive() && focused(this.frame)))
        this.#refuse(`Refused ${mode}: a view may change its display mode only right after the user's click in it.`);
      else this.setDisplayMode(mode);
      return { mode: this.#mode };
    };
    bridge.onopenlink = async ({ url }) => {
      let u: URL | undefined;
      try {
        u = new URL(url);
      } catch {
        u = undefined;
      }
      if (!u || (u.protocol !== 'https:' && u.protocol !== 'http:') || u.username || u.password) {
        this.#refuse(`Refused to open "${String(url).slice(0, 200)}": only http(s) links without credentials.`);
        return { isError: true };
      }
      return (await o.hooks.confirmLink(u.href)) ? {} : { isError: true };
    };
    bridge.ondownloadfile = async (params) => {
      const file = viewDownload(params);
      if (typeof file === 'string') {
        this.#refuse(`Refused a download: ${file}.`);
        return { isError: true };
      }
      return (await o.hooks.confirmDownload(file)) ? {} : { isError: true };
    };
    bridge.onmessage = async (params) => {
      const ok = o.hooks.message(params as { role: string; content: unknown[] });
      return ok ? {} : { isError: true };
    };
    bridge.onupdatemodelcontext = async (params) => {
      try {
        setModelContext(o.hub, o.viewId, {
          serverId: o.serverId,
          ...(o.callId ? { callId: o.callId } : {}),
          ...(o.tool ? { tool: o.tool.name } : {}),
          ...(params.content ? { content: params.content } : {}),
          ...(params.structuredContent ? { structuredContent: params.structuredContent } : {}),
        });
      } catch (e) {
        this.#refuse(`Refused a model context update: ${(e as Error).message}`);
        throw e;
      }
      return {};
    };
    bridge.onloggingmessage = (params) =>
      o.hub.appLog(o.serverId, {
        level: String(params.level),
        ...(typeof params.logger === 'string' ? { logger: params.logger } : {}),
        data: params.data,
      });
    // the request's signal: the view cancelled it (notifications/cancelled, its own timeout)
    bridge.oncalltool = async (params, extra) =>
      this.#callTool(params.name, params.arguments ?? {}, extra.mcpReq.signal);
    // a view's sampling/createMessage: its server's, through the same rules as the server's own
    // requests (allowed per server, size and rate limits, the user's approval and review)
    bridge.oncreatesamplingmessage = async (params, extra) => {
      const answers = o.hub.appViews.answers!;
      try {
        return await answers.sampling.request(
          o.serverId,
          params,
          extra.mcpReq.signal,
          o.hub.servers.get(o.serverId)?.allowSampling ?? false,
        );
      } catch (e) {
        this.#refuse(`Refused a sampling request: ${(e as Error).message}`);
        throw e;
      }
    };
    bridge.onreadresource = async ({ uri }) => {
      // its own server only: the view has no way to name another
      const r = await o.hub.client(o.serverId).readResource(uri);
      return r as never;
    };
    bridge.onrequestteardown = () => this.close();
  }

  /** Cancel the view's calls in flight (those waiting for approval leave the user's sight). */
  #dropCalls(reason: string) {
    this.#calls.abort(new McpToolError('cancelled', reason));
    this.#calls = new AbortController();
  }

  /**
   * A view's `tools/call`: its own server, a tool with "app" visibility, approved per view. It
   * lasts only as long as the view's request: cancelled by the view, by the view going or starting
   * over, its approval prompt goes with it (the call ends `cancelled`).
   */
  async #callTool(name: string, args: Record<string, unknown>, request: AbortSignal): Promise<CallToolResult> {
    const o = this.#o;
    let record: ToolCallRecord;
    try {
      record = await o.hub.callTool({
        signal: AbortSignal.any([request, this.#calls.signal]),
        source: 'app',
        serverId: o.serverId,
        tool: name,
        arguments: args,
        ...(o.assistantId ? { assistantId: o.assistantId } : {}),
        appGranted: this.#granted.has(name),
        onCall: (r) => o.hooks.appCall(r.id),
      });
    } catch (e) {
      this.#refuse(`Refused the view's call of "${String(name).slice(0, 100)}": ${(e as Error).message}`);
      throw e;
    }
    if (record.approval === 'user-always') this.#granted.add(name);
    if (record.result) return record.result;
    throw new McpToolError(record.error?.code ?? 'error', record.error?.message ?? `The call ended ${record.status}.`);
  }

  // ---- host → view ------------------------------------------------------------------------

  /** The call's arguments (complete). */
  sendInput(args: Record<string, unknown>): Promise<void> {
    return this.bridge.sendToolInput({ arguments: args });
  }
  /** Arguments while the model still streams them. */
  sendPartialInput(args: Record<string, unknown>): Promise<void> {
    return this.bridge.sendToolInputPartial({ arguments: args });
  }
  sendResult(result: CallToolResult): Promise<void> {
    return this.bridge.sendToolResult(result as never);
  }
  sendCancelled(reason: string): Promise<void> {
    return this.bridge.sendToolCancelled({ reason });
  }

  get displayMode(): McpUiDisplayMode {
    return this.#mode;
  }

  /** Modes the user may switch to: those the view declared (any the host offers if it set none); inline until it initialized. */
  get availableModes(): McpUiDisplayMode[] {
    const caps = this.bridge.getAppCapabilities();
    return caps ? viewModes(caps.availableDisplayModes) : ['inline'];
  }

  /** Switch mode (the host's own button, or a request already checked). */
  setDisplayMode(mode: McpUiDisplayMode): void {
    if (!this.availableModes.includes(mode)) return;
    this.#mode = mode;
    this.#o.hooks.displayMode(mode);
    this.contextChanged();
  }

  /** Tell the view what changed in its context (theme, size): only once it is initialized. */
  contextChanged(): void {
    if (this.#ready && !this.#closed) this.bridge.setHostContext(this.#context());
  }

  /** `ui/resource-teardown`, answered or not within a second, then close. */
  async teardown(): Promise<void> {
    if (this.#closed) return;
    if (this.#ready)
      await Promise.race([
        this.bridge.teardownResource({}).catch(() => {}),
        new Promise((r) => setTimeout(r, TEARDOWN_MS)),
      ]);
    this.close();
  }

  /** Remove the frame and stop listening. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#dropCalls('The view was closed.');
    this.#unguard?.();
    void this.bridge.close().catch(() => {});
    this.frame?.remove();
    setModelContext(this.#o.hub, this.#o.viewId, null);
  }

  get closed(): boolean {
    return this.#closed;
  }
}
