// IndexedDB storage for a persistent store: the object the engine's wasm/idbstore package expects
// (get, scan, commit), with the database held by one tab at a time.
//
// Exclusive access is enforced twice. A Web Lock named "tabletop:{name}" is held while the
// store is open, so a second tab waits for it, fails with StoreLocked, or takes it over
// (lock: "wait" | "fail" | "steal"). And every commit checks, inside its own IndexedDB
// transaction, that the lease this tab wrote on opening is still the current one: a tab
// that was taken over cannot write one more change set, even where Web Locks are missing.

import { RestError } from "./errors.js";

const KV = "kv";
const META = "meta";

/** storeLocked is the error of a database held, or taken over, by another tab. */
export function storeLocked(name) {
  return new RestError(`The store "${name}" is open in another tab or window.`, { code: "StoreLocked", statusCode: 409 });
}

/**
 * openIDBStorage opens (creating if needed) the IndexedDB database of a store and returns
 * the storage object for the engine plus close().
 * @param {string} name
 * @param {{durability?: "strict" | "relaxed" | "default", lock?: "fail" | "wait" | "steal", lockTimeout?: number}} options
 */
export async function openIDBStorage(name, options = {}) {
  const { durability = "strict", lock = "fail", lockTimeout = 3000 } = options;
  const release = await acquireLock(name, lock, lockTimeout);
  let db;
  try {
    db = await openDatabase(name);
    const lease = await writeLease(db);
    return storage(name, db, lease, durability, release);
  } catch (e) {
    db?.close();
    release();
    throw e;
  }
}

/** deleteIDBStorage deletes a store's database; it must not be open. */
export function deleteIDBStorage(name) {
  return done(indexedDB.deleteDatabase(dbName(name)));
}

function dbName(name) {
  return `tabletop:${name}`;
}

function storage(name, db, lease, durability, release) {
  const txOptions = durability === "default" ? undefined : { durability };
  let lost = false;
  db.onversionchange = () => db.close(); // another tab deletes the database
  return {
    get: (key) => done(db.transaction(KV).objectStore(KV).get(key)),
    scan(prefix) {
      const s = db.transaction(KV).objectStore(KV);
      const range = IDBKeyRange.bound(prefix, prefix + "\uffff");
      return Promise.all([done(s.getAllKeys(range)), done(s.getAll(range))]);
    },
    commit(keys, values, deletes) {
      if (lost) return Promise.reject(storeLocked(name));
      const tx = db.transaction([KV, META], "readwrite", txOptions);
      const kv = tx.objectStore(KV);
      tx.objectStore(META).get("lease").onsuccess = (ev) => {
        if (ev.target.result !== lease) {
          lost = true;
          tx.abort();
          return;
        }
        deletes.forEach((k) => kv.delete(k));
        keys.forEach((k, i) => kv.put(values[i], k));
      };
      return complete(tx).catch((e) => Promise.reject(lost ? storeLocked(name) : e));
    },
    close() {
      db.close();
      release();
    },
  };
}

function openDatabase(name) {
  const req = indexedDB.open(dbName(name), 1);
  req.onupgradeneeded = () => {
    req.result.createObjectStore(KV);
    req.result.createObjectStore(META);
  };
  return done(req);
}

async function writeLease(db) {
  const lease = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  const tx = db.transaction(META, "readwrite", { durability: "strict" });
  tx.objectStore(META).put(lease, "lease");
  await complete(tx);
  return lease;
}

/**
 * acquireLock takes the store's Web Lock and returns the function that releases it. Where
 * there are no Web Locks (Node), only the lease protects the database.
 */
function acquireLock(name, mode, timeout) {
  const locks = globalThis.navigator?.locks;
  if (!locks) return Promise.resolve(() => {});
  return new Promise((resolve, reject) => {
    let release;
    const held = new Promise((r) => (release = r));
    const options = mode === "steal" ? { steal: true } : mode === "wait" ? {} : { signal: AbortSignal.timeout(timeout) };
    let granted = false;
    locks
      .request(`tabletop:${name}`, options, () => {
        granted = true;
        resolve(release);
        return held;
      })
      .catch((e) => {
        if (!granted) reject(e?.name === "TimeoutError" || e?.name === "AbortError" ? storeLocked(name) : e);
      });
  });
}

/** done resolves with a request's result. */
function done(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/** complete resolves once a transaction has committed: its writes are durable. */
function complete(tx) {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error("transaction aborted"));
  });
}
