// The add/edit form is a chunk of its own in the CDN build, imported the first time it opens.
import { importOnce } from '../../internal/import-once.js';

/** The add/edit form's module. */
export type FormModule = typeof import('./form.js');

const IMPORT_FORM = () => import('./form.js');
let load = importOnce('the server form', IMPORT_FORM);

/** The form's module, or `undefined` when it could not be fetched (the next call tries again). */
export function loadForm(): Promise<FormModule | undefined> {
  return load();
}

/**
 * Tests: import the form through `replacement` (given the real import) from now on; without it,
 * the real import again. @internal
 */
export function replaceServerFormImport(replacement?: (real: typeof IMPORT_FORM) => Promise<FormModule>): void {
  load = importOnce('the server form', replacement ? () => replacement(IMPORT_FORM) : IMPORT_FORM);
}
