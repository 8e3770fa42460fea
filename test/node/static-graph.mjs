// The static import graph of the npm build's core (dist/core, one file per module), for the
// tests that check what the hub loads only on demand (sign-in, the connection code).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const dist = path.join(root, 'dist/core');

/**
 * Every dist/core file reached from `entry` through static imports and re-exports (static
 * `import … from '…'`, `export … from '…'` and bare `import '…'`; not `import('…')`), each with
 * the package specifiers it imports.
 */
export function staticGraph(entry) {
  const seen = new Map();
  const visit = (file) => {
    if (seen.has(file) || !file.startsWith(dist)) return;
    const packages = [];
    seen.set(file, packages);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:^|[;\n}])\s*(?:import|export)\s*(?:[^'"()]*?\sfrom\s*)?['"]([^'"]+)['"]/g)) {
      if (m[1].startsWith('.')) visit(path.resolve(path.dirname(file), m[1]));
      else packages.push(m[1]);
    }
  };
  visit(path.join(dist, entry));
  return new Map([...seen].map(([f, packages]) => [path.relative(dist, f), packages]));
}
