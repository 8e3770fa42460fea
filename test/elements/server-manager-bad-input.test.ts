// Bad input through every field of <mcp-server-manager>'s form (issue 13 item 3): each hostile
// or malformed value is refused with its message next to that very field (aria-invalid, linked by
// aria-describedby) and nothing is stored: the hub's servers and the raw IndexedDB are compared
// before and after each save.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/elements/mcp-server-manager/define.js';
import type { McpServerManagerElement } from '../../src/elements/mcp-server-manager/mcp-server-manager.js';
import { privateHub, rawIdb } from '../helpers.js';
import { choose, q, type } from './manager-form.js';

const URLS = [
  'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'file:///etc/passwd',
  'ftp://127.0.0.1/mcp',
  'http://example.com/mcp',
  'http://10.0.0.1/mcp',
  'http://bob:pw@127.0.0.1:9/mcp',
  'https://example.com/\u202Egnp',
  `https://example.com/${'a'.repeat(10_000)}`,
  '',
  'not a url',
];
/** [auth type, field id, value] — the rest of the form is valid. */
const CASES: [string, string, string][] = [
  ...['', '   ', 'x'.repeat(101), 'a\u202Eb', 'a\u2066b', 'a\u0000b', 'a\u001bb'].map((v): [string, string, string] => [
    'none',
    'name',
    v,
  ]),
  ...URLS.map((v): [string, string, string] => ['none', 'url', v]),
  ...['0', '-1', '1.5', '301', 'abc', '', '1e9'].map((v): [string, string, string] => ['none', 'timeout', v]),
  ['bearer', 'token', ''],
  ['api-key', 'headerName', 'bad name'],
  ['api-key', 'headerName', 'content-type'],
  ['api-key', 'headerName', ''],
  ['api-key', 'apiKey', ''],
  ['basic', 'username', 'a:b'],
  ['basic', 'username', ''],
  ['basic', 'password', ''],
  ['oauth', 'clientMetadataUrl', 'javascript:alert(1)'],
  ['oauth', 'clientMetadataUrl', 'http://example.com/client.json'],
  ['oauth', 'scopes', 'a"b'],
  ['client-credentials', 'clientId', ''],
  ['client-credentials', 'clientSecret', ''],
  ['none', 'header-0-name', 'bad name'],
  ['none', 'header-0-name', 'mcp-session-id'],
  ['none', 'header-0-name', ''],
  ['none', 'header-0-value', 'a\u0000b'],
];
const VALID: Record<string, string> = {
  name: 'Fine',
  url: 'http://127.0.0.1:9/mcp',
  timeout: '30',
  token: 't',
  headerName: 'x-api-key',
  apiKey: 'k',
  username: 'u',
  password: 'p',
  clientId: 'c',
  clientSecret: 's',
};

describe('<mcp-server-manager>: bad input in every form field', function () {
  this.timeout(60_000);

  it(`${CASES.length} values: the error next to the field, nothing stored`, async () => {
    const hub = privateHub();
    await hub.servers.add({ name: 'Existing', url: 'http://127.0.0.1:9/mcp', enabled: false });
    const el = await fixture<McpServerManagerElement>(html`<mcp-server-manager .hub=${hub}></mcp-server-manager>`);
    const stored = async () =>
      JSON.stringify([hub.servers.list(), (await rawIdb(hub.storeName)).filter((r) => !r.key.startsWith('vault:'))]);
    const before = await stored();
    const problems: string[] = [];
    for (const [authType, field, value] of CASES) {
      el.startAdd();
      await el.updateComplete;
      await choose(el, 'authType', authType);
      for (const f of [
        'name',
        'url',
        'timeout',
        'token',
        'headerName',
        'apiKey',
        'username',
        'password',
        'clientId',
        'clientSecret',
      ])
        if (q(el, `#f-${f}`)) await type(el, f, VALID[f]!);
      if (field.startsWith('header-')) {
        q(el, '[data-action="add-header"]').click();
        await el.updateComplete;
        await type(el, 'header-0-name', 'x-extra');
        await type(el, 'header-0-value', 'v');
      }
      await type(el, field, value);
      (q(el, 'form') as HTMLFormElement).requestSubmit();
      // the save is async (validation, then the hub): wait until the form shows the outcome
      for (let i = 0; i < 50 && !q(el, `#e-${field}`) && el._editing; i++)
        await new Promise((r) => requestAnimationFrame(r));
      const what = `${authType} ${field} ${JSON.stringify(value).slice(0, 40)}`;
      const error = q(el, `#e-${field}`)?.textContent?.trim();
      if (!error) problems.push(`${what}: no error next to the field${el._editing ? '' : ' (saved)'}`);
      else {
        if (q(el, `#f-${field}`).getAttribute('aria-invalid') !== 'true') problems.push(`${what}: not aria-invalid`);
        if (!(q(el, `#f-${field}`).getAttribute('aria-describedby') ?? '').includes(`e-${field}`))
          problems.push(`${what}: error not linked by aria-describedby`);
      }
      if ((await stored()) !== before) problems.push(`${what}: stored something`);
      el._editing = null;
      await el.updateComplete;
    }
    console.log(`form bad input: ${CASES.length} values tried, ${problems.length} problems`);
    expect(problems).to.deep.equal([]);
  });
});
