// The events and status of a TableSync.
//
//   sync.on("status", ({ online, syncing, pending, lastSync, error, pull }) => …)
//     pull: "changes" (Tabletop's change feed) or "timestamp" (the fallback), once known
//   sync.on("conflict", ({ partitionKey, rowKey, local, remote, code, resolution }) => …)
//   sync.on("progress", ({ phase, pushed, pulled, conflicts }) => …)
//   sync.on("error", (error) => …)            // error.code: the Azure code, or "NetworkError"

/** SyncEmitter keeps listeners by event name and the current status. */
export class SyncEmitter {
  constructor() {
    this._on = new Map();
    this.status = { online: undefined, syncing: false, pending: undefined, lastSync: undefined, error: null };
  }

  /** on adds a listener of event ("status", "conflict", "progress" or "error"). */
  on(event, fn) {
    if (!["status", "conflict", "progress", "error"].includes(event)) throw new TypeError(`tabletop: TableSync has no event ${event}`);
    if (!this._on.has(event)) this._on.set(event, new Set());
    this._on.get(event).add(fn);
    return this;
  }

  /** off removes a listener. */
  off(event, fn) {
    this._on.get(event)?.delete(fn);
    return this;
  }

  /** emit calls event's listeners with value; a listener's failure does not stop the sync. */
  emit(event, value) {
    for (const fn of this._on.get(event) ?? []) {
      try {
        fn(value);
      } catch (e) {
        queueMicrotask(() => {
          throw e;
        });
      }
    }
  }

  /** _status merges a change into the status and emits it. */
  _status(change) {
    this.status = { ...this.status, ...change };
    this.emit("status", this.status);
  }
}
