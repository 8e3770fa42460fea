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
