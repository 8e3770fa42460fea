// The page's lifecycle as it concerns call records: on `pagehide` the records in flight are
// journaled and flushed, and calls whose server-side task runs on are left running for the next
// page; `beforeunload` tells history the page may leave (Firefox cuts requests from then on); a
// page restored from the back/forward cache follows its tasks again.
import type { CallHistory } from '../calls/history.js';
import type { CallPipeline } from '../calls/pipeline.js';
import { writeJournal } from './journal.js';

/** Listen to the page's lifecycle (in a browser); returns what stops listening. */
export function followPageLifecycle(
  storeName: string,
  history: Pick<CallHistory, 'returned' | 'journal' | 'flush' | 'mayLeave'>,
  pipeline: Pick<CallPipeline, 'pageShown' | 'pageHidden'>,
): () => void {
  if (typeof addEventListener !== 'function' || typeof window === 'undefined') return () => {};
  const onPage = (e: Event) => {
    if (e.type === 'pageshow') {
      history.returned(); // calls fail for their own reasons again
      if ((e as PageTransitionEvent).persisted) pipeline.pageShown();
      return;
    }
    pipeline.pageHidden();
    history.journal((records) => writeJournal(storeName, records));
    void history.flush();
  };
  const onBeforeUnload = () => history.mayLeave();
  addEventListener('pagehide', onPage);
  addEventListener('pageshow', onPage);
  addEventListener('beforeunload', onBeforeUnload);
  return () => {
    removeEventListener('pagehide', onPage);
    removeEventListener('pageshow', onPage);
    removeEventListener('beforeunload', onBeforeUnload);
  };
}
