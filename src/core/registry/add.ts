// Adding a server from a registry entry: which remote, the fields its URL `{variables}` and
// `headers[]` ask for, the server config the filled fields make (with its provenance), and for a
// package-only entry the relay's mcp.json and command line, shown, never run.
import { ServerConfigInputSchema, toIssues, type ServerConfigInput } from '../schemas.js';
import type { InputSpec, Package, RegistryEntry, Remote } from './server-json.js';
import { templateVariables } from './server-json.js';

/** One field the user fills before adding. */
export interface EntryField {
  /** `url.<var>`, `header.<i>` (the whole value) or `header.<i>.<var>` (a variable of a fixed value). */
  key: string;
  label: string;
  description?: string;
  required: boolean;
  /** A secret: typed into a password field, kept in the vault, never pre-filled. */
  secret: boolean;
  /** The field's starting value: the entry's default (never for a secret). */
  initial: string;
  placeholder?: string;
  choices?: string[];
  format?: InputSpec['format'];
  /** The fixed header value this variable fills (`Bearer {api_key}`): shown, not editable. */
  template?: string;
}

/** Streamable HTTP before SSE; the first of each in the entry's order. */
export function chooseRemote(entry: RegistryEntry): Remote | undefined {
  return entry.remotes.find((r) => r.type === 'streamable-http') ?? entry.remotes.find((r) => r.type === 'sse');
}

function fieldOf(key: string, label: string, spec: InputSpec, fallback: InputSpec = {}): EntryField {
  const secret = !!(spec.isSecret ?? fallback.isSecret);
  const choices = spec.choices?.length ? spec.choices : undefined;
  const def = spec.default ?? fallback.default;
  return {
    key,
    label,
    description: spec.description ?? fallback.description,
    required: !!(spec.isRequired ?? fallback.isRequired),
    secret,
    initial: secret ? '' : (def ?? (choices ? choices[0]! : '')),
    placeholder: spec.placeholder ?? fallback.placeholder,
    choices,
    format: spec.format ?? fallback.format,
  };
}

/** The fields a remote asks for: its URL's variables, then each header (or each variable of a fixed header value). */
export function fieldsFor(remote: Remote): EntryField[] {
  const fields: EntryField[] = [];
  for (const name of new Set(templateVariables(remote.url)))
    // a URL with a hole in it does not work: its variables are required
    fields.push({ ...fieldOf(`url.${name}`, name, remote.variables?.[name] ?? {}), required: true });
  for (const [i, h] of (remote.headers ?? []).entries()) {
    if (h.value === undefined) {
      fields.push(fieldOf(`header.${i}`, h.name, h));
      continue;
    }
    for (const name of new Set(templateVariables(h.value)))
      fields.push({
        ...fieldOf(`header.${i}.${name}`, `${h.name}: ${name}`, h.variables?.[name] ?? {}, h),
        template: h.value,
      });
  }
  return fields;
}

export interface EntryFieldIssue {
  key: string;
  message: string;
}

function check(field: EntryField, value: string): string | undefined {
  if (!value) return field.required ? 'is required' : undefined;
  if (field.choices && !field.choices.includes(value)) return `must be one of: ${field.choices.join(', ')}`;
  if (field.format === 'number' && !Number.isFinite(Number(value))) return 'must be a number';
  if (field.format === 'boolean' && value !== 'true' && value !== 'false') return 'must be true or false';
  return undefined;
}

function fill(template: string, values: (name: string) => string): string {
  return template.replace(/\{([^{}]*)\}/g, (_, name: string) => values(name));
}

/**
 * The server config for `entry` reached at `remote` with the fields filled (`values` by field
 * key), or the fields' problems. URL variables are percent-encoded (a value cannot move the URL
 * to another host or path); the result goes through the hub's own schema, URL policy included.
 */
export function buildServerInput(
  entry: RegistryEntry,
  remote: Remote,
  values: Readonly<Record<string, string>>,
): { input: ServerConfigInput } | { issues: EntryFieldIssue[] } {
  const fields = fieldsFor(remote);
  const issues: EntryFieldIssue[] = [];
  for (const f of fields) {
    const problem = check(f, values[f.key] ?? '');
    if (problem) issues.push({ key: f.key, message: `${f.label} ${problem}` });
  }
  if (issues.length) return { issues };
  const url = fill(remote.url, (name) => encodeURIComponent(values[`url.${name}`] ?? ''));
  const headers: NonNullable<ServerConfigInput['headers']> = [];
  for (const [i, h] of (remote.headers ?? []).entries()) {
    const vars = h.value === undefined ? [] : templateVariables(h.value);
    const value =
      h.value === undefined
        ? (values[`header.${i}`] ?? '')
        : fill(h.value, (name) => values[`header.${i}.${name}`] ?? '');
    const empty = h.value === undefined ? !value : vars.length > 0 && vars.every((n) => !values[`header.${i}.${n}`]);
    if (empty) continue; // optional and left empty (required ones were checked above)
    const secret = !!h.isSecret || vars.some((n) => h.variables?.[n]?.isSecret);
    headers.push({ name: h.name, value, secret });
  }
  const input: ServerConfigInput = {
    name: entry.title.slice(0, 100),
    description: entry.description,
    url,
    transport: remote.type,
    headers,
    source: { registry: entry.registry, name: entry.name, version: entry.version },
  };
  const r = ServerConfigInputSchema.safeParse(input);
  if (!r.success)
    return {
      issues: toIssues(r.error).map((i) => ({ key: 'form', message: `${i.path}: ${i.message}` })),
    };
  return { input };
}

// What may stand in a command line unquoted, and what may never be in an argument at all
const PLAIN = /^[A-Za-z0-9@%+=:,./_-]+$/;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const REFUSED = /[\u0000-\u001f\u007f`$;&|<>\\!\n\r]/;

/** POSIX shell quoting for display: plain words as they are, the rest in single quotes. */
export function shellQuote(word: string): string {
  return PLAIN.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

export interface RelayCommand {
  /** The mcp.json for the relay (`--config`): command, arguments and environment, as data. */
  config: string;
  /** The command line to run (shown, never run by the page). */
  command: string;
  /** Environment variables the user fills into the mcp.json (secrets are never pre-filled). */
  env: { name: string; secret: boolean; required: boolean }[];
}

/** The relay's mcp.json and command line for a stdio package, or why there is none. */
export function relayCommand(entry: RegistryEntry, pkg: Package, origin: string): RelayCommand | { problem: string } {
  const id = pkg.identifier;
  const ver = pkg.version;
  const runner =
    pkg.registryType === 'npm'
      ? { command: 'npx', args: ['-y', ver ? `${id}@${ver}` : id] }
      : pkg.registryType === 'pypi'
        ? { command: 'uvx', args: [ver ? `${id}==${ver}` : id] }
        : pkg.registryType === 'oci'
          ? {
              command: 'docker',
              args: ['run', '-i', '--rm', ...(pkg.environmentVariables ?? []).flatMap((e) => ['-e', e.name]), id],
            }
          : undefined;
  if (!runner) return { problem: `The relay's command line does not start ${pkg.registryType} packages.` };
  const args = [...runner.args];
  for (const a of pkg.packageArguments ?? []) {
    const value = a.value ?? a.default ?? (a.isRequired ? `<${a.valueHint ?? a.name ?? 'value'}>` : undefined);
    if (a.type === 'named' && a.name) args.push(a.name, ...(value !== undefined ? [value] : []));
    else if (value !== undefined) args.push(value);
  }
  const env = (pkg.environmentVariables ?? []).map((e) => ({
    name: e.name,
    secret: !!e.isSecret,
    required: !!e.isRequired,
  }));
  // the schema's warning: arguments become a command line; a shell character in one is refused
  for (const word of [id, ver ?? '', ...args, ...env.map((e) => e.name)])
    if (REFUSED.test(word) && !/^<[^<>]*>$/.test(word))
      return {
        problem: `The package's command line holds a character a shell would run (${JSON.stringify(word.slice(0, 80))}); it is not shown.`,
      };
  for (const e of env)
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(e.name))
      return { problem: `"${e.name.slice(0, 80)}" is not an environment variable name.` };
  const key = entry.name.split('/').pop()!;
  const config = JSON.stringify(
    {
      mcpServers: {
        [key]: {
          command: runner.command,
          args,
          ...(env.length ? { env: Object.fromEntries(env.map((e) => [e.name, ''])) } : {}),
        },
      },
    },
    null,
    2,
  );
  const command = ['npx', 'mcp-chat-elements', 'relay', '--config', 'mcp.json', '--origin', origin]
    .map(shellQuote)
    .join(' ');
  return { config, command, env };
}
