// Change events: what a table's observers see of every committed, durable change, from
// this tab and (through Store._subscribe, which every tab's commits reach) from others.
//
//   client.on("change", (change) => …); client.off("change", fn);
//   for await (const change of client.changes({ filter })) …   // break or signal to stop
//
// A change is { table, kind, partitionKey?, rowKey?, etag?, remote }: kind as the commit
// hook names it ("create", "upsertMerge", …, "delete", or "createTable", "deleteTable",
// "import", "setAccessPolicy" with no keys, or "reset" when this tab missed other tabs'
// commits and reloaded its copy of the store whole: re-read what you show); remote is true for a change a sync pull
// brought. It is delivered after it is durable, in commit order.
//
// filter narrows the changes: a function of the change, or an OData filter text that the
// entity must match after the change. A deletion and a change without keys are always
// delivered to a filtered observer: the entity that is gone cannot be tested.

import { pageAnswer } from "./values.js";

/** tableChanges returns the changes of a commit that concern table (compared as Azure does, ignoring case). */
export function tableChanges(commit, table) {
  const id = table.toLowerCase();
  if (commit.reset) return [{ table, kind: "reset", remote: false }];
  return commit.changes.filter((c) => c.table?.toLowerCase() === id).map((c) => ({ remote: false, ...c, table }));
}

/**
 * matcher returns a function telling whether a change passes filter (a function, an OData
 * text, or nothing), reading the entity's current state from the store for a text.
 */
export function matcher(store, table, filter) {
  if (!filter) return () => true;
  if (typeof filter === "function") return filter;
  if (typeof filter !== "string") throw new TypeError("tabletop: a change filter is a function or an OData filter text");
  return (c) => c.kind === "delete" || c.partitionKey === undefined || matchesNow(store, table, c.partitionKey, c.rowKey, filter);
}

/** matchesNow reports whether entity (pk, rk) exists and matches an OData filter now. */
export function matchesNow(store, table, pk, rk, filter) {
  const key = `PartitionKey eq ${quote(pk)} and RowKey eq ${quote(rk)}`;
  try {
    const { json } = store._exec("queryEntities", [table, `(${key}) and (${filter})`, "PartitionKey", "1", "", ""], pageAnswer());
    return json.entities.length > 0;
  } catch {
    return true; // a table gone or a filter the engine refuses: let the observer look
  }
}

/**
 * callEach calls each listener with value, in order; one that throws stops no other: its
 * exception is thrown again in a microtask, where the page reports it as uncaught.
 */
export function callEach(listeners, value) {
  for (const fn of listeners) {
    try {
      fn(value);
    } catch (e) {
      queueMicrotask(() => {
        throw e;
      });
    }
  }
}

function quote(s) {
  return `'${String(s).replaceAll("'", "''")}'`;
}

/**
 * observe calls fn with each change of table in store that passes filter; it returns the
 * function that stops it.
 */
export function observe(store, table, fn, filter) {
  const pass = matcher(store, table, filter);
  return store._subscribe((commit) => {
    for (const c of tableChanges(commit, table)) if (pass(c)) fn(c);
  });
}

/**
 * changeIterator returns an async iterable iterator of table's changes in store (a Store
 * or a Promise of one) from now on. It stops when the loop ends (return), or when
 * options.abortSignal aborts (the loop then ends normally).
 */
export function changeIterator(storePromise, table, options = {}) {
  const queue = [];
  let wake = null;
  let done = false;
  let stop = () => {};
  const ready = whenOpen(storePromise, (store) => {
    if (!done) stop = observe(store, table, (c) => (queue.push(c), wake?.()), options.filter);
  });
  const finish = () => {
    done = true;
    stop();
    wake?.();
  };
  options.abortSignal?.addEventListener?.("abort", finish, { once: true });
  if (options.abortSignal?.aborted) finish();
  return {
    async next() {
      await ready;
      while (queue.length === 0 && !done) await new Promise((r) => (wake = r));
      wake = null;
      if (queue.length > 0) return { value: queue.shift(), done: false };
      return { value: undefined, done: true };
    },
    async return() {
      finish();
      queue.length = 0;
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

/**
 * whenOpen calls fn with the store now if it is open (so that no change after this call
 * is missed), else once it is; it returns a Promise of fn's result.
 */
function whenOpen(storeOrPromise, fn) {
  if (typeof storeOrPromise?.then !== "function") return Promise.resolve(fn(storeOrPromise));
  return storeOrPromise.then(fn);
}

/** Listeners keeps a client's on("change") listeners and their unsubscribe functions. */
export class Listeners {
  constructor() {
    this._stops = new Map(); // fn → Promise<stop function>
  }

  /** add starts delivering table's changes in store (a Store or a Promise of one) to fn. */
  add(storePromise, table, event, fn, options) {
    if (event !== "change") throw new TypeError(`tabletop: unknown event ${event}; tables emit "change"`);
    if (typeof fn !== "function") throw new TypeError("tabletop: a listener must be a function");
    if (this._stops.has(fn)) return;
    this._stops.set(fn, whenOpen(storePromise, (store) => observe(store, table, fn, options?.filter)));
  }

  /** remove stops delivering to fn. */
  remove(event, fn) {
    const stop = this._stops.get(fn);
    this._stops.delete(fn);
    stop?.then((s) => s());
  }
}
