// Resource templates (RFC 6570) through the SDK's UriTemplate, so every operator works
// (`{?q}` expands to `?q=…`, `{/path*}`, `{+base}`…), not only `{name}`.
import { UriTemplate } from '@modelcontextprotocol/client';
import { McpConfigError } from './errors.js';

function parse(template: string): UriTemplate {
  try {
    return new UriTemplate(template);
  } catch (e) {
    throw new McpConfigError([{ path: 'uriTemplate', message: (e as Error).message }]);
  }
}

/** The variable names of a URI template, in order; none for a template the SDK refuses. */
export function templateParams(template: string): string[] {
  try {
    return [...new Set(parse(template).variableNames)];
  } catch {
    return [];
  }
}

/** Expand a URI template; variables left empty are left out (so `{?q}` with no q gives nothing). */
export function expandTemplate(template: string, values: Readonly<Record<string, string>>): string {
  const given = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
  return parse(template).expand(given);
}
