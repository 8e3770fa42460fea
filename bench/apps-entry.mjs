// What MCP Apps adds to the CDN entry (issue 21: "a page whose servers have no apps pays
// nothing", entry within 0.5 KB). Builds the CDN entry twice the way `vite build --mode cdn`
// does, into bench/.build: as it is, and with every apps part of the entry stubbed out in memory
// (a transform plugin: the hub's apps members, the pipeline's view path, visibility filtering,
// ui-meta, the autoloader's <mcp-app-view> line). The difference, gzip -9 per file as served, is
// the apps share. A stub that no longer matches the source fails loudly: update it with the code.
// Run: node bench/apps-entry.mjs (bench/run.mjs prints it as a row).
import { build } from 'vite';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chunkedBuild, chunkManifest } from '../scripts/vite-plugins.mjs';
import { readCdnManifest } from '../scripts/cdn-manifest.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** file (under src/) → [from, to] replacements that take MCP Apps out of the entry */
const STUBS = {
  'core/hub.ts': [
    [
      "import { AppViews, type AppModelContext, type AppsStatus } from './apps/app-views.js';",
      "import type { AppViews, AppModelContext, AppsStatus } from './apps/app-views.js';",
    ],
    [
      'const apps = this.#apps.status(this.store.state.catalogues[id]);',
      'const apps = undefined as AppsStatus | undefined;',
    ],
    [
      '    this.#apps = new AppViews();\n    this.#apps.setSandboxUrl(options.sandboxUrl);\n',
      '    this.#apps = null as unknown as AppViews;\n',
    ],
    [/ {2}\/\/ ---- MCP Apps \(views[\s\S]*?(?= {2}\/\*\* The last discovered catalogue)/, ''],
    ['this.#apps.answers = this.#answers = new Answers(', 'this.#answers = new Answers('],
  ],
  'core/calls/target.ts': [["  if (target.source === 'app' && !toolUi(tool).visibility.includes('app'))", '  if (0)']],
  'core/calls/approval.ts': [
    [
      "    if (record.source === 'app') {\n      if (call.appGranted) return 'app-granted';\n      if (call.tool.annotations?.readOnlyHint === true) return 'app-read-only';\n    }\n",
      '',
    ],
  ],
  'core/assistants/profile.ts': [['if (!modelVisible(tool)) continue;', '']],
  'core/apps/ui-meta.ts': [
    [
      /const MAX_URI[\s\S]*$/,
      "export const uiUri = (v: unknown) => v as string | undefined;\nexport const toolUi = (t: unknown): ToolUi => ({ visibility: ['model', 'app'], resourceUri: t as undefined });\nexport const modelVisible = (t: unknown) => !!t;\n",
    ],
  ],
  'autoload.ts': [["  'mcp-app-view': () => import('./elements/mcp-app-view/define.js'),\n", '']],
};

function stubApps() {
  return {
    name: 'bench-stub-apps',
    enforce: 'pre',
    transform(code, id) {
      const rel = path.relative(path.join(root, 'src'), id.split('?')[0]).split(path.sep).join('/');
      const stubs = STUBS[rel];
      if (!stubs) return null;
      for (const [from, to] of stubs) {
        const next = code.replace(from, to);
        if (next === code) throw new Error(`bench/apps-entry.mjs: the stub for src/${rel} no longer matches: ${from}`);
        code = next;
      }
      return code;
    },
  };
}

async function entryBytes(outDir, plugins) {
  await build({
    configFile: false,
    root,
    logLevel: 'warn',
    resolve: {
      alias: [
        {
          find: /^@modelcontextprotocol\/client\/_shims$/,
          replacement: path.join(root, 'src/core/session/sdk-shims.ts'),
        },
      ],
    },
    plugins: [...plugins, chunkManifest()],
    build: chunkedBuild({ entry: 'src/cdn.ts', outDir, fileName: 'mcp-elements.js' }),
  });
  const dir = path.join(root, outDir);
  const m = readCdnManifest(dir);
  return [...m.closure([m.entry])].reduce(
    (n, f) => n + gzipSync(readFileSync(path.join(dir, f)), { level: 9 }).length,
    0,
  );
}

/** `{ entry, withoutApps, share }` in bytes (gzip -9 per file). */
export async function appsEntryShare() {
  const entry = await entryBytes('bench/.build/cdn-with-apps', []);
  const withoutApps = await entryBytes('bench/.build/cdn-without-apps', [stubApps()]);
  return { entry, withoutApps, share: entry - withoutApps };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await appsEntryShare();
  const kb = (n) => (n / 1024).toFixed(2);
  console.log(
    `CDN entry ${kb(r.entry)} KB, without MCP Apps ${kb(r.withoutApps)} KB: apps add ${kb(r.share)} KB (goal 0.5)`,
  );
}
