// Reading an event stream for the answers it carries (body-watch.ts): which request ids were
// answered before the stream ended, and whether it can be resumed (it carried event ids).

/**
 * The answers in an event stream, read as the SDK's parser reads it: the text decoded as it
 * passes (a character cut between chunks waits for its rest; a leading BOM is dropped), split
 * into lines (at CRLF, LF or a lone CR), an event's `data:` lines joined and parsed when the
 * event ends (its blank line), only events of type `message`. The work is builtins' (decode, a
 * regex split, startsWith, one JSON.parse per answer): it runs once per call, between network waits.
 */
export class AnswerScan {
  readonly answered = new Set<string>();
  resumable = false;
  readonly #decoder = new TextDecoder();
  /** The unfinished last line, in pieces (a long line is searched once, not once per chunk). */
  #partial: string[] = [];
  /** The current event: its data lines, and whether its type is `message` (the default). */
  #data: string[] = [];
  #message = true;
  /** The last chunk ended with a CR: an LF first in the next one belongs to it. */
  #afterCR = false;

  see(chunk: Uint8Array) {
    let text = this.#decoder.decode(chunk, { stream: true });
    // the LF of a CRLF whose CR ended the last chunk: that line has ended already
    if (this.#afterCR && text.charCodeAt(0) === LF) text = text.slice(1);
    // a line ends at CRLF, LF or a lone CR, as the SDK's parser reads it
    const eol = text.includes('\r') ? ANY_EOL : LF_EOL;
    eol.lastIndex = 0;
    let start = 0;
    for (let m = eol.exec(text); m; m = eol.exec(text)) {
      let line = text.slice(start, m.index);
      if (this.#partial.length) {
        this.#partial.push(line);
        line = this.#partial.join('');
        this.#partial = [];
      }
      this.#line(line);
      start = eol.lastIndex;
    }
    this.#afterCR = start === text.length && text.charCodeAt(start - 1) === CR;
    if (start < text.length) this.#partial.push(start ? text.slice(start) : text);
  }

  #line(line: string) {
    if (!line) this.#dispatch();
    else if (line.startsWith('data:')) this.#data.push(valueOf(line, 5));
    else if (line.startsWith('id:')) this.resumable = true;
    else if (line.startsWith('event:')) {
      const type = valueOf(line, 6);
      this.#message = !type || type === 'message';
    }
  }

  #dispatch() {
    const data = this.#data;
    const message = this.#message;
    this.#data = [];
    this.#message = true;
    if (!data.length || !message) return;
    const text = data.length === 1 ? data[0]! : data.join('\n');
    // an event without data is no message (a 2025 server's priming event: an id, `data:` empty);
    // the SDK skips it too. Parsing it threw, a cost on every call (decision 037)
    if (!text) return;
    try {
      const m = JSON.parse(text) as { id?: unknown; result?: unknown; error?: unknown };
      if (m && ('result' in m || 'error' in m)) this.answered.add(String(m.id));
    } catch {
      // an event that is not one JSON message: not an answer
    }
  }
}
const LF = 10;
const CR = 13;
const LF_EOL = /\n/g;
const ANY_EOL = /\r\n|\r|\n/g;
/** A field's value: after its colon (at `at`), without one leading space. */
const valueOf = (line: string, at: number) => line.slice(line.charCodeAt(at) === 32 ? at + 1 : at);
