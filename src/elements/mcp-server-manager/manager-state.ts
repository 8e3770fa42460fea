// The manager's state, held by the parts that own it (controllers of the element): the add/edit
// form's, and the server rows' and import/export panel's. The render modules read these fields
// and change them only through `set()`, which re-renders the element; none writes the element.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ServerCatalogue } from '../../core/index.js';
import type { RemoteUpdate } from '../../core/registry/index.js';
import { EMPTY_FORM, type FormState } from './form-state.js';

/** Which form is open: none, the add form, or a server's edit form (in its row). */
export type Editing = null | { mode: 'add' } | { mode: 'edit'; id: string };

/** What "Test connection" found (or is doing). */
export interface TestState {
  state: 'idle' | 'testing' | 'ok' | 'error';
  result?: ServerCatalogue;
  error?: string;
  code?: string;
  url?: string;
}

/** A controller whose fields change only through `set()` (each change re-renders the host). */
abstract class OwnedState<T extends object> implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  constructor(host: ReactiveControllerHost) {
    this.#host = host;
    host.addController(this);
  }
  hostConnected(): void {}
  /** Change some fields, then re-render. */
  set(patch: Partial<T>): void {
    Object.assign(this, patch);
    this.#host.requestUpdate();
  }
}

interface FormFields {
  editing: Editing;
  fields: FormState;
  errors: Record<string, string>;
  test: TestState;
  /** The Name that Test connection filled in from the server's own (said under the field). */
  nameFrom: string | null;
  /** The edit form was opened by a registry notice's Review: the newer version it reviews. */
  reviewing: { id: string; update: RemoteUpdate } | null;
  /** The form's chunk could not be loaded (opening the form again tries again). */
  failed: boolean;
}

/** The add/edit form's state. */
export class ServerFormState extends OwnedState<FormFields> implements FormFields {
  editing: Editing = null;
  fields: FormState = { ...EMPTY_FORM };
  errors: Record<string, string> = {};
  test: TestState = { state: 'idle' };
  nameFrom: string | null = null;
  reviewing: { id: string; update: RemoteUpdate } | null = null;
  failed = false;

  /** Open a form: `fields` to start from; errors, test result and notes of the last one go. */
  open(editing: Exclude<Editing, null>, fields: FormState): void {
    this.set({ editing, fields, errors: {}, test: { state: 'idle' }, nameFrom: null, reviewing: null });
  }

  /** One field as typed. */
  setField<K extends keyof FormState>(key: K, value: FormState[K]): void {
    this.set({ fields: { ...this.fields, [key]: value } });
  }
}

/** The import / export panel's state. */
export interface ImportExport {
  importText: string;
  result?: { added: string[]; errors: { name: string; message: string }[] };
  exportText?: string;
}

interface RowFields {
  /** The server whose removal waits for confirmation. */
  confirm: string | null;
  /** Why the last Sign in of a server failed (by server id). */
  signInErrors: Record<string, string>;
  /** The server whose Connect ended in "needs sign-in" (its row says to press Sign in). */
  signInHint: string | null;
  io: ImportExport;
}

/** The server rows' and the import/export panel's state. */
export class ServerRowsState extends OwnedState<RowFields> implements RowFields {
  confirm: string | null = null;
  signInErrors: Record<string, string> = {};
  signInHint: string | null = null;
  io: ImportExport = { importText: '' };
}
