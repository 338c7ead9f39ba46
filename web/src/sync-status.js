// The events and status of a TableSync.
//
//   sync.on("status", ({ online, syncing, pending, lastSync, error, pull }) => …)
//     pending: the local changes waiting for the push, exact after every write (watchPending)
//     error: { code, statusCode, message, remoteLost } of the last run that failed, else null
//     pull: "changes" (Tabletop's change feed) or "timestamp" (the fallback), once known
//   sync.on("conflict", ({ partitionKey, rowKey, local, remote, code, resolution }) => …)
//   sync.on("progress", ({ phase, pushed, pulled, conflicts }) => …)
//   sync.on("error", (error) => …)            // error.code: the Azure code, or "NetworkError";
//                                               // error.remoteLost: stopped (see sync-lost.js)

import { callEach } from "./events.js";

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
    callEach(this._on.get(event) ?? [], value);
  }

  /** _status merges a change into the status and emits it. */
  _status(change) {
    this.status = { ...this.status, ...change };
    this.emit("status", this.status);
  }
}

/**
 * watchPending keeps sync.status.pending exact: the count of queued changes is read again
 * after every commit that touches the table or changes no entity (an acknowledged push).
 * It returns the unsubscribe function.
 */
export function watchPending(sync, store) {
  const table = sync.client.tableName.toLowerCase();
  return store._subscribe((commit) => {
    if (commit.changes.length === 0 || commit.changes.some((c) => c.table?.toLowerCase() === table)) countPending(sync, store);
  });
}

/**
 * countPending sets sync.status.pending from the count the engine holds now (a commit
 * being reported is durable), or, when the engine must load its key range first, once it
 * has. A table no longer tracked has no count.
 */
export function countPending(sync, store) {
  const set = (json) => {
    const n = JSON.parse(json).pending;
    if (n !== sync.status.pending) sync._status({ pending: n });
  };
  let json;
  try {
    json = store._exec("syncState", [sync.client.tableName]).json;
  } catch {
    Promise.resolve(store._read("syncState", sync.client.tableName)).then(set, () => {});
    return;
  }
  set(json);
}
