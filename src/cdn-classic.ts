// The one-file CDN build (src/cdn-all.ts) as a classic script (`dist/cdn/mcp-elements.classic.js`): it
// runs where it stands, before the scripts after it, as G4F's own mcp-client.js did. With a
// `data-g4f` attribute on its script tag it installs the G4F drop-in at once; the attribute's
// value, if any, is the CSS selector of the container for the tool-call cards.
import { g4f } from './cdn-all.js';

export * from './cdn-all.js';

const script = typeof document !== 'undefined' ? document.currentScript : null;
if (script?.hasAttribute('data-g4f')) g4f.install({ container: script.getAttribute('data-g4f') || undefined });
