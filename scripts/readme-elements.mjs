// Writes each element's section of README.md (between the ELEMENTS markers) from
// custom-elements.json, so the README and the manifest never disagree. Run by `npm run build`.
import { readFileSync, writeFileSync } from 'node:fs';

const root = new URL('..', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('custom-elements.json', root), 'utf8'));
const cell = (s) =>
  String(s ?? '')
    .replace(/\|/g, '\\|')
    .replace(/\n+/g, ' ');
// `@deprecated reason` in the JSDoc becomes `deprecated: 'reason'` (or `true`) in the manifest
const deprecated = (d) => (d.deprecated ? `_Deprecated${d.deprecated === true ? '' : `: ${d.deprecated}`}._ ` : '');
const table = (head, rows) =>
  rows.length
    ? `| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|\n${rows.map((r) => `| ${r.map(cell).join(' | ')} |`).join('\n')}\n`
    : '_none_\n';

const order = ['mcp-server-manager', 'mcp-tool-explorer', 'mcp-tool-call', 'gpt-tool-selector'];
const decls = manifest.modules
  .flatMap((m) => m.declarations ?? [])
  .filter((d) => d.customElement)
  .sort((a, b) => order.indexOf(a.tagName) - order.indexOf(b.tagName));
let out = '';
for (const d of decls) {
  out += `### \`<${d.tagName}>\`\n\n${d.summary ?? ''}\n\n${(d.description ?? '').trim()}\n\n`;
  out += `**Attributes**\n\n${table(
    ['attribute', 'property', 'description'],
    (d.attributes ?? []).map((a) => [`\`${a.name}\``, a.fieldName ? `\`${a.fieldName}\`` : '', a.description ?? '']),
  )}\n`;
  out += `**Properties**\n\n${table(
    ['property', 'type', 'description'],
    (d.members ?? [])
      .filter((m) => m.kind === 'field')
      .map((m) => [`\`${m.name}\``, m.type?.text ? `\`${m.type.text}\`` : '', deprecated(m) + (m.description ?? '')]),
  )}\n`;
  const methods = (d.members ?? []).filter((m) => m.kind === 'method');
  if (methods.length)
    out += `**Methods**\n\n${table(
      ['method', 'description'],
      methods.map((m) => [`\`${m.name}()\``, m.description ?? '']),
    )}\n`;
  out += `**Events**\n\n${table(
    ['event', 'type', 'description'],
    (d.events ?? []).map((e) => [`\`${e.name}\``, e.type?.text ? `\`${e.type.text}\`` : '', e.description ?? '']),
  )}\n`;
  out += `**Parts**\n\n${table(
    ['part', 'description'],
    (d.cssParts ?? []).map((p) => [`\`${p.name}\``, p.description ?? '']),
  )}\n`;
  out += `**CSS custom properties**\n\n${table(
    ['property', 'description'],
    (d.cssProperties ?? []).map((p) => [`\`${p.name}\``, p.description ?? '']),
  )}\n`;
  if (d.cssStates?.length)
    out += `**Custom states**\n\n${table(
      ['state', 'description'],
      d.cssStates.map((s) => [`\`:state(${s.name})\``, s.description ?? '']),
    )}\n`;
}
const readmeUrl = new URL('README.md', root);
const readme = readFileSync(readmeUrl, 'utf8');
const start = '<!-- ELEMENTS:START (generated from custom-elements.json by scripts/readme-elements.mjs) -->';
const end = '<!-- ELEMENTS:END -->';
const i = readme.indexOf(start);
const j = readme.indexOf(end);
if (i < 0 || j < 0) throw new Error('README.md lacks the ELEMENTS markers');
writeFileSync(readmeUrl, readme.slice(0, i + start.length) + '\n\n' + out + readme.slice(j));
