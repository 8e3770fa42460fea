// Runs before main.ts (it has no imports, main.ts waits for the elements and the hub, ~0.7 s):
// a suggestion clicked or a message sent in that time is kept and handed to main.ts, so the
// page works from its first paint instead of ignoring those clicks (issue 25 item 13).
declare global {
  interface Window {
    /** What the user asked before main.ts was ready; main.ts takes it once. */
    demoEarly?: { take(): string | undefined };
  }
}

let asked: string | undefined;
const composer = document.querySelector<HTMLFormElement>('#composer');
const box = document.querySelector<HTMLTextAreaElement>('#prompt');
const onClick = (e: Event) => {
  const chip = (e.target as Element | null)?.closest?.<HTMLElement>('[data-prompt]');
  if (chip && asked === undefined) asked = chip.dataset.prompt;
};
const onSubmit = (e: Event) => {
  // no native submit (it would reload the page): keep the text for main.ts
  e.preventDefault();
  if (asked === undefined && box?.value.trim()) asked = box.value.trim();
};
document.addEventListener('click', onClick);
composer?.addEventListener('submit', onSubmit);
window.demoEarly = {
  take() {
    document.removeEventListener('click', onClick);
    composer?.removeEventListener('submit', onSubmit);
    const text = asked;
    asked = undefined;
    return text;
  },
};
export {};
