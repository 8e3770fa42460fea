// Every element in a state with text and controls worth measuring: servers (one down), a call
// awaiting approval, one done, one failed, the explorer on a tool with its "Try it" form, the
// selector, the task monitor. Shared by the host-theme and narrow-width tests.
import { fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import { fixtureTenant, nextEvent, privateHub, untilRendered, urls } from '../helpers.js';

/** Render them all inside `#panel` (`width` in px when given); `finish()` settles the waiting call. */
export async function allElements(width?: number) {
  const hub = privateHub();
  const t = fixtureTenant();
  const fx = await hub.servers.add({ name: 'Fixture', url: t.url });
  await hub.connect(fx.id);
  const broken = await hub.servers.add({ name: 'Broken', url: `${urls.fixture}/status/500/mcp`, retries: 0 });
  await hub.connect(broken.id).catch(() => {});
  await hub.assistants.update('default', { approval: 'auto' });
  const done = await hub.callTool({ name: 'Fixture__echo', arguments: { message: 'hello' } });
  const failed = await hub.callTool({ name: 'Fixture__fail' });
  await hub.assistants.update('default', { approval: 'always-ask' });
  const waiting = nextEvent<CustomEvent>(hub, 'mcp-tool-call-awaiting-approval');
  const pending = hub.callTool({ name: 'Fixture__slow', arguments: { ms: 1 } });
  const awaiting = (await waiting).detail.call.id as string;
  const root = await fixture<HTMLElement>(html`
    <div id="panel" style=${width ? `width: ${width}px` : ''}>
      <mcp-server-manager .hub=${hub}></mcp-server-manager>
      <gpt-tool-selector .hub=${hub}></gpt-tool-selector>
      <mcp-tool-explorer .hub=${hub} server-id=${fx.id}></mcp-tool-explorer>
      <mcp-tool-call .hub=${hub} call-id=${awaiting}></mcp-tool-call>
      <mcp-tool-call .hub=${hub} call-id=${done.id}></mcp-tool-call>
      <mcp-tool-call .hub=${hub} call-id=${failed.id}></mcp-tool-call>
      <mcp-task-monitor .hub=${hub}></mcp-task-monitor>
    </div>
  `);
  const elements = [...root.children] as Array<HTMLElement & { updateComplete: Promise<unknown>; theme?: string }>;
  await Promise.all(elements.map((e) => e.updateComplete));
  const explorer = root.querySelector('mcp-tool-explorer')!;
  const option = () => explorer.shadowRoot!.querySelector<HTMLElement>('[role=option][data-tool=echo]');
  await untilRendered(explorer as never, option, 'explorer tools');
  // a tool's detail and its "Try it" form too
  option()!.click();
  await untilRendered(explorer as never, () => explorer.shadowRoot!.querySelector('mcp-schema-form'), 'Try it form');
  return { hub, root, elements, finish: () => (hub.calls.deny(awaiting), pending) };
}
