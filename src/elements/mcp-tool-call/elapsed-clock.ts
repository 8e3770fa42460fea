// The card's clock: redraws it once a second while the time since the call started is shown, and
// never after the card leaves the page. A controller that owns its timer.
import type { ReactiveController, ReactiveControllerHost } from 'lit';

export class ElapsedClock implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  #tick?: ReturnType<typeof setInterval>;

  constructor(host: ReactiveControllerHost) {
    this.#host = host;
    host.addController(this);
  }

  /** Tick (redraw the card each second) or stop. */
  run(on: boolean) {
    if (on && !this.#tick) this.#tick = setInterval(() => this.#host.requestUpdate(), 1000);
    else if (!on && this.#tick) {
      clearInterval(this.#tick);
      this.#tick = undefined;
    }
  }

  hostDisconnected() {
    this.run(false);
  }
}
