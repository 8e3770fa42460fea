// Measure what a person sees: every visible text in an element's shadow trees, its colour and
// the colour painted behind it (composited up the flat tree to the page's canvas), as a WCAG
// contrast ratio. Shared by the host-theme tests.
import { blend, luminance, parseColor } from '../../src/internal/host-scheme.js';

type Rgba = [number, number, number, number];
export interface TextContrast {
  text: string;
  ratio: number;
  color: string;
  background: string;
  where: string;
}

function flatParent(el: Element): Element | null {
  if (el.assignedSlot) return el.assignedSlot;
  if (el.parentElement) return el.parentElement;
  const root = el.getRootNode();
  return root instanceof ShadowRoot ? root.host : null;
}

/** The canvas colour under the whole page: white unless the root's used scheme is dark. */
function canvas(): Rgba {
  const scheme = getComputedStyle(document.documentElement).colorScheme;
  const words = scheme.split(/\s+/);
  const dark =
    words.includes('dark') && (!words.includes('light') || matchMedia('(prefers-color-scheme: dark)').matches);
  // Chromium's dark canvas is #121212
  return dark ? [18, 18, 18, 1] : [255, 255, 255, 1];
}

/** What is painted behind text in `el` (`el`'s own background included), opaque. */
function backgroundOf(el: Element): Rgba {
  const layers: Rgba[] = [];
  for (let n: Element | null = el; n; n = flatParent(n)) {
    const c = parseColor(getComputedStyle(n).backgroundColor) as Rgba;
    if (c[3] === 0) continue;
    layers.push(c);
    if (c[3] >= 1) break;
  }
  let color = layers.length && layers[layers.length - 1]![3] >= 1 ? layers.pop()! : canvas();
  for (let i = layers.length - 1; i >= 0; i--) color = blend(layers[i]!, color);
  return color;
}

const hiddenByClip = (el: Element) => {
  for (let n: Element | null = el; n; n = flatParent(n)) {
    const s = getComputedStyle(n);
    if (s.clip === 'rect(0px, 0px, 0px, 0px)' || s.clipPath === 'inset(50%)') return true;
  }
  return false;
};

function* textNodes(root: Node): Generator<Text> {
  for (const child of root.childNodes) {
    if (child.nodeType === Node.TEXT_NODE) yield child as Text;
    else if (child instanceof Element) {
      if (child.shadowRoot) yield* textNodes(child.shadowRoot);
      yield* textNodes(child);
    }
  }
}

const fmt = (c: Rgba) => `rgb(${c.slice(0, 3).map(Math.round).join(', ')})`;

/** Every visible text under `host` (its shadow trees included) with its contrast ratio. */
export function textContrasts(host: Element): TextContrast[] {
  const out: TextContrast[] = [];
  for (const node of textNodes(host.shadowRoot ?? host)) {
    const text = node.data.trim();
    const el = node.parentElement;
    if (!text || !el) continue;
    // inactive controls are exempt (WCAG 1.4.3); a select's options are drawn by the browser
    if (el.closest('button:disabled, option, style, script, template')) continue;
    if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: true } as never)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const rect = range.getBoundingClientRect();
    if (rect.width < 2 || rect.height < 2 || hiddenByClip(el)) continue;
    const bg = backgroundOf(el);
    let fg = parseColor(getComputedStyle(el).color) as Rgba;
    // a faded ancestor fades the text into what is behind it
    for (let n: Element | null = el; n; n = flatParent(n)) fg[3] *= Number(getComputedStyle(n).opacity);
    fg = blend(fg, bg);
    const [a, b] = [luminance(fg), luminance(bg)];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const where = `${(el.getRootNode() as ShadowRoot).host?.localName ?? 'document'} ${el.localName}${el.className ? '.' + String(el.className).split(' ').join('.') : ''}`;
    out.push({
      text: text.slice(0, 60),
      ratio: Math.round(ratio * 100) / 100,
      color: fmt(fg),
      background: fmt(bg),
      where,
    });
  }
  return out;
}
