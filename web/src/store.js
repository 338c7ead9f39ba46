// Stores: one engine store per database name, persistent in IndexedDB or in memory.
//
// Durability. The engine applies a write at once, in memory, and hands back the records
// that make it durable; the Store commits them to IndexedDB (idb.js) and only then
// resolves the write. Writes that arrive while a commit is in flight are grouped into the
// next commits, of up to GROUP_BYTES each, so that acknowledgements keep flowing. A read runs at once too, but if a write it may see is not durable yet its
// answer waits until it is; if that commit fails, every write not yet durable fails, the
// engine's store is reopened from IndexedDB, and the read runs again. So no caller ever
// sees data that could still be lost.
//
// The commit hook. Every committed, durable change passes through Store._subscribe
// listeners, in commit order, after it is durable and before its write resolves:
//
//   const unsubscribe = store._subscribe((commit) => { … });
//   commit.changes: [{ table, kind, partitionKey?, rowKey?, etag? }, …]
//     kind: "create" | "upsertMerge" | "upsertReplace" | "updateMerge" | "updateReplace" |
//           "delete" (entities), "createTable" | "deleteTable" | "setAccessPolicy" |
//           "import" (then the change names no keys: the tables it touched changed)
//   commit.records: the engine's records as stored ([{ kind, data }]), [] in memory
//
// It is internal: live queries and sync are built on it.

import { loadEngine } from "./engine.js";
import { fromEngine } from "./errors.js";
import { openIDBStorage, deleteIDBStorage } from "./idb.js";

const open = new Map(); // name → Promise<Store>, for clients constructed from a name

/** GROUP_BYTES bounds the records of one IndexedDB commit (one write may exceed it alone). */
const GROUP_BYTES = 1 << 20;

/** Store is an open database: its tables and entities. Get one from openStore. */
export class Store {
  /** @internal */
  constructor(name, engine, handle, storage) {
    this.name = name;
    this.inMemory = !storage;
    this._engine = engine;
    this._handle = String(handle);
    this._storage = storage;
    this._listeners = new Set();
    this._groups = []; // writes waiting for IndexedDB, in commit order; the first may be committing
    this._flushing = false;
    this._reopening = null; // a Promise while the engine's store is reopened after a failure
    this._compactError = undefined;
  }

  /** _exec runs one engine operation now, mapping a failure to RestError. */
  _exec(op, args) {
    try {
      return this._engine.call([op, this._handle, ...args]);
    } catch (e) {
      throw fromEngine(e);
    }
  }

  /**
   * _read runs a read and returns its JSON answer: at once (a string) when no write it may
   * see is still waiting for IndexedDB, else a Promise of it that settles once they are
   * durable (and runs the read again if they failed).
   */
  _read(op, ...args) {
    if (this._reopening) return this._reopening.then(() => this._read(op, ...args));
    const { json } = this._exec(op, args);
    const pending = this._groups.at(-1);
    if (!pending) return json;
    return pending.done.then((ok) => (ok ? json : this._read(op, ...args)));
  }

  /**
   * _write runs a write and resolves with its JSON answer once it is durable. describe
   * maps the answer to the changes the commit hook reports.
   */
  async _write(op, args, describe) {
    if (this._reopening) await this._reopening;
    const { json, records } = this._exec(op, args);
    const commit = { changes: describe(json), records };
    if (this.inMemory) {
      this._emit(commit);
      return json;
    }
    let group = this._groups.at(-1);
    if (records.length === 0) {
      if (group && !(await group.done)) throw group.error;
      this._emit(commit);
      return json;
    }
    if (!group || group.started || group.bytes >= GROUP_BYTES) this._groups.push((group = newGroup()));
    for (const r of records) group.records.push(r), (group.bytes += r.data.length);
    group.commits.push(commit);
    if (!this._flushing) this._flush();
    if (!(await group.done)) throw group.error;
    return json;
  }

  /** _flush commits the waiting groups in order until none is left. */
  async _flush() {
    this._flushing = true;
    while (this._groups.length > 0) {
      const group = this._groups[0];
      group.started = true;
      try {
        const shrinking = group.commits.every((c) => c.changes.every((ch) => ch.kind === "delete" || ch.kind === "deleteTable"));
        const { compactError } = await this._storage.commit(group.records, shrinking);
        this._compactError = group.compactError = compactError;
        this._groups.shift();
        for (const c of group.commits) this._emit(c);
        group.resolve(true);
      } catch (e) {
        await this._fail(e);
      }
    }
    this._flushing = false;
  }

  /**
   * _fail fails every group waiting (the engine has applied their writes after the one
   * that failed, so none can be kept), and reopens the engine's store from what
   * IndexedDB holds.
   */
  async _fail(error) {
    const failed = this._groups;
    this._groups = [];
    this._failure = error;
    this._reopening = this._reopen().finally(() => (this._reopening = null));
    await this._reopening.catch(() => {});
    for (const g of failed) (g.error = error), g.resolve(false);
  }

  /** _reopen replaces the engine's store by one loaded from IndexedDB. */
  async _reopen() {
    const { snapshot, changeSets } = await this._storage.load();
    try {
      this._engine.call(["close", this._handle]);
    } catch {
      // already closed
    }
    this._handle = openEngineStore(this._engine, snapshot, changeSets);
  }

  _emit(commit) {
    for (const fn of this._listeners) {
      try {
        fn(commit);
      } catch (e) {
        queueMicrotask(() => {
          throw e;
        });
      }
    }
  }

  /** _subscribe adds a commit listener (see the top of this file); it returns the unsubscribe function. */
  _subscribe(fn) {
    this._listeners.add(fn);
    return () => this._listeners.delete(fn);
  }

  /** _serviceProperties returns the service properties: kept beside the store, or the defaults. */
  async _serviceProperties() {
    this._props ??= (await this._storage?.getMeta("serviceProperties")) ?? defaultProperties();
    return structuredClone(this._props);
  }

  /** _setServiceProperties replaces the service properties that properties sets. */
  async _setServiceProperties(properties = {}) {
    const next = { ...(await this._serviceProperties()) };
    for (const k of ["logging", "hourMetrics", "minuteMetrics", "cors"]) if (properties[k] !== undefined) next[k] = structuredClone(properties[k]);
    await this._storage?.putMeta("serviceProperties", next);
    this._props = next;
  }

  /** compact writes a snapshot now, replacing the change log (it also happens by itself). */
  async compact() {
    if (this._reopening) await this._reopening;
    const { records } = this._exec("compact", []);
    if (this.inMemory || records.length === 0) return;
    const group = newGroup();
    group.records = records;
    group.bytes = Infinity; // no write joins it: its failure is compact's
    this._groups.push(group);
    if (!this._flushing) this._flush();
    if (!(await group.done)) throw group.error;
    if (group.compactError) throw group.compactError;
  }

  /** close closes the store and, for a persistent one, releases the database for other tabs. */
  async close() {
    this._closed = true;
    for (const [key, entry] of open) if (entry.store === this) open.delete(key);
    await this._groups.at(-1)?.done;
    if (this._reopening) await this._reopening.catch(() => {});
    this._exec("close", []);
    this._storage?.close();
  }
}

function defaultProperties() {
  const off = { enabled: false };
  return {
    logging: { version: "1.0", read: false, write: false, delete: false, retentionPolicy: off },
    hourMetrics: { version: "1.0", enabled: false, retentionPolicy: off },
    minuteMetrics: { version: "1.0", enabled: false, retentionPolicy: off },
    cors: [],
  };
}

function newGroup() {
  const g = { records: [], commits: [], bytes: 0, started: false, error: undefined };
  g.done = new Promise((resolve) => (g.resolve = resolve));
  return g;
}

/** openEngineStore opens a store in the engine on a snapshot and change sets; it returns the handle. */
function openEngineStore(engine, snapshot, changeSets) {
  try {
    return engine.call(["open", "", "outbox", snapshot, ...changeSets]).json;
  } catch (e) {
    throw fromEngine(e);
  }
}

/**
 * openStore opens the store of that name: persistent in IndexedDB unless inMemory is set.
 * A database opened by another tab fails with RestError code "StoreLocked" after
 * lockTimeout ms (lock: "fail", the default), waits (lock: "wait"), or is taken over
 * (lock: "steal"). durability "strict" (default) resolves each write only once the
 * browser has flushed it to disk; "relaxed" once the operating system has it. persist:
 * true asks the browser to keep the origin's storage under pressure
 * (navigator.storage.persist()); store.persisted says whether it agreed.
 * @returns {Promise<Store>}
 */
export async function openStore(name, options = {}) {
  checkName(name);
  const engine = await loadEngine(options);
  if (options.inMemory) return new Store(name, engine, engineOpenMemory(engine));
  const persisted = options.persist ? await persist() : undefined;
  const storage = await openIDBStorage(name, options);
  try {
    const { snapshot, changeSets } = await storage.load();
    const store = new Store(name, engine, openEngineStore(engine, snapshot, changeSets), storage);
    if (persisted !== undefined) store.persisted = persisted;
    return store;
  } catch (e) {
    storage.close();
    throw fromEngine(e);
  }
}

/** persist asks the browser to keep this origin's storage; false where it cannot ask. */
async function persist() {
  try {
    return (await globalThis.navigator?.storage?.persist?.()) ?? false;
  } catch {
    return false;
  }
}

function engineOpenMemory(engine) {
  return engine.call(["open", "", "memory"]).json;
}

/**
 * checkName refuses what cannot be a store name: a connection string or an account URL
 * passed where the SDK would take one.
 */
function checkName(name) {
  if (typeof name !== "string" || name === "") throw new TypeError("tabletop: a store name must be a non-empty string");
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(name) || /(^|;)\s*(AccountKey|AccountName|DefaultEndpointsProtocol|SharedAccessSignature|TableEndpoint|UseDevelopmentStorage)\s*=/i.test(name)) {
    throw new TypeError(`tabletop: "${name.slice(0, 40)}…" looks like a connection string or URL; Tabletop takes a store name (or "memory:name") where the SDK takes those`);
  }
}

/** deleteStore deletes a persistent store's database. Close the store first. */
export function deleteStore(name) {
  checkName(name);
  return deleteIDBStorage(name);
}

/**
 * storeOf resolves what a client was constructed with: a Store as is; a name opens (once)
 * the persistent store of that name; "memory:name" an in-memory one.
 * @returns {Promise<Store>}
 */
export function storeOf(target) {
  if (target instanceof Store) return Promise.resolve(target);
  let entry = open.get(target);
  if (!entry) {
    const inMemory = target.startsWith("memory:");
    const name = inMemory ? target.slice(7) : target;
    const promise = openStore(name, { inMemory });
    entry = { promise };
    promise.then((s) => (entry.store = s), () => open.delete(target));
    open.set(target, entry);
  }
  return entry.promise;
}

/**
 * checkTarget throws, at construction, for what a client cannot be constructed with: not
 * a Store nor a store name, or a connection string or URL where the SDK would take one.
 */
export function checkTarget(target) {
  if (target instanceof Store) return;
  if (typeof target !== "string" || target === "") throw new TypeError("tabletop: a client needs a Store or a store name");
  checkName(target.startsWith("memory:") ? target.slice(7) || "memory" : target);
}

/** closeStores closes every store that clients opened by name. */
export async function closeStores() {
  await Promise.all([...open.values()].map((e) => e.promise.then((s) => s.close(), () => {})));
}
