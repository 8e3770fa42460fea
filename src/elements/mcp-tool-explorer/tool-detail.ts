// The selected tool: description, badges, schemas, copy, and "Try it" (generated form or raw
// JSON) with the result.
import { html, nothing } from 'lit';
import { live } from 'lit/directives/live.js';
import { loadValidator, validateArguments, validatorLoaded, type Tool } from '../../core/index.js';
import type { McpSchemaForm } from '../../internal/schema-form.js';
import type { McpToolExplorerElement } from './mcp-tool-explorer.js';
import type { Translate } from './strings.js';
import { badges, icon, type Entry } from './tool-list.js';

async function copySchema(el: McpToolExplorerElement, tool: Tool) {
  const text = JSON.stringify(
    { inputSchema: tool.inputSchema, ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}) },
    null,
    2,
  );
  try {
    await navigator.clipboard.writeText(text);
    el._copied = true;
  } catch {
    el._copied = false;
  }
}

/** Current arguments: from the form, or parsed from the raw JSON. */
function currentArgs(el: McpToolExplorerElement, tr: Translate): { value?: Record<string, unknown>; error?: string } {
  if (!el._raw) return { value: (el._args ?? {}) as Record<string, unknown> };
  try {
    const v = JSON.parse(el._rawText);
    if (!v || typeof v !== 'object' || Array.isArray(v)) return { error: `${tr('notJson')} an object is required` };
    return { value: v };
  } catch (e) {
    return { error: `${tr('notJson')} ${(e as Error).message}` };
  }
}

async function runTool(el: McpToolExplorerElement, entry: Entry, tr: Translate) {
  const args = currentArgs(el, tr);
  if (!args.value) return;
  // Run is when the form shows every problem; nothing is sent while there is one
  el._tried = true;
  const form = el.renderRoot.querySelector('mcp-schema-form') as McpSchemaForm | null;
  if (!el._raw && form && !form.reportValidity()) return;
  // Run is disabled from here on, the wait for the validator included (it comes with the form,
  // so this wait is rare); the hub checks again before anything is sent, so a validator that
  // could not load stops nothing here
  const before = el._run;
  el._run = { state: 'running' };
  if (!validatorLoaded()) await loadValidator().catch(() => {});
  if (validatorLoaded() && validateArguments(entry.tool, args.value)) {
    el._run = before; // nothing ran; the problem shows where the arguments are
    return;
  }
  try {
    // the card follows the call from the moment it exists: progress, Cancel, result, error
    const record = await el.hub.callTool({
      serverId: entry.serverId,
      tool: entry.tool.name,
      arguments: args.value,
      source: 'user',
      onCall: (r) => (el._run = { state: 'running', callId: r.id }),
    });
    el._run = { state: 'done', callId: record.id };
  } catch (err) {
    el._run = { state: 'done', error: (err as Error).message };
  }
}

function renderModeSwitch(el: McpToolExplorerElement, tr: Translate) {
  return html`<div class="toolbar" role="radiogroup" aria-label=${tr('tryIt')}>
    <label
      ><input
        type="radio"
        name="mode"
        .checked=${live(!el._raw)}
        @change=${() => {
          const a = currentArgs(el, tr);
          if (a.value) el._args = a.value;
          el._raw = false;
        }}
      />
      ${tr('form')}</label
    >
    <label
      ><input
        type="radio"
        name="mode"
        data-action="raw"
        .checked=${live(el._raw)}
        @change=${() => {
          el._rawText = JSON.stringify(el._args ?? {}, null, 2);
          el._raw = true;
        }}
      />
      ${tr('rawJson')}</label
    >
  </div>`;
}

function renderArguments(el: McpToolExplorerElement, tool: Tool, problem: string | null, tr: Translate) {
  return el._raw
    ? html`<div class="raw field">
        <label for="raw-args">${tr('argumentsJson')}</label>
        <textarea
          id="raw-args"
          aria-invalid=${problem ? 'true' : 'false'}
          aria-describedby="args-problem"
          .value=${live(el._rawText)}
          @input=${(ev: Event) => (el._rawText = (ev.target as HTMLTextAreaElement).value)}
        ></textarea>
      </div>`
    : html`<mcp-schema-form
        id-prefix="arg"
        ?show-errors=${el._tried}
        .schema=${tool.inputSchema}
        .value=${el._args}
        @input=${(ev: Event) => (el._args = (ev.target as McpSchemaForm).value)}
      ></mcp-schema-form>`;
}

/** The call as the card every call gets; only a call that could not start is a line of text. */
function renderOutcome(el: McpToolExplorerElement) {
  const run = el._run;
  if (run?.callId) return html`<mcp-tool-call part="call" .hub=${el.hub} call-id=${run.callId}></mcp-tool-call>`;
  return run?.error ? html`<p class="error-text" role="alert">${run.error}</p>` : nothing;
}

export function renderToolDetail(el: McpToolExplorerElement, tr: Translate) {
  const e = el.entries.find((x) => x.key === el._selected);
  if (!e) return html`<div class="detail" part="detail"><p class="muted">${tr('choose')}</p></div>`;
  const t = e.tool;
  const args = currentArgs(el, tr);
  // raw JSON is checked as it is typed; the form's problems show by field, and here once Run was pressed
  // (the validator comes with the form's chunk; until then only JSON errors show)
  const problem =
    args.error ?? (args.value && (el._raw || el._tried) && validatorLoaded() ? validateArguments(t, args.value) : null);
  const summary = problem ? (el._raw ? `${tr('invalid')} ${problem}` : tr('fixFields')) : '';
  return html`<section class="detail" part="detail" aria-label=${t.title ?? t.name}>
    <h3>${icon(t)}${t.title ?? t.name}</h3>
    <p class="muted"><code>${t.name}</code> ${tr('on')} ${e.serverName}</p>
    ${badges(t, tr)} ${t.description ? html`<p class="description">${t.description}</p>` : nothing}
    <details>
      <summary>${tr('inputSchema')}</summary>
      <pre tabindex="0">${JSON.stringify(t.inputSchema, null, 2)}</pre>
    </details>
    ${
      t.outputSchema
        ? html`<details>
            <summary>${tr('outputSchema')}</summary>
            <pre tabindex="0">${JSON.stringify(t.outputSchema, null, 2)}</pre>
          </details>`
        : nothing
    }
    <div class="toolbar">
      <button data-action="copy" @click=${() => void copySchema(el, t)}>${tr('copySchema')}</button
      ><span role="status" aria-live="polite">${el._copied ? tr('copied') : ''}</span>
    </div>
    <section part="try" aria-label=${tr('tryIt')}>
      <h4>${tr('tryIt')}</h4>
      ${renderModeSwitch(el, tr)} ${renderArguments(el, t, problem, tr)}
      <p class="invalid" id="args-problem" aria-live="polite">${summary}</p>
      <div class="toolbar">
        <button
          class="primary"
          data-action="run"
          ?disabled=${!!args.error || el._run?.state === 'running'}
          @click=${() => void runTool(el, e, tr)}
        >
          ${el._run?.state === 'running' ? tr('running') : tr('run')}
        </button>
      </div>
      ${renderOutcome(el)}
    </section>
  </section>`;
}
