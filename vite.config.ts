import { defineConfig } from 'vite';
// @ts-ignore plain JS module shared with scripts/start.mjs and bench/run.mjs
import { stubAjv } from './scripts/vite-plugins.mjs';

const deps = [/^lit(\/|$)/, /^@lit\//, /^@modelcontextprotocol\/sdk/, /^zod(\/|$)/, /^idb-keyval/, /^@cfworker\//];

export default defineConfig(({ mode }) =>
  mode === 'cdn'
    ? {
        plugins: [stubAjv()],
        build: {
          outDir: 'dist/cdn',
          emptyOutDir: true,
          target: 'es2022',
          minify: true,
          lib: { entry: 'src/cdn.ts', formats: ['es'], fileName: () => 'mcp-elements.js' },
          rolldownOptions: { output: { minify: true } },
        },
      }
    : {
        build: {
          outDir: 'dist',
          emptyOutDir: false,
          target: 'es2022',
          minify: false,
          lib: { entry: { index: 'src/index.ts', 'core/index': 'src/core/index.ts' }, formats: ['es'] },
          rolldownOptions: {
            external: deps,
            output: { preserveModules: true, preserveModulesRoot: 'src', entryFileNames: '[name].js' },
          },
        },
      },
);
