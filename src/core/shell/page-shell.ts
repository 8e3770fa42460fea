// The page shell: what a hub has only in a page, given to the kernel (core/kernel.ts) by
// `McpHub`. IndexedDB storage, tab sync over a BroadcastChannel, the page-hide journal and
// lifecycle, the Web Locks approval restore, the sign-in popup and the full-page sign-in's
// answer, and events on `window`. Nothing else imports these modules, so a backend's graph,
// built from the kernel, never reaches them (test/node/kernel-graph.test.mjs).
import { ANSWER_KEY } from '../auth/callback.js';
import { closePopup, openPopup } from '../auth/popup.js';
import { randomId, type McpHubOptions } from '../context.js';
import type { HubShell } from '../kernel.js';
import { lockedRestore } from '../persistence/approval-restore.js';
import { defaultStorage } from '../persistence/idb-storage.js';
import { dropFromJournal, peekJournal } from '../persistence/journal.js';
import { followPageLifecycle } from '../persistence/page-lifecycle.js';
import { TabSync } from '../persistence/sync.js';

/** A full-page sign-in left its answer for this page (sessionStorage). */
function answerWaiting(): boolean {
  try {
    return !!(globalThis as { sessionStorage?: Storage }).sessionStorage?.getItem(ANSWER_KEY);
  } catch {
    return false;
  }
}

/** The shell of a hub made by `new McpHub(options)`. */
export function pageShell(options: McpHubOptions): HubShell {
  return {
    // a page's hub also runs where there is no window (Node tests, a worker): then nowhere else
    eventTarget:
      options.eventTarget !== undefined ? options.eventTarget : typeof window !== 'undefined' ? window : null,
    storage: defaultStorage,
    journal: { peek: peekJournal, drop: dropFromJournal },
    tabSync: (ctx, hooks) => new TabSync(ctx, randomId('hub'), ctx.storeName, options.broadcast ?? true, hooks),
    restore: lockedRestore,
    followLifecycle: followPageLifecycle,
    signIn: { openPopup, closePopup, answerWaiting },
  };
}
