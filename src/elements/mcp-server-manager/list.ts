// The manager's server list (status, tool count, last error, enable switch, connect, edit,
// confirmed removal) and the mcp.json import / export panel.
import { errorText, renderErrorText } from '../../internal/error-text.js';
import { html, nothing } from 'lit';
import { live } from 'lit/directives/live.js';
import {
  CORS_HINT,
  McpElementsError,
  McpServerRemoveRequestEvent,
  type ConnectAttempt,
  type ServerCatalogue,
  modelVisible,
  toolUi,
  type ServerConfig,
  type SignInState,
} from '../../core/index.js';
import { relayLabel } from './strings.js';
import type { ManagerUi } from './ui.js';
import { connectionRevision, serverDescription, serverIcon, serverTitle } from '../../internal/server-identity.js';

/**
 * Remove after the confirmation. Focus never falls to the page start: it goes to the row that took
 * the removed one's place (its Edit), else to Add server; back to Remove when the host vetoed.
 */
async function remove(ui: ManagerUi, server: ServerConfig) {
  ui.rows.set({ confirm: null });
  const ids = ui.hub.servers.list().map((s) => s.id);
  const next = ids[ids.indexOf(server.id) + 1];
  if (!ui.emit(new McpServerRemoveRequestEvent({ serverId: server.id, name: server.name })))
    return ui.focus(`[data-server="${CSS.escape(server.id)}"] [data-action=remove]`);
  await ui.hub.servers.remove(server.id);
  await ui.focus(next ? `[data-server="${CSS.escape(next)}"] [data-action=edit]` : '[data-action=add]');
}

async function toggleEnabled({ hub }: ManagerUi, server: ServerConfig, on: boolean) {
  await hub.servers.update(server.id, { enabled: on });
  if (on) void hub.connect(server.id).catch(() => {});
}

/**
 * Reach the server through the host's relay (`relayUrl`), then connect again. A move (the hub
 * drops "Always allow" and the sign-in): the offer says that saved credentials go through the
 * relay too, so the click confirms them.
 */
async function useRelay({ hub }: ManagerUi, server: ServerConfig) {
  await hub.servers.update(server.id, { relay: hub.relayUrl }, { confirmSecrets: true });
  void hub.connect(server.id).catch(() => {});
}

/** An OAuth server waiting for its user: its one action is Sign in. */
const signsIn = (server: ServerConfig, status: string) => server.auth.type === 'oauth' && status === 'needs-sign-in';

/**
 * Connect; when the server answers that it wants a signed-in user, Connect gives way to Sign in:
 * focus goes there and the row says so (the popup may open only from a click of its own).
 */
async function connect({ hub, rows, focus }: ManagerUi, server: ServerConfig) {
  rows.set({ signInHint: null });
  await hub.connect(server.id).catch(() => {});
  if (!signsIn(server, hub.status(server.id).status)) return;
  rows.set({ signInHint: server.id });
  await focus(`[data-server="${CSS.escape(server.id)}"] [data-action=sign-in]`);
}

/** Whether a stored config holds a secret in the vault (those are stored as references). */
const holdsSecrets = (server: ServerConfig) => JSON.stringify([server.auth, server.headers]).includes('"secretRef"');

async function importConfig({ hub, rows }: ManagerUi) {
  try {
    const r = await hub.importConfig(rows.io.importText);
    for (const s of r.added) if (s.enabled) void hub.connect(s.id).catch(() => {});
    rows.set({
      io: {
        ...rows.io,
        result: {
          added: r.added.map((s) => s.name),
          errors: r.errors.map((e) => ({
            name: e.name,
            message: e.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; '),
          })),
        },
      },
    });
  } catch (e) {
    rows.set({
      io: {
        ...rows.io,
        result: { added: [], errors: [{ name: '', message: e instanceof McpElementsError ? e.message : String(e) }] },
      },
    });
  }
}

/** The host of an issuer URL, for a short line ("Signed in with auth.example.com"). */
function issuerHost(issuer: string | undefined): string {
  try {
    return issuer ? new URL(issuer).host : '';
  } catch {
    return issuer ?? '';
  }
}

/** Scope names as a readable list ("mcp:tools, files:read and files:write"). */
function scopeList(scopes: readonly string[]): string {
  const LF = (Intl as { ListFormat?: typeof Intl.ListFormat }).ListFormat;
  return LF ? new LF(undefined, { type: 'conjunction' }).format(scopes) : scopes.join(', ');
}

/** What the sign-in of an OAuth server allows, in words, on one line (no buttons: see signInButton). */
function renderSignIn(ui: ManagerUi, server: ServerConfig, status: string, signIn: SignInState | undefined) {
  const { rows, t } = ui;
  if (server.auth.type !== 'oauth') return nothing;
  const failed = rows.signInErrors[server.id];
  if (signIn?.status === 'signed-in' && status !== 'needs-sign-in') {
    const at = signIn.expiresAt ? new Date(signIn.expiresAt) : undefined;
    const time = at
      ? html`<time datetime=${at.toISOString()}
          >${at.toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' })}</time
        >`
      : nothing;
    return html`<p class="muted sign-in" part="sign-in">
      ${signIn.account ? t('signedInAs').replace('{account}', () => signIn.account ?? '') : t('signedInWith')}
      <strong>${issuerHost(signIn.issuer)}</strong>.
      ${signIn.scopes?.length ? html`${t('scopesGranted')}: ${scopeList(signIn.scopes)}.` : nothing}
      ${at ? (signIn.refreshable ? html`${t('expires')} ${time}.` : html`${t('tokenExpires')} ${time}.`) : nothing}
    </p>`;
  }
  if (!failed && rows.signInHint === server.id && status === 'needs-sign-in' && signIn?.status !== 'pending')
    return html`<p class="sign-in" part="sign-in" role="status">${t('connectSignsIn')}</p>`;
  return failed
    ? html`<div role="alert" class="sign-in" part="sign-in">
        ${renderErrorText(errorText({ message: failed }), t('errorDetails'), { className: 'last-error' })}
      </div>`
    : nothing;
}

/**
 * Sign in or Sign out, for the server's one action row. Sign in calls `hub.signIn()` in its click
 * handler itself: the popup must open in the user's click, before anything is awaited.
 */
function signInButton(ui: ManagerUi, server: ServerConfig, status: string, signIn: SignInState | undefined) {
  const { hub, rows, t } = ui;
  if (server.auth.type !== 'oauth') return nothing;
  if (signIn?.status === 'signed-in' && status !== 'needs-sign-in')
    return html`<button data-action="sign-out" @click=${() => void hub.signOut(server.id).catch(() => {})}>
      ${t('signOut')}
    </button>`;
  const pending = signIn?.status === 'pending';
  // a server that cannot be reached cannot be signed in to: its error line says what to check
  const unreachable = status === 'error' && ui.state().connections[server.id]?.error?.code === 'network';
  if (unreachable && !pending && !rows.signInErrors[server.id]) return nothing;
  return html`<button
    class="primary"
    data-action="sign-in"
    ?disabled=${!server.enabled}
    @click=${() => {
      rows.set({ signInErrors: { ...rows.signInErrors, [server.id]: '' }, signInHint: null });
      hub.signIn(server.id).catch((e: Error) => {
        if ((e as McpElementsError).code !== 'cancelled')
          rows.set({ signInErrors: { ...rows.signInErrors, [server.id]: e.message } });
      });
    }}
  >
    ${pending ? t('signingIn') : t('signIn')}
  </button>`;
}

function renderActions(ui: ManagerUi, server: ServerConfig, status: string, signIn: SignInState | undefined) {
  const { hub, rows, t } = ui;
  if (rows.confirm === server.id)
    return html`<div class="confirm row" role="alertdialog" aria-label=${t('confirmRemove')}>
      <span>${t('confirmRemove')}</span>
      <button class="danger" data-action="confirm-remove" @click=${() => void remove(ui, server)}>
        ${t('remove')}
      </button>
      <button data-action="keep" @click=${() => rows.set({ confirm: null })}>${t('keep')}</button>
    </div>`;
  return html`<div class="row actions">
    ${signInButton(ui, server, status, signIn)}
    ${
      signsIn(server, status)
        ? nothing // Sign in is the way to connect: a Connect beside it would only ask again
        : status === 'connected'
          ? html`<button data-action="disconnect" @click=${() => void hub.disconnect(server.id)}>
              ${t('disconnect')}
            </button>`
          : html`<button
              data-action="connect"
              ?disabled=${!server.enabled || status === 'connecting'}
              @click=${() => void connect(ui, server)}
            >
              ${t('connect')}
            </button>`
    }
    <button data-action="edit" aria-label=${`${t('edit')} ${server.name}`} @click=${() => ui.startEdit(server.id)}>
      ${t('edit')}
    </button>
    <button
      class="danger"
      data-action="remove"
      aria-label=${`${t('remove')} ${server.name}`}
      @click=${() => {
        rows.set({ confirm: server.id });
        void ui.focus('[data-action=keep]');
      }}
    >
      ${t('remove')}
    </button>
  </div>`;
}

/**
 * The count a model can be offered (tools whose visibility includes the model), and how many
 * more only the server's app views may call, explained in a title (the selector counts alike).
 */
function renderToolCount({ t }: ManagerUi, cat: ServerCatalogue | undefined) {
  if (!cat) return nothing;
  const model = cat.tools.filter(modelVisible).length;
  const appOnly = cat.tools.filter((tool) => !modelVisible(tool) && toolUi(tool).visibility.includes('app')).length;
  const tools = `${model} ${t(model === 1 ? 'tool' : 'tools')}`;
  return html`<span class="muted" part="tool-count"
    >${tools}${
      appOnly
        ? html` ·
            <span title=${t('appOnlyTitle')}>${t('appOnly').replace('{n}', String(appOnly))}</span>`
        : nothing
    }</span
  >`;
}

/** What the server says it is: title, version and description, one line (the whole as its tooltip). */
function renderAbout(cat: ServerCatalogue | undefined) {
  const title = serverTitle(cat?.serverInfo);
  if (!title) return nothing;
  const description = serverDescription(cat?.serverInfo);
  const text = description ? `${title} — ${description}` : title;
  return html`<div class="about muted one-line" part="about" title=${text}>${text}</div>`;
}

/** A connect's progress: which attempt of how many, and the seconds spent of its budget. */
function renderAttempt({ t }: ManagerUi, a: ConnectAttempt) {
  const elapsed = Math.max(0, Math.floor((Date.now() - a.startedAt) / 1000));
  const budget = Math.round((a.deadline - a.startedAt) / 1000);
  const text = t('attemptOf')
    .replace('{n}', String(a.number))
    .replace('{of}', String(a.of))
    .replace('{elapsed}', String(elapsed))
    .replace('{budget}', String(budget));
  return html`<span class="muted" part="attempt">${text}</span>`;
}

/** One server's row; `form` is its edit form when the server is being edited (opened in place). */
export function renderServer(ui: ManagerUi, server: ServerConfig, form: unknown = nothing, notice: unknown = nothing) {
  const { hub, t } = ui;
  const { connections, catalogues, signIns } = ui.state();
  const c = connections[server.id];
  const status = c?.status ?? 'disconnected';
  const cat = catalogues[server.id];
  // the protocol revision is for the curious: the status's title, and the edit form
  const revision = connectionRevision(c, cat, t);
  return html`<li class="server" part="server" data-server=${server.id}>
    <div class="head">
      <div class="row">
        <span part="status" class="row" title=${revision ? `${t('protocol')}: ${revision}` : nothing}
          ><span class="dot" data-status=${status} aria-hidden="true"></span
          ><span class="status-text">${t(status)}</span></span
        >
        ${status === 'connecting' && c?.attempt ? renderAttempt(ui, c.attempt) : nothing}
        ${serverIcon(cat?.serverInfo)}<span class="name">${server.name}</span> ${renderToolCount(ui, cat)}
      </div>
      <!-- its own column: the switch stays put whatever the name's length -->
      <label class="enable"
        ><input
          type="checkbox"
          role="switch"
          data-action="enable"
          .checked=${live(server.enabled)}
          @change=${(e: Event) => void toggleEnabled(ui, server, (e.target as HTMLInputElement).checked)}
        />
        ${t('enabled')}</label
      >
    </div>
    <div class="url">${server.url}</div>
    ${
      server.relay
        ? html`<div class="relay" part="relay" title=${server.relay}>
            ${t('viaRelay').replace('{relay}', () => relayLabel(server.relay!))}
          </div>`
        : nothing
    }
    ${renderAbout(cat)} ${notice}
    ${
      c?.error && status === 'error'
        ? renderErrorText(errorText(c.error, { url: server.url }), t('errorDetails'), { className: 'last-error' })
        : nothing
    }
    ${
      c?.error && status === 'error' && hub.relayUrl && !server.relay && refusedByCors(c.error.message)
        ? html`<p class="relay-offer" part="relay-offer">
            ${t('relayOffer')} ${holdsSecrets(server) ? t('relayCarriesSecrets') : nothing}
            <button type="button" data-action="use-relay" @click=${() => void useRelay(ui, server)}>
              ${t('useRelay')}
            </button>
          </p>`
        : nothing
    }
    ${renderSignIn(ui, server, status, signIns[server.id])} ${renderActions(ui, server, status, signIns[server.id])}
    ${form}
  </li>`;
}

// the CORS diagnosis names the headers of the revision in use, so match its fixed opening
const refusedByCors = (message: string) => message.includes(CORS_HINT.slice(0, CORS_HINT.indexOf(':')));

export function renderImportExport(ui: ManagerUi) {
  const { hub, rows, t } = ui;
  const io = rows.io;
  return html`<details class="io" part="io">
    <summary>${t('importExport')}</summary>
    <div class="field">
      <label for="f-import">${t('importLabel')}</label>
      <textarea
        id="f-import"
        .value=${live(io.importText)}
        @input=${(e: Event) => rows.set({ io: { ...rows.io, importText: (e.target as HTMLTextAreaElement).value } })}
      ></textarea>
      <div class="row">
        <button data-action="import" @click=${() => void importConfig(ui)}>${t('import')}</button>
      </div>
      <div role="status" aria-live="polite">
        ${
          io.result
            ? html`${io.result.added.length ? html`<p>${t('imported')}: ${io.result.added.join(', ')}</p>` : nothing}
              ${
                io.result.errors.length
                  ? html`<p class="error-text">${t('notImported')}:</p>
                      <ul class="import-errors">
                        ${io.result.errors.map((e) => html`<li>${e.name ? html`<strong>${e.name}</strong>: ` : nothing}${e.message}</li>`)}
                      </ul>`
                  : nothing
              }`
            : nothing
        }
      </div>
    </div>
    <div class="row">
      <button data-action="export" @click=${() => rows.set({ io: { ...rows.io, exportText: hub.exportConfig() } })}>
        ${t('export')}
      </button>
      ${io.exportText ? html`<a class="button" data-action="download" download="mcp.json" href=${`data:application/json;charset=utf-8,${encodeURIComponent(io.exportText)}`}>${t('download')}</a>` : nothing}
    </div>
    ${io.exportText ? html`<div class="field"><label for="f-export">${t('exportLabel')}</label><textarea id="f-export" readonly .value=${io.exportText}></textarea></div>` : nothing}
  </details>`;
}
