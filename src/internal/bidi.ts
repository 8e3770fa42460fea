// Text direction controls in server strings (issue 13 item 6). An override (U+202E) or an
// embedding/isolate (U+202A–202D, U+2066–2069) inside a tool name, description or result makes
// the reader see other text than is there ("\u202Eexe.txt" reads "txt.exe") and can reorder the
// text around it. Elements show server strings without them: after each render the element's
// shadow root is walked and the controls are removed from its text and from the attributes a
// reader hears or sees. Only what is shown changes: values sent (form inputs, arguments, the
// copied schema) and the data in the hub keep every character. Letters of right-to-left
// scripts and the implicit marks (U+200E, U+200F, U+061C) stay: the bidi algorithm needs no
// explicit control to show them right.

const CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;
const TEST = /[\u202A-\u202E\u2066-\u2069]/;
/** Attributes a reader sees or hears. Others (`data-*`, ids, values) are left as they are. */
export const SHOWN_ATTRIBUTES: readonly string[] = [
  'title',
  'alt',
  'placeholder',
  'label',
  'aria-label',
  'aria-description',
  'aria-roledescription',
  'aria-valuetext',
];
const SHOWN_SELECTOR = SHOWN_ATTRIBUTES.map((a) => `[${a}]`).join(',');

/** `text` without bidi embedding, override and isolate controls. */
export function withoutBidiControls(text: string): string {
  return TEST.test(text) ? text.replace(CONTROLS, '') : text;
}

/**
 * Remove bidi controls from the text nodes and shown attributes under `root` (one shadow root:
 * nested elements do their own). Lit keeps its text nodes and writes them again only when the
 * value changes, so the next render of a changed value is cleaned again by the next call.
 */
export function neutraliseBidi(root: Node & ParentNode): void {
  const texts = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = texts.nextNode(); n; n = texts.nextNode()) {
    const v = n.nodeValue;
    if (v && TEST.test(v)) n.nodeValue = v.replace(CONTROLS, '');
  }
  for (const el of root.querySelectorAll(SHOWN_SELECTOR))
    for (const name of SHOWN_ATTRIBUTES) {
      const v = el.getAttribute(name);
      if (v && TEST.test(v)) el.setAttribute(name, v.replace(CONTROLS, ''));
    }
}
