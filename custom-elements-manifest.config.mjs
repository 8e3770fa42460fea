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
        for (const mod of customElementsManifest.modules ?? []) {
          for (const d of mod.declarations ?? []) {
            if (d.attributes) d.attributes = d.attributes.filter((a) => !a.name.startsWith('_'));
            if (d.members) d.members = d.members.filter((m) => !m.name.startsWith('_') && m.privacy !== 'private');
          }
        }
      },
    },
  ],
};
