/**
 * Real time plus jumps: time flows (waits and timeouts still end), and a test
 * can leap past a lease or a retention period at once.
 */
export class FakeClock {
  #offsetMs = 0;
  now = () => new Date(Date.now() + this.#offsetMs);
  advance(ms: number) {
    this.#offsetMs += ms;
  }
}
