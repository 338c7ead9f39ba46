// A subscriber socket on a remote table's change feed (the edge's, worker/edge/src/subscribe.mjs):
// the server sends a message when a write the subscriber may see is durable; the client
// then pulls with the ordinary change feed. It carries no data, so a message is only a
// hint: a wake for nothing costs an empty pull.

/** PING_MS is how often an open socket sends a keep-alive ping (the edge answers it without waking the table's object). */
const PING_MS = 30_000;

/**
 * FeedSocket is one subscriber socket: whether it was woken since the sync's last pull
 * began (a wake before it is a change that pull reads), whether it ended.
 */
export class FeedSocket {
  /** @param WebSocket the WebSocket constructor; url the socket's URL (ticket included) */
  constructor(WebSocket, url) {
    this.opened = false;
    this.woken = false;
    this.ended = false;
    this._waiters = new Set();
    const ws = (this._ws = new WebSocket(url));
    ws.onopen = () => {
      this.opened = true;
      this._ping = setInterval(() => ws.readyState === 1 && ws.send("ping"), PING_MS);
      this._ping.unref?.();
      this._notify();
    };
    ws.onmessage = (e) => {
      if (e.data === "pong") return;
      this.woken = true;
      this._notify();
    };
    ws.onclose = ws.onerror = () => this._end();
  }

  /**
   * next resolves with "changed" once the socket is woken (at once if it was since the
   * last pull began) or closes after it opened (the caller pulls, then subscribes again),
   * with "stopped" when signal aborts (the socket stays open); it rejects when the socket
   * ended without opening. A wake stays until the next pull begins (pullBegins): a watch
   * aborted after it resolved leaves it for the watch after.
   */
  next(signal) {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (signal.aborted) return done(() => resolve("stopped"));
        if (this.woken) return done(() => resolve("changed"));
        if (!this.ended) return;
        if (this.opened) return done(() => resolve("changed"));
        done(() => reject(Object.assign(new Error("tabletop sync: the change feed's socket did not open"), { code: "NetworkError", statusCode: 0, socket: true })));
      };
      const done = (settle) => {
        this._waiters.delete(check);
        signal.removeEventListener("abort", check);
        settle();
      };
      this._waiters.add(check);
      signal.addEventListener("abort", check);
      check();
    });
  }

  /** pullBegins tells the socket that a pull begins: it reads every change a wake so far told of. */
  pullBegins() {
    this.woken = false;
  }

  /** close ends the socket. */
  close() {
    try {
      this._ws.close(1000);
    } catch {
      // closed already
    }
    this._end();
  }

  _end() {
    this.ended = true;
    clearInterval(this._ping);
    this._notify();
  }

  _notify() {
    for (const check of [...this._waiters]) check();
  }
}
