// custom-elements.json is generated from the elements' JSDoc. Reactive state (`_`-prefixed,
// `state: true`) is not public API: leave it out.
export default {
  globs: ['src/elements/**/*.ts'],
  outdir: '.',
  litelement: true,
  plugins: [
    {
      name: 'mcp-elements:hide-internal-state',
      packageLinkPhase({ customElementsManifest }) {
        // each element's public module is named after its folder (plus its define module);
        // render modules, strings and styles are internal
        // sorted by path: the analyzer lists modules in the order it happened to read them, which
        // changed from build to build and made the committed file churn
        customElementsManifest.modules = (customElementsManifest.modules ?? [])
          .filter((mod) => {
            const m = /^src\/elements\/([^/]+)\/([^/]+)\.ts$/.exec(mod.path);
            return !m || m[2] === m[1] || m[2] === 'define';
          })
          .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
        // the define modules register the tags (through our own `define()`, which the analyzer
        // does not recognise): say so, so tools know which module defines which tag
        for (const mod of customElementsManifest.modules) {
          if (!mod.path.endsWith('/define.ts')) continue;
          const dir = mod.path.slice(0, -'define.ts'.length);
          for (const other of customElementsManifest.modules)
            for (const d of other.path.startsWith(dir) ? (other.declarations ?? []) : [])
              if (d.customElement && d.tagName)
                (mod.exports ??= []).push({
                  kind: 'custom-element-definition',
                  name: d.tagName,
                  declaration: { name: d.name, module: other.path },
                });
        }
        for (const mod of customElementsManifest.modules ?? []) {
          for (const d of mod.declarations ?? []) {
            if (d.attributes) d.attributes = d.attributes.filter((a) => !a.name.startsWith('_'));
            // an attribute documented with `@attr` only (`theme`, the base class's reflected
            // property) gets its field, so typings generated from the manifest can type it
            for (const a of d.attributes ?? []) a.fieldName ??= a.name.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
            if (d.members) d.members = d.members.filter((m) => !m.name.startsWith('_') && m.privacy !== 'private');
          }
        }
      },
    },
  ],
};
