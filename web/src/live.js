// liveQuery: a query that answers again whenever a change could alter its answer, as
// Dexie's liveQuery does.
//
//   const people = liveQuery(() => client.listEntities({ queryOptions: { filter } }));
//   const sub = people.subscribe({ next: (list) => render(list), error: (e) => … });
//   sub.unsubscribe();
//
// The querier returns a Promise (of anything) or an async iterable (collected into an
// array). While it runs, every read a TableClient makes registers what it read: the
// entity keys it answered and the filters of its queries. A later change re-runs the
// querier when it touches one of those keys, when the changed entity matches one of those
// filters (a query over the table), or when it names no keys (a table created, deleted
// or imported). Reads made while several live queries run are registered with each of
// them: a query may re-run needlessly, never miss a change. Changes arriving while it runs
// re-run it once more afterwards. The observable is RxJS-compatible
// (Symbol.observable / "@@observable", subscribe(observer | next, error, complete)).

import { tableChanges, matchesNow } from "./events.js";

const running = new Set(); // the reads of live queries whose querier is running

/** reading reports whether a live query's querier is running, so that reads need note nothing. */
export function reading() {
  return running.size > 0;
}

/**
 * noteRead registers a read of table in store with every running live query: keys
 * ([[pk, rk]…]) it answered, and filter when it was a query ("" for the whole table).
 */
export function noteRead(store, table, keys, filter) {
  for (const reads of running) reads.note(store, table, keys, filter);
}

/** Reads is what one run of a querier read. */
class Reads {
  /** onStore is called with each store read for the first time, as it is read. */
  constructor(onStore) {
    this.stores = new Map(); // store → Map(table id → { keys: Set, filters: Set })
    this._onStore = onStore;
  }

  note(store, table, keys, filter) {
    let tables = this.stores.get(store);
    if (!tables) this.stores.set(store, (tables = new Map())), this._onStore(store);
    const id = table.toLowerCase();
    let t = tables.get(id);
    if (!t) tables.set(id, (t = { table, keys: new Set(), filters: new Set() }));
    for (const [pk, rk] of keys) t.keys.add(keyOf(pk, rk));
    if (filter !== undefined) t.filters.add(filter);
  }

  /** affected reports whether a commit to store could change what was read. */
  affected(store, commit) {
    const tables = this.stores.get(store);
    if (!tables) return false;
    if (commit.reset) return true; // this tab missed commits and reloaded its copy: re-run
    for (const t of tables.values()) {
      for (const c of tableChanges(commit, t.table)) {
        if (c.partitionKey === undefined || t.keys.has(keyOf(c.partitionKey, c.rowKey))) return true;
        if (c.kind === "delete") continue; // a deleted key that was not answered was not in any result
        for (const f of t.filters) if (f === "" || matchesNow(store, t.table, c.partitionKey, c.rowKey, f)) return true;
      }
    }
    return false;
  }
}

function keyOf(pk, rk) {
  return `${pk.length}:${pk}${rk}`;
}

/** liveQuery returns an observable of querier's answers (see the top of this file). */
export function liveQuery(querier) {
  if (typeof querier !== "function") throw new TypeError("tabletop: liveQuery takes a function that runs the query");
  const observable = {
    subscribe(observerOrNext, error, complete) {
      const observer = typeof observerOrNext === "function" ? { next: observerOrNext, error, complete } : observerOrNext ?? {};
      return new LiveSubscription(querier, observer);
    },
  };
  observable[observableSymbol] = () => observable;
  observable["@@observable"] = () => observable;
  return observable;
}

const observableSymbol = (typeof Symbol === "function" && Symbol.observable) || "@@observable";

/** LiveSubscription runs a querier, watches the stores it read, and runs it again. */
class LiveSubscription {
  constructor(querier, observer) {
    this._querier = querier;
    this._observer = observer;
    this.closed = false;
    this._stops = new Map(); // store → unsubscribe
    this._reads = null;
    this._running = false;
    this._dirty = false;
    this._run();
  }

  async _run() {
    if (this._running) return void (this._dirty = true);
    this._running = true;
    do {
      this._dirty = false;
      const reads = new Reads((store) => this._watchStore(store));
      running.add(reads);
      let value, failed, error;
      try {
        value = await collect(this._querier());
      } catch (e) {
        (failed = true), (error = e);
      } finally {
        running.delete(reads);
      }
      if (this.closed) return;
      this._watch(reads);
      if (this._dirty) continue; // a change arrived meanwhile: this answer may be stale
      if (failed) this._observer.error?.(error);
      else this._observer.next?.(value);
    } while (this._dirty && !this.closed);
    this._running = false;
  }

  /** _watch keeps what a run read, for the commits after it. */
  _watch(reads) {
    this._reads = reads;
  }

  /** _watchStore subscribes to a store's commits, from the moment the query first reads it. */
  _watchStore(store) {
    if (this.closed || this._stops.has(store)) return;
    this._stops.set(store, store._subscribe((commit) => this._commit(store, commit)));
  }

  _commit(store, commit) {
    if (this.closed) return;
    if (this._running) {
      // The run in flight registers its reads only when it ends: assume the worst.
      this._dirty = true;
      return;
    }
    if (this._reads?.affected(store, commit)) this._run();
  }

  unsubscribe() {
    this.closed = true;
    for (const stop of this._stops.values()) stop();
    this._stops.clear();
  }
}

/** collect resolves v: a Promise's value, an async iterable's items as an array. */
async function collect(v) {
  v = await v;
  if (v && typeof v[Symbol.asyncIterator] === "function") {
    const out = [];
    for await (const x of v) out.push(x);
    return out;
  }
  return v;
}
