// The selected tool: description, badges, schemas, copy, and "Try it" (generated form or raw
// JSON) with the result.
import { html, nothing } from 'lit';
import { live } from 'lit/directives/live.js';
import { validateArguments, validatorLoaded, type Tool } from '../../core/index.js';
import type { McpSchemaForm } from '../../internal/schema-form.js';
import type { Translate } from './host.js';
import type { STRINGS } from './strings.js';
import type { ToolsState } from './tools-state.js';
import { badges, icon } from './tool-list.js';

type Tr = Translate<typeof STRINGS>;

function renderModeSwitch(t: ToolsState, tr: Tr) {
  return html`<div class="toolbar" role="radiogroup" aria-label=${tr('tryIt')}>
    <label
      ><input
        type="radio"
        name="mode"
        .checked=${live(!t.raw)}
        @change=${() => {
          const a = t.currentArgs(tr('notJson'));
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
  if (!e) return html`<div class="detail" part="detail"><p class="muted">${tr('choose')}</p></div>`;
  const tool = e.tool;
  const args = t.currentArgs(tr('notJson'));
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
      <button data-action="copy" @click=${() => void t.copySchema(tool)}>${tr('copySchema')}</button
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
          @click=${() => void t.runTool(e, tr('notJson'))}
        >
          ${t.run?.state === 'running' ? tr('running') : tr('run')}
        </button>
      </div>
      ${renderOutcome(t)}
    </section>
  </section>`;
}
