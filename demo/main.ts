// The demo page as a host would write it: the elements, the page's hub, DOM events.
import { getHub } from '../src/index.js';
// @ts-ignore provided by scripts/start.mjs
import { everythingUrl } from 'virtual:demo-config';

const hub = getHub();
await hub.ready;

// pre-add the reference server on first visit (the user may remove it)
if (!localStorage.getItem('mcp-elements-demo-seeded')) {
  localStorage.setItem('mcp-elements-demo-seeded', '1');
  if (!hub.servers.list().some((s) => s.url === everythingUrl)) await hub.servers.add({ name: 'Everything', url: everythingUrl });
}
for (const s of hub.servers.list()) if (s.enabled) void hub.connect(s.id).catch(() => {});

// every call the assistant makes gets a card, approvals included
const calls = document.querySelector('#calls')!;
window.addEventListener('mcp-tool-call-request', (e) => {
  const card = document.createElement('mcp-tool-call');
  card.setAttribute('call-id', e.detail.call.id);
  calls.prepend(card);
});

// a scripted "model": asks for the first echo tool of the assistant, in OpenAI's format
document.querySelector('#model')!.addEventListener('submit', async (e) => {
  e.preventDefault();
  const message = String(new FormData(e.target as HTMLFormElement).get('message'));
  const reply = document.querySelector('#reply')!;
  const echo = hub.modelTools({ gptId: 'default' }).find((t) => t.tool.name === 'echo');
  if (!echo) return void (reply.textContent = 'No echo tool: connect a server that has one and select it for the assistant.');
  const assistant = { role: 'assistant', content: null, tool_calls: [{ id: `call_${Date.now()}`, type: 'function', function: { name: echo.name, arguments: JSON.stringify({ message }) } }] };
  reply.textContent = 'Waiting for the tool…';
  const { messages } = await hub.runToolCalls('openai', assistant, { gptId: 'default' });
  reply.textContent = `Model would now read: ${(messages[0] as { content: string }).content}`;
});
