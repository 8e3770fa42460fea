import { fileURLToPath } from 'node:url';

const ajvStub = fileURLToPath(new URL('../src/internal/ajv-stub.ts', import.meta.url));

/**
 * Build options for one minified, self-contained ES module: our CDN file, and the bench's bare
 * SDK baseline, so both are built the same way.
 * @param {{ entry: string, outDir: string, fileName: string, emptyOutDir?: boolean }} o
 */
export function singleFileBuild({ entry, outDir, fileName, emptyOutDir = true }) {
  return {
    outDir,
    emptyOutDir,
    target: 'es2022',
    minify: true,
    lib: { entry, formats: ['es'], fileName: () => fileName },
    rolldownOptions: { output: { minify: true } },
  };
}

/**
 * Resolve the SDK's ajv provider to a stub (see src/internal/ajv-stub.ts). Used by the CDN build,
 * the demo server and the bench; the test runner has its own hook for the same stub.
 * @returns {import('vite').Plugin}
 */
export function stubAjv() {
  return {
    name: 'mcp-elements:stub-ajv',
    enforce: 'pre',
    resolveId(source, importer) {
      if (/validation\/ajv-provider\.js$/.test(source) && importer?.includes('@modelcontextprotocol')) return ajvStub;
      return null;
    },
  };
}
