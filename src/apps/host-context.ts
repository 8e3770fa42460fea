// The host context a view is given (SEP-1865 "Host Context"): theme, the standard style
// variables mapped from the elements' --mcp-* tokens (as resolved on the view's element), display
// mode, container size, locale, time zone, platform.
import type { McpUiDisplayMode, McpUiHostContext, McpUiStyles } from '@modelcontextprotocol/ext-apps/app-bridge';

/** Which standard variable each of our resolved tokens (baseStyles' --_*) fills. */
const TOKEN_MAP: Record<string, readonly (keyof McpUiStyles)[]> = {
  '--_bg': ['--color-background-primary'],
  '--_subtle': ['--color-background-secondary', '--color-background-tertiary'],
  '--_fg': ['--color-text-primary', '--color-background-inverse'],
  '--_muted': ['--color-text-secondary', '--color-text-tertiary', '--color-text-disabled'],
  '--_border': ['--color-border-primary', '--color-border-secondary', '--color-border-tertiary'],
  '--_accent': ['--color-ring-primary', '--color-text-info', '--color-border-info'],
  '--_accent-fg': ['--color-text-inverse'],
  '--_danger': ['--color-text-danger', '--color-border-danger', '--color-ring-danger'],
  '--_warning': ['--color-text-warning', '--color-border-warning', '--color-ring-warning'],
  '--_success': ['--color-text-success', '--color-border-success', '--color-ring-success'],
  '--_font': ['--font-sans'],
  '--_mono': ['--font-mono'],
  '--_radius': ['--border-radius-md'],
};

/** The standard style variables from the tokens resolved on `el`. */
export function styleVariables(el: Element): Partial<McpUiStyles> {
  const cs = getComputedStyle(el);
  const out: Partial<McpUiStyles> = {};
  for (const [token, keys] of Object.entries(TOKEN_MAP)) {
    const v = cs.getPropertyValue(token).trim();
    if (v && v.length <= 500) for (const k of keys) out[k] = v;
  }
  const size = cs.fontSize;
  if (size) out['--font-text-md-size'] = size;
  return out;
}

/** The context as it is now for a view shown in `el`. */
export function hostContext(
  el: HTMLElement,
  o: { theme: 'light' | 'dark'; displayMode: McpUiDisplayMode; available: McpUiDisplayMode[]; maxHeight: number },
): McpUiHostContext {
  const width = Math.round(el.getBoundingClientRect().width);
  const coarse = typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;
  return {
    theme: o.theme,
    styles: { variables: styleVariables(el) as McpUiStyles },
    displayMode: o.displayMode,
    availableDisplayModes: o.available,
    containerDimensions:
      o.displayMode === 'inline'
        ? { ...(width > 0 ? { width } : {}), maxHeight: o.maxHeight }
        : { width: innerWidth, height: innerHeight },
    locale: navigator.language,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    platform: coarse ? 'mobile' : 'web',
    deviceCapabilities: {
      touch: coarse,
      hover: typeof matchMedia === 'function' && matchMedia('(hover: hover)').matches,
    },
  };
}
