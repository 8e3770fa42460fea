export { McpEvent, type ChangeSource } from './mcp-event.js';
export * from './server-added.js';
export * from './server-updated.js';
export * from './server-removed.js';
export * from './server-status-changed.js';
export * from './tools-changed.js';
export * from './tools-dropped.js';
export * from './resource-updated.js';
export * from './skill-loaded.js';
export * from './elicitation-request.js';
export * from './sampling-request.js';
export * from './server-log.js';
export * from './task-changed.js';
export * from './storage-degraded.js';
export * from './sign-in-required.js';
export * from './sign-in-completed.js';
export * from './sign-in-failed.js';
export * from './sign-out-completed.js';
export * from './tool-call-request.js';
export * from './tool-call-awaiting-approval.js';
export * from './tool-call-started.js';
export * from './tool-call-progress.js';
export * from './tool-call-completed.js';
export * from './tool-call-failed.js';
export * from './tool-call-cancelled.js';
export * from './tool-call-denied.js';
export * from './tool-selection-changed.js';
export * from './tool-selection-change-request.js';
export * from './server-save-request.js';
export * from './server-remove-request.js';
// dispatched by <mcp-app-view>, not the hub
export * from './app-message.js';
export * from './app-initialized.js';

import type { McpServerAddedEvent } from './server-added.js';
import type { McpServerUpdatedEvent } from './server-updated.js';
import type { McpServerRemovedEvent } from './server-removed.js';
import type { McpServerStatusChangedEvent } from './server-status-changed.js';
import type { McpToolsChangedEvent } from './tools-changed.js';
import type { McpToolsDroppedEvent } from './tools-dropped.js';
import type { McpResourceUpdatedEvent } from './resource-updated.js';
import type { McpSkillLoadedEvent } from './skill-loaded.js';
import type { McpElicitationRequestEvent } from './elicitation-request.js';
import type { McpSamplingRequestEvent } from './sampling-request.js';
import type { McpServerLogEvent } from './server-log.js';
import type { McpTaskChangedEvent } from './task-changed.js';
import type { McpStorageDegradedEvent } from './storage-degraded.js';
import type { McpSignInRequiredEvent } from './sign-in-required.js';
import type { McpSignInCompletedEvent } from './sign-in-completed.js';
import type { McpSignInFailedEvent } from './sign-in-failed.js';
import type { McpSignOutCompletedEvent } from './sign-out-completed.js';
import type { McpToolCallRequestEvent } from './tool-call-request.js';
import type { McpToolCallAwaitingApprovalEvent } from './tool-call-awaiting-approval.js';
import type { McpToolCallStartedEvent } from './tool-call-started.js';
import type { McpToolCallProgressEvent } from './tool-call-progress.js';
import type { McpToolCallCompletedEvent } from './tool-call-completed.js';
import type { McpToolCallFailedEvent } from './tool-call-failed.js';
import type { McpToolCallCancelledEvent } from './tool-call-cancelled.js';
import type { McpToolCallDeniedEvent } from './tool-call-denied.js';
import type { McpToolSelectionChangedEvent } from './tool-selection-changed.js';

/** Every event the hub dispatches, by name. */
export interface McpHubEventMap {
  'mcp-server-added': McpServerAddedEvent;
  'mcp-server-updated': McpServerUpdatedEvent;
  'mcp-server-removed': McpServerRemovedEvent;
  'mcp-server-status-changed': McpServerStatusChangedEvent;
  'mcp-tools-changed': McpToolsChangedEvent;
  'mcp-tools-dropped': McpToolsDroppedEvent;
  'mcp-resource-updated': McpResourceUpdatedEvent;
  'mcp-skill-loaded': McpSkillLoadedEvent;
  'mcp-elicitation-request': McpElicitationRequestEvent;
  'mcp-sampling-request': McpSamplingRequestEvent;
  'mcp-server-log': McpServerLogEvent;
  'mcp-task-changed': McpTaskChangedEvent;
  'mcp-storage-degraded': McpStorageDegradedEvent;
  'mcp-sign-in-required': McpSignInRequiredEvent;
  'mcp-sign-in-completed': McpSignInCompletedEvent;
  'mcp-sign-in-failed': McpSignInFailedEvent;
  'mcp-sign-out-completed': McpSignOutCompletedEvent;
  'mcp-tool-call-request': McpToolCallRequestEvent;
  'mcp-tool-call-awaiting-approval': McpToolCallAwaitingApprovalEvent;
  'mcp-tool-call-started': McpToolCallStartedEvent;
  'mcp-tool-call-progress': McpToolCallProgressEvent;
  'mcp-tool-call-completed': McpToolCallCompletedEvent;
  'mcp-tool-call-failed': McpToolCallFailedEvent;
  'mcp-tool-call-cancelled': McpToolCallCancelledEvent;
  'mcp-tool-call-denied': McpToolCallDeniedEvent;
  'mcp-tool-selection-changed': McpToolSelectionChangedEvent;
}

import type { McpToolSelectionChangeRequestEvent } from './tool-selection-change-request.js';
import type { McpServerSaveRequestEvent } from './server-save-request.js';
import type { McpServerRemoveRequestEvent } from './server-remove-request.js';
import type { McpAppMessageEvent } from './app-message.js';
import type { McpAppInitializedEvent } from './app-initialized.js';

/** Events the elements dispatch (they bubble and are composed). */
export interface McpElementEventMap {
  'mcp-tool-selection-change-request': McpToolSelectionChangeRequestEvent;
  'mcp-server-save-request': McpServerSaveRequestEvent;
  'mcp-server-remove-request': McpServerRemoveRequestEvent;
  'mcp-app-message': McpAppMessageEvent;
  'mcp-app-initialized': McpAppInitializedEvent;
}

declare global {
  interface GlobalEventHandlersEventMap extends McpHubEventMap, McpElementEventMap {}
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging adds the hub's events
  interface WindowEventMap extends McpHubEventMap {}
}
