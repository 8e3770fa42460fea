import { defineConfig, type Plugin } from 'vite';
import { fileURLToPath } from 'node:url';

const ajvStub = fileURLToPath(new URL('./src/internal/ajv-stub.ts', import.meta.url));

/** Resolve the SDK's ajv provider to a stub (see src/internal/ajv-stub.ts). */
export function stubAjv(): Plugin {
  return {
    name: 'mcp-elements:stub-ajv',
    enforce: 'pre',
    resolveId(source, importer) {
      if (/validation\/ajv-provider\.js$/.test(source) && importer?.includes('@modelcontextprotocol')) return ajvStub;
      return null;
    },
  };
}

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
