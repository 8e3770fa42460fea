import { fileURLToPath } from 'node:url';

const ajvStub = fileURLToPath(new URL('../src/internal/ajv-stub.ts', import.meta.url));

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
