import * as z from 'zod/mini';

// zod/mini, not classic zod: its schemas are plain functions a bundler can leave out, so the
// first load carries a fraction of zod's bytes (classic arrives with the SDK, in the
// connection chunk; both share zod's core, so one config serves both). Decision 052.
//
// zod probes `new Function` on first parse unless told not to; under a strict CSP (no
// 'unsafe-eval') that probe is reported as a violation. One zod copy serves the SDK and us,
// so this must run before the SDK or our schemas parse anything. Mini loads no messages of its
// own: English ones, as classic zod gives.
z.config({ jitless: true });
z.config(z.locales.en());

export { z };
