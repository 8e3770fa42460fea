// The add/edit form is a chunk of its own in the CDN build, imported the first time it opens.
import { replaceableImport } from '../../internal/import-once.js';

/** The add/edit form's module. */
export type FormModule = typeof import('./form.js');

const formImport = replaceableImport<FormModule>('the server form', () => import('./form.js'));

/** The form's module, or `undefined` when it could not be fetched (the next call tries again). */
export function loadForm(): Promise<FormModule | undefined> {
  return formImport.load();
}

/** Tests: import the form through `replacement` (given the real import); without it, the real one. @internal */
export function replaceServerFormImport(replacement?: (real: () => Promise<FormModule>) => Promise<FormModule>): void {
  formImport.replace(replacement);
}
