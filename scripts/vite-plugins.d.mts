// Types of scripts/vite-plugins.mjs (plain JS shared with scripts/start.mjs and bench/run.mjs).
import type { BuildEnvironmentOptions, Plugin } from 'vite';

export function singleFileBuild(o: {
  entry: string;
  outDir: string;
  fileName: string;
  emptyOutDir?: boolean;
  format?: 'es' | 'iife';
}): BuildEnvironmentOptions;
export function stubAjv(): Plugin;
