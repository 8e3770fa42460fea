import { defineConfig } from 'vite';
import { singleFileBuild } from './scripts/vite-plugins.mjs';

const deps = [/^lit(\/|$)/, /^@lit\//, /^@modelcontextprotocol\//, /^zod(\/|$)/, /^idb-keyval/, /^@cfworker\//];

export default defineConfig(({ mode }) =>
  mode === 'cdn'
    ? {
        build: singleFileBuild({ entry: 'src/cdn.ts', outDir: 'dist/cdn', fileName: 'mcp-elements.js' }),
      }
    : mode === 'cdn-classic'
      ? {
          // the same bundle as a classic script, for pages whose scripts must run in order after it
          build: singleFileBuild({
            entry: 'src/cdn-classic.ts',
            outDir: 'dist/cdn',
            fileName: 'mcp-elements.classic.js',
            emptyOutDir: false,
            format: 'iife',
          }),
        }
      : {
          build: {
            outDir: 'dist',
            emptyOutDir: false,
            target: 'es2022',
            minify: false,
            lib: {
              entry: { index: 'src/index.ts', 'core/index': 'src/core/index.ts', 'g4f/index': 'src/g4f/index.ts' },
              formats: ['es'],
            },
            rolldownOptions: {
              external: deps,
              output: { preserveModules: true, preserveModulesRoot: 'src', entryFileNames: '[name].js' },
            },
          },
        },
);
