// Reading dist/cdn/manifest.json (written by chunkManifest() in vite-plugins.mjs): what a page
// fetches for a set of chunks. Used by the bench's size rows and the lazy-loading build tests.
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The CDN build's manifest, with `closure(files)`: those files and every chunk they import statically. */
export function readCdnManifest(dir) {
  const m = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
  const closure = (files) => {
    const seen = new Set();
    const walk = (f) => {
      if (seen.has(f)) return;
      seen.add(f);
      for (const i of m.chunks[f]?.imports ?? []) walk(i);
    };
    files.forEach(walk);
    return seen;
  };
  return { ...m, closure };
}
