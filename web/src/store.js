// Stores: one engine store per database name, persistent in IndexedDB or in memory.

import { loadEngine } from "./engine.js";
import { fromEngine } from "./errors.js";
import { openIDBStorage, deleteIDBStorage } from "./idb.js";

const open = new Map(); // name → Promise<Store>, for clients constructed from a name

/** Store is an open database: its tables and entities. Get one from openStore. */
export class Store {
  /** @internal */
  constructor(name, engine, handle, storage) {
    this.name = name;
    this.inMemory = !storage;
    this._engine = engine;
    this._handle = handle;
    this._storage = storage;
  }

  /** call runs one engine operation on this store, mapping failures to RestError. */
  async _call(op, ...args) {
    try {
      return await this._engine[op](this._handle, ...args);
    } catch (e) {
      throw fromEngine(e);
    }
  }

  /** compact writes a snapshot now, replacing the change log (it also happens by itself). */
  compact() {
    return this._call("compact");
  }

  /** close closes the store and, for a persistent one, releases the database for other tabs. */
  async close() {
    for (const [key, entry] of open) if (entry.store === this) open.delete(key);
    await this._call("close");
    this._storage?.close();
  }
}

/**
 * openStore opens the store of that name: persistent in IndexedDB unless inMemory is set.
 * A database opened by another tab fails with RestError code "StoreLocked" after
 * lockTimeout ms (lock: "fail", the default), waits (lock: "wait"), or is taken over
 * (lock: "steal"). durability "strict" (default) resolves each write only once the
 * browser has flushed it to disk; "relaxed" once the operating system has it.
 * @returns {Promise<Store>}
 */
export async function openStore(name, options = {}) {
  const engine = await loadEngine(options);
  const storage = options.inMemory ? undefined : await openIDBStorage(name, options);
  try {
    return new Store(name, engine, await engine.open(storage), storage);
  } catch (e) {
    storage?.close();
    throw fromEngine(e);
  }
}

/** deleteStore deletes a persistent store's database. Close the store first. */
export function deleteStore(name) {
  return deleteIDBStorage(name);
}

/**
 * storeOf resolves what a client was constructed with: a Store as is; a name opens (once)
 * the persistent store of that name; "memory:name" an in-memory one.
 * @returns {Promise<Store>}
 */
export function storeOf(target) {
  if (target instanceof Store) return Promise.resolve(target);
  if (typeof target !== "string" || target === "") throw new TypeError("tabletop: a client needs a Store or a store name");
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

/** closeStores closes every store that clients opened by name. */
export async function closeStores() {
  await Promise.all([...open.values()].map((e) => e.promise.then((s) => s.close(), () => {})));
}
