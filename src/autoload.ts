/**
 * The autoloader: imports an element's module the first time its tag appears in the document
 * (Shoelace / Web Awesome do the same for their CDN). Imports are relative to this module, so
 * the bundle works from any CDN path; they are plain `import()` of same-origin scripts, so a
 * strict Content-Security-Policy (`script-src 'self'`, no `unsafe-eval`) is enough.
 *
 * Elements inside a shadow root the observer cannot see (a host's own components) are found with
 * `discover(root)`, or loaded up front with `loadElements(...)`.
 */

const LOADERS = {
  'mcp-tool-call': () => import('./elements/mcp-tool-call/define.js'),
  'gpt-tool-selector': () => import('./elements/gpt-tool-selector/define.js'),
  'mcp-server-manager': () => import('./elements/mcp-server-manager/define.js'),
  'mcp-tool-explorer': () => import('./elements/mcp-tool-explorer/define.js'),
  'mcp-elicitation': () => import('./elements/mcp-elicitation/define.js'),
  'mcp-task-monitor': () => import('./elements/mcp-task-monitor/define.js'),
  'mcp-app-view': () => import('./elements/mcp-app-view/define.js'),
  'mcp-server-directory': () => import('./elements/mcp-server-directory/define.js'),
} as const;

/** A tag the autoloader knows. */
export type AutoloadedTag = keyof typeof LOADERS;

/** Every tag the autoloader can load. */
export const AUTOLOADED_TAGS = Object.keys(LOADERS) as AutoloadedTag[];

const loading = new Map<AutoloadedTag, Promise<void>>();
const SELECTOR = AUTOLOADED_TAGS.join(',');
let observer: MutationObserver | undefined;

const known = (tag: string): tag is AutoloadedTag => Object.hasOwn(LOADERS, tag);

/**
 * Load the named elements now (all of them when none is named) and resolve once each is
 * defined. A failed load rejects and is tried again on the next call or appearance.
 */
export function loadElements(...tags: AutoloadedTag[]): Promise<void> {
  const wanted = tags.length ? tags : AUTOLOADED_TAGS;
  return Promise.all(wanted.map((t) => load(t))).then(() => {});
}

function load(tag: AutoloadedTag): Promise<void> {
  if (!known(tag)) return Promise.reject(new TypeError(`mcp-elements cannot load unknown element <${String(tag)}>`));
  let p = loading.get(tag);
  if (!p) {
    p = LOADERS[tag]().then(
      () => {
        if (loading.size === AUTOLOADED_TAGS.length && [...loading.keys()].every((t) => customElements.get(t)))
          stopAutoload();
      },
      (e: unknown) => {
        loading.delete(tag); // a network hiccup: the next appearance tries again
        throw e;
      },
    );
    loading.set(tag, p);
  }
  return p;
}

/** Load every known element under `root` (and `root` itself) that is not defined yet. */
export function discover(root: ParentNode | Element): Promise<void> {
  const found = new Set<AutoloadedTag>();
  const consider = (el: Element) => {
    const tag = el.localName;
    if (known(tag) && !customElements.get(tag)) found.add(tag);
  };
  if ('localName' in root) consider(root);
  for (const el of root.querySelectorAll(SELECTOR)) consider(el);
  return Promise.all(
    [...found].map((t) => load(t).catch((e: unknown) => console.error(`mcp-elements: could not load <${t}>:`, e))),
  ).then(() => {});
}

/** Watch the document for the known tags. Called once by the CDN entry; idempotent. */
export function startAutoload(doc: Document = document): void {
  if (observer || typeof MutationObserver === 'undefined') return;
  observer = new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) if (n.nodeType === 1) void discover(n as Element);
  });
  observer.observe(doc.documentElement, { childList: true, subtree: true });
  void discover(doc.documentElement);
}

/** Stop watching (every element is loaded, or the host asked). */
export function stopAutoload(): void {
  observer?.disconnect();
  observer = undefined;
}
