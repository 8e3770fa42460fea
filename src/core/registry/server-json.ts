// Reading `server.json` documents (the MCP Registry's format) as untrusted input: each field is
// checked against the published schema's rules (name pattern, lengths, transport types), every
// URL goes through the hub's URL policy, and an entry that fails is skipped with a reason. What
// comes out is plain data for the directory to render as text; nothing here is stored.
import { z } from '../zod-setup.js';
import { urlProblem } from '../schemas.js';

/** A description longer than this is refused (the schema says 100; real entries run longer). */
export const MAX_DESCRIPTION = 10_000;
/** What the directory shows of a description; the rest is cut with an ellipsis. */
export const SHOWN_DESCRIPTION = 300;

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]/;
const text = (max: number) =>
  z.string().check(
    z.maxLength(max, `is longer than ${max} characters`),
    z.refine((v) => !CONTROL.test(v), 'contains control or bidirectional override characters'),
  );
const flag = z.optional(z.boolean());

const Input = {
  description: z.optional(text(2000)),
  isRequired: flag,
  isSecret: flag,
  format: z.optional(z.enum(['string', 'number', 'boolean', 'filepath'])),
  value: z.optional(text(4096)),
  default: z.optional(text(4096)),
  placeholder: z.optional(text(4096)),
  choices: z.optional(z.array(text(4096)).check(z.maxLength(100))),
};
const InputSchema = z.looseObject(Input);
/** A variable's name inside `{braces}`: the schema's identifiers, nothing that could break out. */
const VAR_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;
const Variables = z.optional(
  z
    .record(z.string().check(z.regex(VAR_NAME, 'is not a variable name')), InputSchema)
    .check(z.refine((r) => Object.keys(r).length <= 20, 'has more than 20 variables')),
);
const KeyValueInput = z.looseObject({ ...Input, name: text(200).check(z.minLength(1)), variables: Variables });
const ArgumentSchema = z.looseObject({
  ...Input,
  type: z.enum(['positional', 'named']),
  name: z.optional(text(200)),
  valueHint: z.optional(text(200)),
  isRepeated: flag,
  variables: Variables,
});

const RemoteSchema = z.looseObject({
  type: z.enum(['streamable-http', 'sse']),
  url: text(2048),
  headers: z.optional(z.array(KeyValueInput).check(z.maxLength(50))),
  variables: Variables,
});
export type Remote = z.infer<typeof RemoteSchema>;
export type KeyValue = z.infer<typeof KeyValueInput>;
export type InputSpec = z.infer<typeof InputSchema>;

const PackageSchema = z.looseObject({
  registryType: text(50),
  registryBaseUrl: z.optional(text(2048)),
  // a name or a URL: nothing a shell would read as its own (the relay's command line shows it)
  identifier: text(500).check(
    z.minLength(1),
    z.refine((v) => !/[\s`$;&|<>\\!'"(){}*?]/.test(v), 'contains characters a shell would run'),
  ),
  version: z.optional(text(255).check(z.refine((v) => v !== 'latest', 'must be a specific version, not "latest"'))),
  runtimeHint: z.optional(text(50)),
  transport: z.looseObject({ type: z.enum(['stdio', 'streamable-http', 'sse']), url: z.optional(text(2048)) }),
  runtimeArguments: z.optional(z.array(ArgumentSchema).check(z.maxLength(50))),
  packageArguments: z.optional(z.array(ArgumentSchema).check(z.maxLength(50))),
  environmentVariables: z.optional(z.array(KeyValueInput).check(z.maxLength(50))),
});
export type Package = z.infer<typeof PackageSchema>;
export type Argument = z.infer<typeof ArgumentSchema>;

const ServerJsonSchema = z.looseObject({
  name: z
    .string()
    .check(
      z.minLength(3),
      z.maxLength(200),
      z.regex(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/, 'must be namespace/name (letters, digits, . _ -)'),
    ),
  title: z.optional(text(100)),
  description: text(MAX_DESCRIPTION),
  version: text(255).check(
    z.minLength(1),
    z.refine((v) => !/^[\^~><=]|[x*]$|\|\|/.test(v), 'must be one version, not a range'),
  ),
  websiteUrl: z.optional(text(2048)),
  repository: z.optional(z.looseObject({ url: z.optional(text(2048)), source: z.optional(text(50)) })),
  icons: z.optional(
    z.array(z.looseObject({ src: text(100_000), mimeType: z.optional(text(100)) })).check(z.maxLength(20)),
  ),
  remotes: z.optional(z.array(RemoteSchema).check(z.maxLength(20))),
  packages: z.optional(z.array(PackageSchema).check(z.maxLength(20))),
});
export type ServerJson = z.infer<typeof ServerJsonSchema>;

/** What the registry says of an entry beside its server.json (display only: never trusted). */
export interface EntryStatus {
  status: 'active' | 'deprecated';
  statusMessage?: string;
  publishedAt?: string;
  updatedAt?: string;
}

/** One directory entry: the checked server.json and what the directory shows of it. */
export interface RegistryEntry extends EntryStatus {
  /** Where it came from: the registry's base URL, or `curated` for the host's own list. */
  registry: string;
  server: ServerJson;
  name: string;
  title: string;
  /** At most SHOWN_DESCRIPTION characters (cut with "…"). */
  description: string;
  version: string;
  /** https only (links the directory renders). */
  websiteUrl?: string;
  repositoryUrl?: string;
  /** A raster image: https, or an inline data: URL of png, jpeg, gif or webp. Never SVG. */
  icon?: string;
  remotes: Remote[];
  /** Packages run over stdio: the relay can serve them. */
  packages: Package[];
}

/** An entry that was left out, and why (shown to the user). */
export interface SkippedEntry {
  name: string;
  reason: string;
}

const OFFICIAL = 'io.modelcontextprotocol.registry/official';
const RASTER_DATA = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+$/;
const RASTER_TYPES = /^image\/(png|jpeg|gif|webp)$/;

/** An https link (no userinfo) the directory may render, or undefined. */
export function safeLink(url: string | undefined): string | undefined {
  if (!url || urlProblem(url)) return undefined;
  return new URL(url).protocol === 'https:' ? url : undefined;
}

function icon(server: ServerJson): string | undefined {
  for (const i of server.icons ?? []) {
    if (RASTER_DATA.test(i.src) && i.src.length <= 100_000) return i.src;
    const link = safeLink(i.src);
    const svgish = /\.svgz?(\?|#|$)/i.test(link ?? '') || (i.mimeType !== undefined && !RASTER_TYPES.test(i.mimeType));
    if (link && !svgish) return link;
  }
  return undefined;
}

/** `{name}` placeholders in a template. */
export function templateVariables(template: string): string[] {
  return [...template.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1]!);
}

/** A remote URL template's problem under the URL policy (its variables filled with a sample value). */
function remoteProblem(remote: Remote): string | null {
  for (const name of templateVariables(remote.url))
    if (!VAR_NAME.test(name)) return `has a variable "{${name}}" that is not a name`;
  return urlProblem(remote.url.replace(/\{[^{}]*\}/g, 'x'));
}

function cut(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/**
 * Read one registry answer item (`{ server, _meta }`) or a bare server.json (a host's curated
 * list). Returns the entry, `null` for one the registry marks deleted (hidden), or why it was skipped.
 */
export function readEntry(item: unknown, registry: string): RegistryEntry | SkippedEntry | null {
  const wrapped = !!item && typeof item === 'object' && 'server' in item;
  const raw = wrapped ? (item as { server: unknown }).server : item;
  const rawName = (raw as { name?: unknown } | null)?.name;
  const label = typeof rawName === 'string' && rawName.length <= 200 ? rawName : '(no name)';
  const r = ServerJsonSchema.safeParse(raw);
  if (!r.success) {
    const i = r.error.issues[0]!;
    return { name: label, reason: `${i.path.join('.') || 'entry'} ${i.message}` };
  }
  const server = r.data;
  const meta = wrapped
    ? ((item as { _meta?: Record<string, unknown> })._meta?.[OFFICIAL] as Record<string, unknown>)
    : undefined;
  const status = typeof meta?.status === 'string' ? meta.status : 'active';
  if (status === 'deleted') return null;
  for (const [i, remote] of (server.remotes ?? []).entries()) {
    const problem = remoteProblem(remote);
    if (problem) return { name: server.name, reason: `remotes.${i}.url ${problem}` };
  }
  for (const key of ['websiteUrl', 'repository.url'] as const) {
    const url = key === 'websiteUrl' ? server.websiteUrl : server.repository?.url;
    const problem = url && urlProblem(url);
    if (problem) return { name: server.name, reason: `${key} ${problem}` };
  }
  const str = (v: unknown, max: number) => (typeof v === 'string' && !CONTROL.test(v) ? cut(v, max) : undefined);
  return {
    registry,
    server,
    name: server.name,
    title: server.title || server.name,
    description: cut(server.description, SHOWN_DESCRIPTION),
    version: server.version,
    websiteUrl: safeLink(server.websiteUrl),
    repositoryUrl: safeLink(server.repository?.url),
    icon: icon(server),
    remotes: server.remotes ?? [],
    packages: (server.packages ?? []).filter((p) => p.transport.type === 'stdio'),
    status: status === 'deprecated' ? 'deprecated' : 'active',
    statusMessage: str(meta?.statusMessage, SHOWN_DESCRIPTION),
    publishedAt: str(meta?.publishedAt, 40),
    updatedAt: str(meta?.updatedAt, 40),
  };
}

/** True when `readEntry` gave an entry (not a skip). */
export function isEntry(e: RegistryEntry | SkippedEntry): e is RegistryEntry {
  return 'server' in e;
}
