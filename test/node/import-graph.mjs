// The static import graph of src/ as the boundary tests read it: which files a module imports
// (relative specifiers, `import type` marked, dynamic `import()` not followed) and the circles
// among them. Used by rooms.test.mjs (all of src) and card-rooms.test.mjs (the card's side).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The .ts files a module imports statically, each `[target, typeOnly]`. */
export function importsOf(file, text = readFileSync(file, 'utf8')) {
  const out = [];
  for (const m of text.matchAll(
    /(?:^|[;\n}])\s*(import|export)\s*(type\s+)?(?:[^'"()]*?\sfrom\s*)?['"](\.[^'"]+)['"]/g,
  )) {
    const target = path.resolve(path.dirname(file), m[3]).replace(/\.js$/, '.ts');
    if (existsSync(target)) out.push([target, Boolean(m[2])]);
  }
  return out;
}

/** Import circles among `files` (each as `a → b → a`, names by `name`), given `next(file)`. */
export function circles(files, next, name = (f) => f) {
  const state = new Map();
  const found = [];
  const visit = (file, trail) => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'open') {
      found.push([...trail.slice(trail.indexOf(file)), file].map(name).join(' → '));
      return;
    }
    state.set(file, 'open');
    for (const n of next(file)) visit(n, [...trail, file]);
    state.set(file, 'done');
  };
  for (const f of files) visit(f, []);
  return found;
}
