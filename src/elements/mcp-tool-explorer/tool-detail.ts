// The selected tool: description, badges, schemas, copy, and "Try it" (generated form or raw
// JSON) with the result. A chunk of its own with the form it renders (`<mcp-schema-form>`),
// imported the first time a tool is selected: a page that only lists tools never fetches it.
import { html, nothing } from 'lit';
import { live } from 'lit/directives/live.js';
import { loadValidator, toolUi, validateArguments, validatorLoaded, type Tool } from '../../core/index.js';
import '../../internal/schema-form-define.js';
import type { McpSchemaForm } from '../../internal/schema-form.js';
import type { Translate } from './host.js';
import type { Entry, ToolsState } from './tools-state.js';
import type { DetailStrings } from './strings.js';
import { icon } from './tool-list.js';

/** The strings only the selected tool's panel shows (English); they join the element's defaults when it loads. */
export const DETAIL_STRINGS: DetailStrings = {
  readOnly: 'read-only',
  destructive: 'destructive',
  idempotent: 'idempotent',
  openWorld: 'open world',
  // MCP Apps: who may call the tool, and whether it has a view
  appOnly: 'app only (hidden from the model)',
  modelOnly: 'model only',
  hasView: 'has a view',
  inputSchema: 'Input schema',
  outputSchema: 'Output schema',
  copySchema: 'Copy schema',
  copied: 'Copied',
  tryIt: 'Try it',
  form: 'Form',
  rawJson: 'Raw JSON',
  argumentsJson: 'Arguments (JSON)',
  run: 'Run',
  running: 'Running…',
  invalid: 'Arguments do not match the schema:',
  fixFields: 'Fill in the marked fields, then run it again.',
  notJson: 'Not valid JSON:',
  on: 'on',
};
type Tr = Translate<DetailStrings>;

/** Annotation hints as badges (they are hints from the server, not guarantees); MCP Apps visibility and views. */
function badges(tool: Tool, tr: Tr) {
  const hints = tool.annotations ?? {};
  const ui = toolUi(tool);
  const model = ui.visibility.includes('model');
  return html`<span class="badges">
    ${!model ? html`<span class="badge app-only" data-badge="app-only">${tr('appOnly')}</span>` : nothing}
    ${model && !ui.visibility.includes('app') ? html`<span class="badge" data-badge="model-only">${tr('modelOnly')}</span>` : nothing}
    ${ui.resourceUri ? html`<span class="badge" data-badge="view">${tr('hasView')}</span>` : nothing}
    ${hints.readOnlyHint ? html`<span class="badge read-only">${tr('readOnly')}</span>` : nothing}
    ${hints.destructiveHint && !hints.readOnlyHint ? html`<span class="badge destructive">${tr('destructive')}</span>` : nothing}
    ${hints.idempotentHint ? html`<span class="badge">${tr('idempotent')}</span>` : nothing}
    ${hints.openWorldHint ? html`<span class="badge">${tr('openWorld')}</span>` : nothing}
  </span>`;
}

async function copySchema(t: ToolsState, tool: Tool): Promise<void> {
  const text = JSON.stringify(
    { inputSchema: tool.inputSchema, ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}) },
    null,
    2,
  );
  try {
    await navigator.clipboard.writeText(text);
    t.set({ copied: true });
  } catch {
    t.set({ copied: false });
  }
}

/** Current arguments: from the form, or parsed from the raw JSON (`notJson`: the error's prefix). */
function currentArgs(t: ToolsState, notJson: string): { value?: Record<string, unknown>; error?: string } {
  if (!t.raw) return { value: (t.args ?? {}) as Record<string, unknown> };
  try {
    const v = JSON.parse(t.rawText);
    if (!v || typeof v !== 'object' || Array.isArray(v)) return { error: `${notJson} an object is required` };
    return { value: v };
  } catch (e) {
    return { error: `${notJson} ${(e as Error).message}` };
  }
}

async function runTool(t: ToolsState, entry: Entry, notJson: string): Promise<void> {
  const args = currentArgs(t, notJson);
  if (!args.value) return;
  // Run is when the form shows every problem; nothing is sent while there is one
  t.set({ tried: true });
  const form = t.context.host.renderRoot.querySelector('mcp-schema-form') as McpSchemaForm | null;
  if (!t.raw && form && !form.reportValidity()) return;
  // Run is disabled from here on, the wait for the validator included (it comes with the form,
  // so this wait is rare); the hub checks again before anything is sent, so a validator that
  // could not load stops nothing here
  const before = t.run;
  t.set({ run: { state: 'running' } });
  if (!validatorLoaded()) await loadValidator().catch(() => {});
  if (validatorLoaded() && validateArguments(entry.tool, args.value)) {
    t.set({ run: before }); // nothing ran; the problem shows where the arguments are
    return;
  }
  try {
    // the card follows the call from the moment it exists: progress, Cancel, result, error
    const record = await t.context.host.hub.callTool({
      serverId: entry.serverId,
      tool: entry.tool.name,
      arguments: args.value,
      source: 'user',
      onCall: (r) => t.set({ run: { state: 'running', callId: r.id } }),
    });
    t.set({ run: { state: 'done', callId: record.id } });
  } catch (err) {
    t.set({ run: { state: 'done', error: (err as Error).message } });
  }
}

function renderModeSwitch(t: ToolsState, tr: Tr) {
  return html`<div class="toolbar" role="radiogroup" aria-label=${tr('tryIt')}>
    <label
      ><input
        type="radio"
        name="mode"
        .checked=${live(!t.raw)}
        @change=${() => {
          const a = currentArgs(t, tr('notJson'));
          t.set({ ...(a.value ? { args: a.value } : {}), raw: false });
        }}
      />
      ${tr('form')}</label
    >
    <label
      ><input
        type="radio"
        name="mode"
        data-action="raw"
        .checked=${live(t.raw)}
        @change=${() => t.set({ rawText: JSON.stringify(t.args ?? {}, null, 2), raw: true })}
      />
      ${tr('rawJson')}</label
    >
  </div>`;
}

function renderArguments(t: ToolsState, tool: Tool, problem: string | null, tr: Tr) {
  return t.raw
    ? html`<div class="raw field">
        <label for="raw-args">${tr('argumentsJson')}</label>
        <textarea
          id="raw-args"
          aria-invalid=${problem ? 'true' : 'false'}
          aria-describedby="args-problem"
          .value=${live(t.rawText)}
          @input=${(ev: Event) => t.set({ rawText: (ev.target as HTMLTextAreaElement).value })}
        ></textarea>
      </div>`
    : html`<mcp-schema-form
        id-prefix="arg"
        ?show-errors=${t.tried}
        .schema=${tool.inputSchema}
        .value=${t.args}
        @input=${(ev: Event) => t.set({ args: (ev.target as McpSchemaForm).value })}
      ></mcp-schema-form>`;
}

/** The call as the card every call gets; only a call that could not start is a line of text. */
function renderOutcome(t: ToolsState) {
  const run = t.run;
  if (run?.callId)
    return html`<mcp-tool-call part="call" .hub=${t.context.host.hub} call-id=${run.callId}></mcp-tool-call>`;
  return run?.error ? html`<p class="error-text" role="alert">${run.error}</p>` : nothing;
}

export function renderToolDetail(t: ToolsState, tr: Tr) {
  const e = t.entries.find((x) => x.key === t.selected);
  if (!e) return nothing;
  const tool = e.tool;
  const args = currentArgs(t, tr('notJson'));
  // raw JSON is checked as it is typed; the form's problems show by field, and here once Run was pressed
  // (the validator comes with the form's chunk; until then only JSON errors show)
  const problem =
    args.error ?? (args.value && (t.raw || t.tried) && validatorLoaded() ? validateArguments(tool, args.value) : null);
  const summary = problem ? (t.raw ? `${tr('invalid')} ${problem}` : tr('fixFields')) : '';
  return html`<section class="detail" part="detail" aria-label=${tool.title ?? tool.name}>
    <h3>${icon(tool)}${tool.title ?? tool.name}</h3>
    <p class="muted"><code>${tool.name}</code> ${tr('on')} ${e.serverName}</p>
    ${badges(tool, tr)} ${tool.description ? html`<p class="description">${tool.description}</p>` : nothing}
    <details>
      <summary>${tr('inputSchema')}</summary>
      <pre tabindex="0">${JSON.stringify(tool.inputSchema, null, 2)}</pre>
    </details>
    ${
      tool.outputSchema
        ? html`<details>
            <summary>${tr('outputSchema')}</summary>
            <pre tabindex="0">${JSON.stringify(tool.outputSchema, null, 2)}</pre>
          </details>`
        : nothing
    }
    <div class="toolbar">
      <button data-action="copy" @click=${() => void copySchema(t, tool)}>${tr('copySchema')}</button
      ><span role="status" aria-live="polite">${t.copied ? tr('copied') : ''}</span>
    </div>
    <section part="try" aria-label=${tr('tryIt')}>
      <h4>${tr('tryIt')}</h4>
      ${renderModeSwitch(t, tr)} ${renderArguments(t, tool, problem, tr)}
      <p class="invalid" id="args-problem" aria-live="polite">${summary}</p>
      <div class="toolbar">
        <button
          class="primary"
          data-action="run"
          ?disabled=${!!args.error || t.run?.state === 'running'}
          @click=${() => void runTool(t, e, tr('notJson'))}
        >
          ${t.run?.state === 'running' ? tr('running') : tr('run')}
        </button>
      </div>
      ${renderOutcome(t)}
    </section>
  </section>`;
}
