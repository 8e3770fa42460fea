import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { chunkedBuild, chunkManifest, sandboxBuild, singleFileBuild } from './scripts/vite-plugins.mjs';

// CDN builds: the SDK's platform shim resolved to ours, whose default validator is the
// @cfworker/json-schema copy we already ship (src/core/session/sdk-shims.ts)
const sdkShims = {
  alias: [
    {
      find: /^@modelcontextprotocol\/client\/_shims$/,
      replacement: fileURLToPath(new URL('./src/core/session/sdk-shims.ts', import.meta.url)),
    },
  ],
};

const deps = [
  /^lit(\/|$)/,
  /^@lit\//,
  /^@modelcontextprotocol\//,
  /^zod(\/|$)/,
  /^idb-keyval/,
  /^@cfworker\//,
  // the relay and backend hub (src/relay, src/server): Node built-ins and Hono's adapters
  /^node:/,
  /^hono(\/|$)/,
  /^@hono\//,
];

export default defineConfig(({ mode }) => {
  // the CDN entry (core + autoloader) with one chunk per element
  if (mode === 'cdn')
    return {
      build: chunkedBuild({ entry: 'src/cdn.ts', outDir: 'dist/cdn', fileName: 'mcp-elements.js' }),
      resolve: sdkShims,
      plugins: [chunkManifest()],
    };
  // the MCP Apps sandbox proxy page (dist/sandbox/), served by the host on a second origin
  if (mode === 'sandbox') return sandboxBuild();
  // the one-file CDN build, beside it
  if (mode === 'cdn-all')
    return {
      resolve: sdkShims,
      build: singleFileBuild({
        entry: 'src/cdn-all.ts',
        outDir: 'dist/cdn',
        fileName: 'mcp-elements.all.js',
        emptyOutDir: false,
      }),
    };
  // the one-file build as a classic script, for pages whose scripts must run in order after it
  if (mode === 'cdn-classic')
    return {
      resolve: sdkShims,
      build: singleFileBuild({
        entry: 'src/cdn-classic.ts',
        outDir: 'dist/cdn',
        fileName: 'mcp-elements.classic.js',
        emptyOutDir: false,
        format: 'iife',
      }),
    };
  return {
    build: {
      outDir: 'dist',
      emptyOutDir: false,
      target: 'es2022',
      minify: false,
      lib: {
        entry: {
          index: 'src/index.ts',
          'core/index': 'src/core/index.ts',
          autoload: 'src/autoload.ts',
          'g4f/index': 'src/g4f/index.ts',
          'relay/index': 'src/relay/index.ts',
          'relay/node/index': 'src/relay/node/index.ts',
          'relay/node/cli': 'src/relay/node/cli.ts',
          'server/index': 'src/server/index.ts',
          'relay/lambda': 'src/relay/lambda.ts',
        },
        formats: ['es'],
      },
      rolldownOptions: {
        external: deps,
        output: { preserveModules: true, preserveModulesRoot: 'src', entryFileNames: '[name].js' },
      },
    },
  };
});
