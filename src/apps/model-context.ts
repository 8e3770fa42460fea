// `ui/update-model-context`: what a view offers the model for the next turn, kept per view (the
// newest replaces the last) in the hub, where `hub.modelContext()` reads it. Checked here, in the
// apps chunk, so the hub every page loads carries only the reading side (src/core/apps/app-views.ts).
import { McpConfigError, type AppModelContext, type McpHub } from '../core/index.js';

/** Largest model context one view may keep (characters of its JSON). */
export const MODEL_CONTEXT_LIMIT = 65536;

/** Keep (`null`: forget) a view's model context; McpConfigError past the limit (nothing changes). */
export function setModelContext(
  hub: McpHub,
  viewId: string,
  entry: Omit<AppModelContext, 'viewId' | 'updatedAt'> | null,
): void {
  const size = JSON.stringify(entry ?? 0).length;
  if (typeof viewId !== 'string' || !viewId || size > MODEL_CONTEXT_LIMIT)
    throw new McpConfigError([
      { path: 'modelContext', message: `needs a view id and at most ${MODEL_CONTEXT_LIMIT} characters` },
    ]);
  const { contexts } = hub.appViews;
  if (entry) contexts.set(viewId, Object.freeze({ ...entry, viewId, updatedAt: Date.now() }));
  else contexts.delete(viewId);
}
