import { readFileSync } from 'node:fs';
/**
 * Build options for one minified, self-contained module: the one-file CDN build, and the
 * bench's bare SDK baseline, so both are built the same way.
 * `format: 'iife'` makes a classic script that sets the global `McpElements`.
 * @param {{ entry: string, outDir: string, fileName: string, emptyOutDir?: boolean, format?: 'es' | 'iife' }} target
 */
export function singleFileBuild(target) {
  // dynamic imports (the autoloader's) stay inside the one file
  return minifiedLib(target, { codeSplitting: false });
}

/** Minified library build options with these output options. */
function minifiedLib({ entry, outDir, fileName, emptyOutDir = true, format = 'es' }, output) {
  return {
    outDir,
    emptyOutDir,
    target: 'es2022',
    minify: true,
    lib: { entry, formats: [format], fileName: () => fileName, ...(format === 'iife' ? { name: 'McpElements' } : {}) },
    rolldownOptions: { output: { minify: true, ...output } },
  };
}

// modules kept out of the shared `core` chunk: the elements and lit (element chunks), the
// entry's own (autoloader, the McpElements global), and jose, which the SDK imports dynamically
// only to sign DPoP proofs (its own chunk, fetched the first time a server uses DPoP), and the
// markdown renderer (marked + DOMPurify), which results import the first time they hold markdown
// (and the registry client, src/core/registry, which only the directory element imports: it goes
// with the directory's chunk; read-capped.ts, shared by it and sign-in, is a chunk of its own)
const NOT_CORE =
  /[\\/]src[\\/](elements|internal|g4f|core[\\/]registry)[\\/]|[\\/]src[\\/]core[\\/]read-capped\.ts$|[\\/]src[\\/](cdn|cdn-exports|autoload)\.ts$|[\\/]node_modules[\\/](lit|lit-html|lit-element|@lit|jose|marked|dompurify)[\\/]/;
// sign-in (src/core/auth), which the hub imports dynamically when a server uses it
// (src/core/sign-in-loader.ts), is a chunk of its own; the few modules the hub needs at once
// (the redirect page's callback, the CIMD helper, the options, the popup) stay in `core`
const AUTH = /[\\/]src[\\/]core[\\/]auth[\\/](?!(callback|callback-keys|cimd|options|popup)\.ts$)/;
// the connection code: the SDK, our session layer and the classic zod API the SDK's schemas use
// (ours use zod/mini, src/core/zod-setup.ts), which the hub imports dynamically the first time it
// opens a session (src/core/connections/session-loader.ts); the session modules the rest of the
// hub reads at once (cross-origin hints, task vocabulary, call results, types) stay in `core`
const CONNECT =
  /[\\/]src[\\/]core[\\/]session[\\/](?!(cross-origin|task-vocabulary|call-result|types)\.ts$)|[\\/]node_modules[\\/](@modelcontextprotocol(?![\\/]ext-apps[\\/])|eventsource|eventsource-parser|pkce-challenge|content-type)[\\/]|[\\/]node_modules[\\/]zod[\\/]v4[\\/](classic[\\/]|core[\\/](to-json-schema|json-schema-processors)\.js$)/;
// the JSON Schema validator, which the hub imports dynamically with the connection code and
// before a call (src/core/calls/schema-validator.ts); the connect chunk imports it too
const VALIDATOR = /[\\/]node_modules[\\/]@cfworker[\\/]json-schema[\\/]/;
// MCP Apps: the view host (src/apps) and the official ext-apps SDK, imported by <mcp-app-view>
// the first time a view is shown: a page whose servers have no views never fetches it
const APPS = /[\\/]src[\\/]apps[\\/]|[\\/]node_modules[\\/]@modelcontextprotocol[\\/]ext-apps[\\/]/;

/**
 * The MCP Apps sandbox proxy (src/apps/sandbox): one page, dist/sandbox/index.html, with its
 * styles and the proxy module inline (one request before the proxy runs, not two), for the host
 * to serve on a second origin.
 */
export function sandboxBuild() {
  return {
    build: {
      ...minifiedLib(
        { entry: 'src/apps/sandbox/proxy.ts', outDir: 'dist/sandbox', fileName: 'proxy.js' },
        { codeSplitting: false },
      ),
    },
    plugins: [
      {
        name: 'mcp-elements-sandbox-page',
        generateBundle(_options, bundle) {
          const proxy = bundle['proxy.js'];
          if (proxy?.type !== 'chunk') throw new Error('sandbox build: no proxy.js chunk');
          // text that would end or re-enter the script element early
          if (/<\/script|<!--|<script/i.test(proxy.code)) throw new Error('sandbox build: proxy.js cannot be inlined');
          const tag = '<script type="module" src="./proxy.js"></script>';
          const page = readFileSync(new URL('../src/apps/sandbox/index.html', import.meta.url), 'utf8');
          if (!page.includes(tag)) throw new Error(`sandbox build: index.html has no ${tag}`);
          delete bundle['proxy.js'];
          this.emitFile({
            type: 'asset',
            fileName: 'index.html',
            source: page.replace(tag, () => `<script type="module">\n${proxy.code.trim()}\n</script>`),
          });
        },
      },
    ],
  };
}

// the SDK's skills client (SEP-2640), which a session imports dynamically with its first skills
// request (src/core/session/sdk.ts): in no group, so it is a chunk of its own beside `connect`
const SKILLS = /[\\/]node_modules[\\/]@modelcontextprotocol[\\/](client|core)[\\/]dist[\\/]ext[\\/]skills[\\/]/;

/**
 * Build options for the CDN entry plus chunks, minified like the one-file build: the entry keeps
 * its name, each element's chunk is named after its tag, shared code goes to `chunks/`. Chunks
 * import each other by relative URL, so the directory works from any CDN path.
 * @param {{ entry: string, outDir: string, fileName: string, emptyOutDir?: boolean }} target
 */
export function chunkedBuild(target) {
  return minifiedLib(target, {
    // the hub in one `core` chunk: the entry and every element chunk import it, so it
    // exists once even when the entry's URL carries a query string
    codeSplitting: {
      groups: [
        {
          name: 'core',
          test: (id) =>
            !NOT_CORE.test(id) &&
            !AUTH.test(id) &&
            !CONNECT.test(id) &&
            !VALIDATOR.test(id) &&
            !SKILLS.test(id) &&
            !APPS.test(id),
        },
        { name: 'connect', test: (id) => CONNECT.test(id) && !SKILLS.test(id) },
        { name: 'validator', test: VALIDATOR, priority: 1 },
        { name: 'auth', test: AUTH },
        { name: 'jose', test: /[\\/]node_modules[\\/]jose[\\/]/ },
        // a body read up to a size: sign-in's and the registry's, in neither chunk nor the core
        { name: 'read-capped', test: /[\\/]src[\\/]core[\\/]read-capped\.ts$/, priority: 2 },
        // last, at the lowest priority: a group takes its modules' dependencies along, so the
        // core and the SDK must be claimed by their own groups first
        { name: 'apps', test: APPS },
      ],
    },
    chunkFileNames: (chunk) => {
      const tag = /\/elements\/([^/]+)\/define\.ts$/.exec(chunk.facadeModuleId ?? '')?.[1];
      return tag ? `chunks/${tag}-[hash].js` : 'chunks/[name]-[hash].js';
    },
  });
}

/**
 * Writes `manifest.json` beside a chunked build: the entry, which chunk defines each element,
 * which chunk a source module became (for the tests that run against the build), and every
 * chunk's static and dynamic imports (what a page fetches for a given element).
 */
export function chunkManifest() {
  return {
    name: 'mcp-elements-chunk-manifest',
    generateBundle(_options, bundle) {
      const chunks = {};
      const elements = {};
      const modules = {};
      let entry;
      for (const c of Object.values(bundle)) {
        if (c.type !== 'chunk') continue;
        if (c.isEntry) entry = c.fileName;
        chunks[c.fileName] = { imports: c.imports, dynamicImports: c.dynamicImports };
        const tag = /\/elements\/([^/]+)\/define\.ts$/.exec(c.facadeModuleId ?? '')?.[1];
        if (tag) elements[tag] = c.fileName;
        const src = /[\\/](src[\\/].*)$/.exec(c.facadeModuleId ?? '')?.[1];
        if (src) modules[src.replaceAll('\\', '/')] = c.fileName;
      }
      this.emitFile({
        type: 'asset',
        fileName: 'manifest.json',
        source: JSON.stringify({ entry, elements, modules, chunks }, null, 2) + '\n',
      });
    },
  };
}
