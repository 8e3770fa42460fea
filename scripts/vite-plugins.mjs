/**
 * Build options for one minified, self-contained ES module: our CDN file, and the bench's bare
 * SDK baseline, so both are built the same way.
 * `format: 'iife'` makes a classic script that sets the global `McpElements`.
 * @param {{ entry: string, outDir: string, fileName: string, emptyOutDir?: boolean, format?: 'es' | 'iife' }} o
 */
export function singleFileBuild({ entry, outDir, fileName, emptyOutDir = true, format = 'es' }) {
  return {
    outDir,
    emptyOutDir,
    target: 'es2022',
    minify: true,
    lib: { entry, formats: [format], fileName: () => fileName, ...(format === 'iife' ? { name: 'McpElements' } : {}) },
    rolldownOptions: { output: { minify: true } },
  };
}
