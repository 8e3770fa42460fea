import { z } from 'zod';

// zod probes `new Function` on first parse unless told not to; under a strict CSP (no
// 'unsafe-eval') that probe is reported as a violation. One zod copy serves the SDK and us,
// so this must run before the SDK or our schemas parse anything.
z.config({ jitless: true });

export { z };
