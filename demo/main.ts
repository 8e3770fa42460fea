// The demo chat page, written as a host page would be: its own conversation and model, the
// elements for settings and tool calls, and the hub's toolsFor / runToolCalls for the loop.
import { getHub } from '../src/index.js';
import { demoComplete, demoSample, type ChatMessage } from './demo-model.js';
import { openaiComplete, openaiSample, type OpenAISettings } from './openai-model.js';
import { backendUrl, runOnBackend } from './backend-mode.js';
import { ownServer } from './own-servers.js';
import { appContextMessage, appMessage, appMessageText } from './app-messages.js';
import { debugUrl, everythingUrl, protectedUrl, sandboxUrl, tasksUrl } from 'virtual:demo-config';

const ASSISTANT = 'default';
const MAX_STEPS = 8;
const hub = getHub();
// sign-in: the authorization server sends the user back to this small page, which hands the
// answer to this one (demo/oauth-callback.html)
hub.setSignInOptions({ redirectUrl: new URL('./oauth-callback.html', location.href).href });
// "Find servers" in the manager: the demo's own MCP Registry, served by `npm start` on this
// origin (scripts/demo-registry.mjs), so nothing leaves the machine (the default is the official one)
document.querySelector('mcp-server-manager')!.directory = { registries: [new URL('/registry', location.href).href] };
await hub.ready;

// ---- first visit: the reference server is pre-added (the user may remove it); on every visit
// the demo's own servers follow the ports this `npm start` gave them (own-servers.ts) ----------
await ownServer(hub, 'everything', 'mcp-demo-seeded', { name: 'Everything', url: everythingUrl });
// servers may ask this page's model (sampling): the model chosen in Settings answers, after the
// user approved the request and before they review the answer (<mcp-tool-call>, <mcp-elicitation>).
// Set before connecting: the capability is declared when a session opens.
hub.setSamplingHandler(async (request) => {
  const s = settings();
  return s.kind === 'openai' ? openaiSample(s, request) : demoSample(request);
});
// and a server that needs sign-in (OAuth, against a real authorization server)
await ownServer(hub, 'protected', 'mcp-demo-seeded-protected', {
  name: 'Protected demo server',
  url: protectedUrl,
  auth: { type: 'oauth' },
});
// and a server whose tools run as tasks (they survive a reload: see the task monitor in Settings)
await ownServer(hub, 'tasks', 'mcp-demo-seeded-tasks', { name: 'Jobs', url: tasksUrl });
// and an MCP Apps server: its tool's view shows under the call, in the sandbox page on a second
// origin (without it, views would run in an opaque srcdoc frame: docs/API.md "MCP Apps")
hub.setSandboxUrl(sandboxUrl);
await ownServer(hub, 'apps', 'mcp-demo-seeded-apps', { name: 'Debug', url: debugUrl });
for (const s of hub.servers.list()) if (s.enabled) void hub.connect(s.id).catch(() => {});

// ---- conversation, kept across reloads --------------------------------------------------------
type Item =
  | { kind: 'user' | 'assistant' | 'error'; text: string }
  | { kind: 'app'; text: string; from: string }
  | { kind: 'call'; callId: string };
interface Conversation {
  messages: ChatMessage[];
  items: Item[];
}
const load = (): Conversation => {
  try {
    return JSON.parse(localStorage.getItem('mcp-demo-conversation') ?? '') as Conversation;
  } catch {
    return { messages: [], items: [] };
  }
};
let convo = load();
// a reload in the middle of a turn leaves tool calls without results. A call that was only
// waiting for approval still waits (the hub asks again): the turn goes on from there once the user
// decides (`resume` below). Any other is answered as interrupted, so the next request is
// well-formed for any model.
const answered = new Set(convo.messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id));
const unanswered = convo.messages.flatMap((m) => m.tool_calls ?? []).filter((c) => !answered.has(c.id));
const stillWaiting = (providerCallId: string) =>
  hub.calls
    .list({ assistantId: ASSISTANT })
    .some((r) => r.providerCallId === providerCallId && r.status === 'awaiting-approval');
const resumeReply = unanswered.some((c) => stillWaiting(c.id))
  ? convo.messages.findLast((m) => m.tool_calls?.some((c) => !answered.has(c.id)))
  : undefined;
if (!resumeReply)
  for (const c of unanswered)
    convo.messages.push({
      role: 'tool',
      tool_call_id: c.id,
      content: 'Error: The call was interrupted: the page was reloaded while it ran.',
    });
const save = () => localStorage.setItem('mcp-demo-conversation', JSON.stringify(convo));

const list = document.querySelector('#conversation')!;
const welcome = document.querySelector<HTMLElement>('#welcome')!;
const showWelcome = () => (welcome.hidden = convo.items.length > 0);
function renderItem(item: Item): HTMLElement {
  const li = document.createElement('li');
  if (item.kind === 'call') {
    li.className = 'call';
    const card = document.createElement('mcp-tool-call');
    card.setAttribute('call-id', item.callId);
    // after Allow / Deny / Escape the user goes on typing
    card.setAttribute('return-focus', '#prompt');
    li.append(card);
  } else {
    li.className = `msg ${item.kind}`;
    li.textContent = item.text;
    // the app's words, labelled with the app (CSS shows it above the text)
    if (item.kind === 'app') li.dataset.from = `From the app: ${item.from}`;
  }
  return li;
}
function add(item: Item) {
  convo.items.push(item);
  save();
  showWelcome();
  const el = renderItem(item);
  list.append(el);
  // what the user sends is followed even when they had scrolled up to read
  if (item.kind === 'user') stuck = true;
  return el;
}
for (const item of convo.items) list.append(renderItem(item));

// ---- autoscroll: while the user is at the bottom the newest message stays fully in view, also
// when it grows after it was added (a card's result, an MCP App view, a streamed answer): the
// scroller follows every change of its content's size. Scrolling up stops that; scrolling back
// to the bottom starts it again.
const scroller = document.querySelector<HTMLElement>('#scroller')!;
const AT_BOTTOM_PX = 8;
let stuck = true;
const toBottom = () => {
  if (stuck) scroller.scrollTop = scroller.scrollHeight;
};
// Only the user moving up lets go: content that grew between our scroll and its event leaves the
// view short of the end without anyone scrolling up (seen on a loaded machine: 252 px short)
let lastTop = scroller.scrollTop;
scroller.addEventListener('scroll', () => {
  const atBottom = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight <= AT_BOTTOM_PX;
  if (atBottom) stuck = true;
  else if (scroller.scrollTop < lastTop) stuck = false;
  lastTop = scroller.scrollTop;
  if (stuck && !atBottom) toBottom();
});
// the content's size (the log and the welcome above it) and the scroller's own (the composer
// growing, the window resized)
const sizes = new ResizeObserver(toBottom);
for (const el of [list, welcome, scroller]) sizes.observe(el);
toBottom();
// a view's `ui/message`: shown as the app's, sent to the model as a block that says whose it is
window.addEventListener('mcp-app-message', (e) => {
  const text = appMessageText(e.detail.content);
  if (!text) return e.preventDefault();
  const from = hub.servers.get(e.detail.serverId)?.name ?? 'an app';
  convo.messages.push(appMessage(text, from));
  add({ kind: 'app', text, from });
});
showWelcome();

// ---- model settings ---------------------------------------------------------------------------
const form = document.querySelector<HTMLFormElement>('#model-form')!;
const saved = JSON.parse(localStorage.getItem('mcp-demo-model') ?? '{}') as Partial<OpenAISettings & { kind: string }>;
(form.elements.namedItem('baseUrl') as HTMLInputElement).value = saved.baseUrl ?? '';
(form.elements.namedItem('model') as HTMLInputElement).value = saved.model ?? '';
// the key stays in this tab's session only
(form.elements.namedItem('apiKey') as HTMLInputElement).value = sessionStorage.getItem('mcp-demo-key') ?? '';
for (const r of form.querySelectorAll<HTMLInputElement>('input[name=kind]'))
  r.checked = r.value === (saved.kind ?? 'demo');
form.addEventListener('input', () => {
  const f = new FormData(form);
  localStorage.setItem(
    'mcp-demo-model',
    JSON.stringify({ kind: f.get('kind'), baseUrl: f.get('baseUrl'), model: f.get('model') }),
  );
  sessionStorage.setItem('mcp-demo-key', String(f.get('apiKey') ?? ''));
});
function settings() {
  const f = new FormData(form);
  return {
    kind: String(f.get('kind')),
    baseUrl: String(f.get('baseUrl') ?? ''),
    model: String(f.get('model') ?? ''),
    apiKey: String(f.get('apiKey') ?? ''),
  };
}

// ---- the loop ---------------------------------------------------------------------------------
const status = document.querySelector('#model-status')!;
const send = document.querySelector<HTMLButtonElement>('#send')!;
async function complete(messages: ChatMessage[], tools: unknown[], signal: AbortSignal): Promise<ChatMessage> {
  const s = settings();
  if (s.kind !== 'openai') return demoComplete(messages, tools as never);
  // what MCP App views asked to add to the model's context (hub.modelContext()): a delimited
  // user-role block before the conversation, never a system message
  const context = appContextMessage(hub.modelContext());
  if (context) messages = [context, ...messages];
  let bubble: HTMLElement | undefined;
  const reply = await openaiComplete(
    s,
    messages,
    tools,
    (text) => {
      bubble ??= renderItem({ kind: 'assistant', text: '' });
      if (!bubble.isConnected) list.append(bubble);
      bubble.textContent = text;
    },
    signal,
  );
  bubble?.remove(); // re-added below as a saved item
  return reply;
}

// One turn at a time: while one runs, the composer does not send (a user message between a tool
// call and its result is an order real providers reject) and its button is Stop.
let running: AbortController | undefined;
const setRunning = (on: AbortController | undefined) => {
  running = on;
  send.classList.toggle('stop', !!on);
  send.setAttribute('aria-label', on ? 'Stop' : 'Send');
  send.querySelector('span')!.textContent = on ? '■' : '↑';
};

// While a turn's tool calls are under way the status line says what they wait for: the user
// (any call awaiting approval) or the server (one running). The calls are the reply's provider
// call ids; the newest record of each counts (a "Run again" makes a new one).
const CALL_EVENTS = [
  'mcp-tool-call-awaiting-approval',
  'mcp-tool-call-started',
  'mcp-tool-call-completed',
  'mcp-tool-call-failed',
  'mcp-tool-call-cancelled',
  'mcp-tool-call-denied',
] as const;
function followCalls(reply: ChatMessage): () => void {
  const ids = new Set(reply.tool_calls?.map((c) => c.id));
  const show = () => {
    const newest = new Map<string, string>();
    for (const r of hub.calls.list({ assistantId: ASSISTANT }))
      if (r.providerCallId && ids.has(r.providerCallId) && !newest.has(r.providerCallId))
        newest.set(r.providerCallId, r.status);
    const now = [...newest.values()];
    status.textContent = now.includes('awaiting-approval')
      ? 'Waiting for your approval…'
      : now.includes('running')
        ? 'Running tools…'
        : '';
  };
  for (const type of CALL_EVENTS) window.addEventListener(type, show);
  show();
  return () => {
    for (const type of CALL_EVENTS) window.removeEventListener(type, show);
  };
}

/** Run every tool call of `reply` (`resume`: one from before a reload, not run twice); false when stopped. */
async function runCalls(reply: ChatMessage, stop: AbortController, resume = false): Promise<boolean> {
  const unfollow = followCalls(reply);
  try {
    // each call appears in the conversation as a card (approval included) as soon as it exists
    const { messages } = await hub.runToolCalls('openai', reply, {
      assistantId: ASSISTANT,
      unknownTools: 'error',
      signal: stop.signal,
      resume,
      onCall: (call) => add({ kind: 'call', callId: call.id }),
    });
    // answered even when stopped (cancelled calls say so), so the next request is well-formed
    convo.messages.push(...(messages as ChatMessage[]));
    save();
  } finally {
    unfollow();
  }
  return !stop.signal.aborted;
}

/**
 * "Run again" on an interrupted call (of a turn a reload cut off): once the new call is over, the
 * model reads its result as it would have read the first one's. The result takes the interrupted
 * answer's place when nothing followed it; when the conversation went on since, it comes after, as
 * a call of its own (an assistant message naming it, then its result). False when stopped.
 */
async function answerRerun(providerCallId: string, stop: AbortController): Promise<boolean> {
  const call = convo.messages.flatMap((m) => m.tool_calls ?? []).find((c) => c.id === providerCallId);
  if (!call) return false;
  const reply: ChatMessage = { role: 'assistant', content: null, tool_calls: [call] };
  const unfollow = followCalls(reply);
  let answer: ChatMessage | undefined;
  try {
    // `resume`: the run-again call already exists (the newest with this provider call id); this
    // waits for it and answers from its record, running nothing
    const { messages } = await hub.runToolCalls('openai', reply, {
      assistantId: ASSISTANT,
      signal: stop.signal,
      resume: true,
    });
    answer = (messages as ChatMessage[])[0];
  } finally {
    unfollow();
  }
  if (!answer) return false;
  const at = convo.messages.findIndex((m) => m.role === 'tool' && m.tool_call_id === providerCallId);
  if (at >= 0 && convo.messages.slice(at).every((m) => m.role === 'tool')) convo.messages[at] = answer;
  else {
    const id = `${call.id}_again_${Date.now().toString(36)}`;
    convo.messages.push(
      { role: 'assistant', content: null, tool_calls: [{ ...call, id }] },
      { ...answer, tool_call_id: id },
    );
  }
  save();
  return !stop.signal.aborted;
}

// Turns run one after another: a "Run again" clicked during a turn goes on once that turn is over.
let turns: Promise<void> = Promise.resolve();
/** A turn; `first` runs before the model is asked (tool calls from before a reload, a run-again). */
function turn(first?: (stop: AbortController) => Promise<boolean>): Promise<void> {
  const next = turns.then(() => runTurn(first));
  turns = next.catch(() => {});
  return next;
}

async function runTurn(first?: (stop: AbortController) => Promise<boolean>) {
  const stop = new AbortController();
  setRunning(stop);
  try {
    if (first && !(await first(stop))) throw new Error('Stopped.');
    // backend mode (?backend=, demo/backend-mode.ts): the whole turn runs in the backend
    const backend = backendUrl();
    if (backend) {
      status.textContent = 'Asking the backend…';
      const reply = await runOnBackend(backend, hub, ASSISTANT, convo.messages, stop.signal, {
        onTool: (name) => add({ kind: 'assistant', text: `The backend called ${name}.` }),
      });
      convo.messages.push(reply);
      add({ kind: 'assistant', text: reply.content ?? '' });
      return;
    }
    for (let step = 0; step < MAX_STEPS; step++) {
      status.textContent = 'Thinking…';
      const tools = hub.toolsFor('openai', { assistantId: ASSISTANT });
      const reply = await complete(convo.messages, tools, stop.signal);
      if (stop.signal.aborted) break;
      convo.messages.push(reply);
      if (reply.content) add({ kind: 'assistant', text: reply.content });
      save();
      if (!reply.tool_calls?.length) return;
      if (!(await runCalls(reply, stop))) break;
    }
    add({ kind: 'error', text: stop.signal.aborted ? 'Stopped.' : `Stopped after ${MAX_STEPS} steps.` });
  } catch (e) {
    add({ kind: 'error', text: stop.signal.aborted ? 'Stopped.' : String((e as Error)?.message ?? e) });
  } finally {
    status.textContent = '';
    setRunning(undefined);
  }
}

const box = document.querySelector<HTMLTextAreaElement>('#prompt')!;
// the box grows with what is typed, up to its CSS max-height
const fit = () => {
  box.style.height = 'auto';
  box.style.height = `${box.scrollHeight}px`;
};
box.addEventListener('input', fit);
// while a turn runs the button is Stop: it stops the turn instead of sending
send.addEventListener('click', (e) => {
  if (!running) return;
  e.preventDefault();
  running.abort();
});
document.querySelector('#composer')!.addEventListener('submit', (e) => {
  e.preventDefault();
  // Enter while a turn runs keeps the text for when it is over
  if (running) return;
  const text = box.value.trim();
  if (!text) return;
  box.value = '';
  fit();
  convo.messages.push({ role: 'user', content: text });
  add({ kind: 'user', text });
  void turn();
});
for (const chip of document.querySelectorAll<HTMLButtonElement>('[data-prompt]'))
  chip.addEventListener('click', () => {
    if (running) return;
    box.value = chip.dataset.prompt!;
    (document.querySelector('#composer') as HTMLFormElement).requestSubmit();
  });
box.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && !e.shiftKey) {
    e.preventDefault();
    (document.querySelector('#composer') as HTMLFormElement).requestSubmit();
  }
});
// a suggestion or message from before this module was ready (demo/early.ts)
{
  const early = window.demoEarly?.take();
  if (early) {
    box.value = early;
    (document.querySelector('#composer') as HTMLFormElement).requestSubmit();
  }
}
// the turn a reload cut off while a call waited for approval goes on from that call
if (resumeReply) void turn((stop) => runCalls(resumeReply, stop, true));
// "Run again" on a card starts a new call: the conversation keeps the card on it, and the turn
// goes on from its result (answerRerun)
window.addEventListener('mcp-tool-call-request', (e) => {
  const { id, rerunOf, providerCallId, assistantId } = e.detail.call;
  const item = rerunOf && convo.items.find((i) => i.kind === 'call' && i.callId === rerunOf);
  if (!item || item.kind !== 'call') return;
  item.callId = id;
  save();
  const asked = convo.messages.some((m) => m.tool_calls?.some((c) => c.id === providerCallId));
  if (providerCallId && assistantId === ASSISTANT && asked) void turn((stop) => answerRerun(providerCallId, stop));
});
document.querySelector('#new-chat')!.addEventListener('click', () => {
  convo = { messages: [], items: [] };
  save();
  list.replaceChildren();
  showWelcome();
});
const toggle = document.querySelector<HTMLButtonElement>('#open-settings')!;
const panel = document.querySelector<HTMLDialogElement>('#settings')!;
// Settings is a <dialog>: a modal sheet on narrow screens (the page behind is inert, Escape
// closes), a non-modal column beside the conversation on wide ones. Either way focus moves in
// when it opens, Escape closes it, and focus goes back to the Settings button.
const narrow = matchMedia('(max-width: 62rem)');
const showSettings = (open: boolean) => {
  if (open && !panel.open) {
    if (narrow.matches) panel.showModal();
    else panel.show();
    // the dialog's own focusing steps pick the first control; say where on purpose
    document.querySelector<HTMLButtonElement>('#close-settings')!.focus();
  } else if (!open && panel.open) panel.close();
  toggle.setAttribute('aria-expanded', String(open));
  document.querySelector('main')!.classList.toggle('with-settings', open);
  localStorage.setItem('mcp-demo-settings-open', open ? '1' : '');
};
panel.addEventListener('close', () => {
  // closed and opened again (the breakpoint handler below): nothing to do
  if (panel.open) return;
  showSettings(false);
  // back where the user was (unless they already moved on to something else)
  if (!document.activeElement || document.activeElement === document.body || panel.contains(document.activeElement))
    toggle.focus();
});
// non-modal dialogs get no Escape from the browser: the same key closes both kinds
panel.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && !e.defaultPrevented && !panel.matches(':modal')) panel.close();
});
toggle.addEventListener('click', () => showSettings(!panel.open));
document.querySelector('#close-settings')!.addEventListener('click', () => panel.close());
// crossing the breakpoint with Settings open: reopen in the other kind
narrow.addEventListener('change', () => {
  if (!panel.open) return;
  panel.close();
  showSettings(true);
});
if (localStorage.getItem('mcp-demo-settings-open') === '1') showSettings(true);

// ---- theme: the system's, or light or dark; the elements follow through the --mcp-* tokens ------
const THEMES = ['auto', 'light', 'dark'] as const;
const themeButton = document.querySelector<HTMLButtonElement>('#theme')!;
const setTheme = (theme: (typeof THEMES)[number]) => {
  if (theme === 'auto') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
  // "Theme: " is shown on wide screens only (demo.css): the header fits a phone
  themeButton.querySelector('.theme-name')!.textContent = `${theme[0].toUpperCase()}${theme.slice(1)}`;
  themeButton.setAttribute(
    'aria-label',
    theme === 'auto' ? 'Colour theme: follow the system' : `Colour theme: ${theme}`,
  );
  localStorage.setItem('mcp-demo-theme', theme);
};
themeButton.addEventListener('click', () => {
  const now = THEMES.indexOf((document.documentElement.dataset.theme as 'light' | 'dark') ?? 'auto');
  setTheme(THEMES[(now + 1) % THEMES.length]);
});
setTheme(
  (THEMES as readonly string[]).includes(localStorage.getItem('mcp-demo-theme') ?? '')
    ? (localStorage.getItem('mcp-demo-theme') as (typeof THEMES)[number])
    : 'auto',
);
