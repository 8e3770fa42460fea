// theme="auto" (the default) means "look like the page I sit in", not "follow the OS": a light
// page in a dark OS must not get near-white text on its white background. The scheme is read
// from what is actually painted behind the element — the first opaque background up the flat
// tree (page, the host's containers, an outer card), blended with any translucent layers over
// it — and, when nothing up there paints, from the page's canvas, which the root's
// `color-scheme` (or `<meta name="color-scheme">`) decides. Elements join one page-wide watcher
// that re-reads when the OS scheme flips or the page switches its own theme (class, style or
// data attributes on <html>/<body>, stylesheets added or removed in <head>).

import type { ReactiveController, ReactiveControllerHost } from 'lit';

type Rgba = [r: number, g: number, b: number, a: number];
export type Scheme = 'light' | 'dark';

let probe: CanvasRenderingContext2D | null | undefined;
/** Any CSS colour the engine serialises (rgb(), color(srgb …), oklch() …) as sRGB 0–255 + alpha. */
export function parseColor(value: string): Rgba | undefined {
  const m = /^rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:\s*[,/]\s*([\d.]+)(%?))?\s*\)$/.exec(value.trim());
  if (m) {
    const a = m[4] === undefined ? 1 : Number(m[4]) / (m[5] ? 100 : 1);
    return [Number(m[1]), Number(m[2]), Number(m[3]), a];
  }
  if (value === 'transparent') return [0, 0, 0, 0];
  // any other syntax: let the canvas convert it
  probe ??= document.createElement('canvas').getContext('2d', { willReadFrequently: true });
  if (!probe) return undefined;
  probe.clearRect(0, 0, 1, 1);
  probe.fillStyle = '#000';
  probe.fillStyle = value;
  probe.fillRect(0, 0, 1, 1);
  const [r, g, b, a] = probe.getImageData(0, 0, 1, 1).data;
  return [r!, g!, b!, a! / 255];
}

/** WCAG relative luminance of an sRGB colour. */
export function luminance([r, g, b]: Rgba | [number, number, number]): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** Paint `top` over `bottom` (alpha compositing). */
export function blend(top: Rgba, bottom: Rgba): Rgba {
  const a = top[3] + bottom[3] * (1 - top[3]);
  if (a === 0) return [0, 0, 0, 0];
  const mix = (t: number, b: number) => (t * top[3] + b * bottom[3] * (1 - top[3])) / a;
  return [mix(top[0], bottom[0]), mix(top[1], bottom[1]), mix(top[2], bottom[2]), a];
}

/** The element's parent as painted: its slot if slotted, else its parent, else its shadow host. */
function flatParent(el: Element): Element | null {
  if (el.assignedSlot) return el.assignedSlot;
  if (el.parentElement) return el.parentElement;
  const root = el.getRootNode();
  return root instanceof ShadowRoot ? root.host : null;
}

const osDark = () => typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;

/** The scheme of the page's canvas: the root's used `color-scheme`. */
function canvasScheme(): Scheme {
  let value = getComputedStyle(document.documentElement).colorScheme || 'normal';
  if (value === 'normal') value = document.querySelector('meta[name="color-scheme"]')?.getAttribute('content') ?? '';
  const words = value.split(/\s+/);
  const dark = words.includes('dark');
  const light = words.includes('light');
  if (dark && !light) return 'dark';
  if (dark && light) return osDark() ? 'dark' : 'light';
  return 'light';
}

/** The colour painted behind `el` (its own background not counted), fully opaque. */
export function backdropOf(el: Element): Rgba {
  const layers: Rgba[] = [];
  for (let node = flatParent(el); node; node = flatParent(node)) {
    const c = parseColor(getComputedStyle(node).backgroundColor);
    if (!c || c[3] === 0) continue;
    layers.push(c);
    if (c[3] >= 1) break;
  }
  let color: Rgba = canvasScheme() === 'dark' ? [18, 18, 18, 1] : [255, 255, 255, 1];
  if (layers.length && layers[layers.length - 1]![3] >= 1) color = layers.pop()!;
  for (let i = layers.length - 1; i >= 0; i--) color = blend(layers[i]!, color);
  return color;
}

// The two palettes' main text colours (mcp-element.ts): the scheme whose text reads better wins.
const LIGHT_TEXT = luminance([0x1f, 0x23, 0x28]);
const DARK_TEXT = luminance([0xe6, 0xed, 0xf3]);
const ratio = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);

/** The scheme that suits what is painted behind `el`, or that an enclosing element was given. */
export function hostScheme(el: Element): Scheme {
  // an element inside one of ours that was told light or dark (an internal view, the form of the
  // explorer) takes that choice, so one element never shows two palettes
  for (let node = flatParent(el); node; node = flatParent(node)) {
    const theme = node.localName.includes('-') ? node.getAttribute('theme') : null;
    if (theme === 'light' || theme === 'dark') return theme;
  }
  const bg = luminance(backdropOf(el));
  return ratio(bg, DARK_TEXT) > ratio(bg, LIGHT_TEXT) ? 'dark' : 'light';
}

// One watcher for the page; elements join on connect and leave on disconnect.
const members = new Set<HostSchemeController>();
let stop: (() => void) | undefined;
let queued = false;

function refreshAll() {
  queued = false;
  // in connection order: an outer element settles before the views inside it read its colours
  for (const m of members) m.refreshScheme();
}
function schedule() {
  if (queued) return;
  queued = true;
  // after the page's own change has been styled, before the next paint
  requestAnimationFrame(refreshAll);
}

function watch(): () => void {
  const media = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : undefined;
  media?.addEventListener('change', schedule);
  const observer = new MutationObserver(schedule);
  const attributeFilter = ['class', 'style', 'data-theme', 'data-color-scheme', 'data-bs-theme', 'theme'];
  observer.observe(document.documentElement, { attributes: true, attributeFilter });
  if (document.body) observer.observe(document.body, { attributes: true, attributeFilter });
  if (document.head) observer.observe(document.head, { childList: true, subtree: true, attributes: true });
  return () => {
    media?.removeEventListener('change', schedule);
    observer.disconnect();
  };
}

type SchemeHost = ReactiveControllerHost & HTMLElement & { theme?: string };

/**
 * Puts the host in `:state(host-dark)` while its theme is `auto` (or unset) and the page behind
 * it is dark; the elements' styles switch palettes on that state. The host's `attachInternals()`
 * must return the same object on every call (McpElement makes sure) if it uses states itself.
 */
export class HostSchemeController implements ReactiveController {
  readonly #host: SchemeHost;
  #theme?: string;
  #internals?: ElementInternals;
  constructor(host: SchemeHost) {
    this.#host = host;
    host.addController(this);
  }
  hostConnected(): void {
    members.add(this);
    stop ??= watch();
    this.refreshScheme();
  }
  hostDisconnected(): void {
    members.delete(this);
    if (members.size === 0) {
      stop?.();
      stop = undefined;
    }
  }
  hostUpdate(): void {
    if (this.#host.theme === this.#theme) return;
    this.refreshScheme();
    // the views inside it follow its choice
    schedule();
  }
  /** Re-read what is behind the host. */
  refreshScheme(): void {
    const host = this.#host;
    this.#theme = host.theme;
    const auto = !host.theme || host.theme === 'auto';
    const dark = auto && host.isConnected && hostScheme(host) === 'dark';
    try {
      const states = (this.#internals ??= host.attachInternals()).states;
      if (dark) states.add('host-dark');
      else states.delete('host-dark');
    } catch {
      // an engine without custom states: the page's scheme is not followed, light stays
    }
  }
}
