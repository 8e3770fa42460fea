// Types of scripts/vite-plugins.mjs (plain JS shared with scripts/start.mjs and bench/run.mjs).
import type { BuildEnvironmentOptions, Plugin } from 'vite';

interface BuildTarget {
  entry: string;
  outDir: string;
  fileName: string;
  emptyOutDir?: boolean;
  format?: 'es' | 'iife';
}
export function singleFileBuild(o: BuildTarget): BuildEnvironmentOptions;
export function chunkedBuild(o: BuildTarget): BuildEnvironmentOptions;
export function chunkManifest(): Plugin;
/** The MCP Apps sandbox proxy page, its module inline (dist/sandbox/index.html). */
export function sandboxBuild(): { build: BuildEnvironmentOptions; plugins: Plugin[] };
