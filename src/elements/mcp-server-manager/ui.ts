// What the manager's render modules (list.ts, form.ts) are given: the hub and its state, the
// strings, the parts' own state, and the element's few actions. Never the element itself, so no
// module imports it back (no import circle) and none writes its fields.
import type { ConnectionState, McpHub, ServerCatalogue, SignInState } from '../../core/index.js';
import type { ServerFormState, ServerRowsState } from './manager-state.js';
import type { Translate } from './strings.js';

export interface ManagerUi {
  readonly hub: McpHub;
  readonly t: Translate;
  /** Dispatch an intent event from the element; false when the host vetoed it. */
  emit(event: Event): boolean;
  /** The hub state the list shows. */
  state(): {
    connections: Readonly<Record<string, ConnectionState>>;
    catalogues: Readonly<Record<string, ServerCatalogue>>;
    signIns: Readonly<Record<string, SignInState>>;
  };
  readonly form: ServerFormState;
  readonly rows: ServerRowsState;
  /** Resolves once the element has rendered what was changed. */
  rendered(): Promise<unknown>;
  /** An element of the manager's shadow root. */
  query<T extends Element = HTMLElement>(selector: string): T | null;
  /** Move focus to the first element matching `selector`, once rendered. */
  focus(selector: string): Promise<void>;
  /** Open a server's edit form (in its row). */
  startEdit(id: string): void;
  /** Close the form (an edit form closes back onto its row). */
  closeForm(): void;
}
