// Driving <mcp-server-manager>'s form in tests: a field by its id (`#f-<id>`), typed into or chosen.
import type { McpServerManagerElement } from '../../src/elements/mcp-server-manager/mcp-server-manager.js';

export const q = <T extends HTMLElement = HTMLElement>(el: Element, sel: string) =>
  el.shadowRoot!.querySelector(sel) as T;

/** Type into a text field as a user would (an `input` event), then let the element render. */
export async function type(el: McpServerManagerElement, id: string, value: string) {
  const input = q<HTMLInputElement>(el, `#f-${id}`);
  input.value = value;
  input.dispatchEvent(new Event('input'));
  await el.updateComplete;
}

/** Choose an option of a select (a `change` event), then let the element render. */
export async function choose(el: McpServerManagerElement, id: string, value: string) {
  const select = q<HTMLSelectElement>(el, `#f-${id}`);
  select.value = value;
  select.dispatchEvent(new Event('change'));
  await el.updateComplete;
}
