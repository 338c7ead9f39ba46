// IndexedDB storage for a persistent store: its snapshot and change log, in the layout of
// core/backend/kvlog, written from JavaScript. The engine runs synchronously and hands
// back, after each write, the records to keep (a change set, or a snapshot of the whole
// store); commit makes them durable in one IndexedDB transaction, and load gives them back
// when the store is opened again.
//
// Layout, in the object store "kv" (values are bytes):
//
//   head              "gen chunks nextSeq firstSeq" (ASCII): the live snapshot generation, its
//                     chunk count, the next log sequence number and the first live one
//   snap/{gen}/{n}    the snapshot, in chunks read back to back (this module writes one)
//   log/{seq}         one change set per key, seq in 16 hex digits
//
// Appending change sets writes their log keys and the new head in one transaction; a
// snapshot writes the new snapshot and head and deletes the old snapshot and the log before
// it in one transaction. A crash at any point leaves the old or the new state, never a mix.
//
// The database is held by one tab at a time. A Web Lock named "tabletop:{name}" is held
// while the store is open, so a second tab waits for it, fails with StoreLocked, or takes
// it over (lock: "wait" | "fail" | "steal"). And every commit checks, inside its own
// IndexedDB transaction, that the lease this tab wrote on opening is still the current one:
// a tab that was taken over cannot write one more change set, even where Web Locks are
// missing.

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
    await keepBallast(db);
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

/** quotaExceeded is the error of a write the browser's storage quota has no room for. */
export function quotaExceeded(name) {
  return new RestError(`The store "${name}" has no room left in the browser's storage quota; delete entities or tables, or compact.`, { code: "QuotaExceeded", statusCode: 507 });
}

const CHANGE_SET = 1;
const SNAPSHOT = 2;
const hex = (n, width) => n.toString(16).padStart(width, "0");
const logKey = (seq) => `log/${hex(seq, 16)}`;
const snapPrefix = (gen) => `snap/${hex(gen, 16)}/`;
const encoder = new TextEncoder();

function parseHead(raw) {
  if (raw === undefined) return { gen: 0, chunks: 0, nextSeq: 0, firstSeq: 0 };
  const f = new TextDecoder().decode(raw).split(" ").map(Number);
  if (f.length !== 4 || f.some((n) => !Number.isSafeInteger(n) || n < 0) || f[3] > f[2]) throw new Error("tabletop: the store's head record is corrupt");
  return { gen: f[0], chunks: f[1], nextSeq: f[2], firstSeq: f[3] };
}

const encodeHead = (h) => encoder.encode(`${h.gen} ${h.chunks} ${h.nextSeq} ${h.firstSeq}`);

function storage(name, db, lease, durability, release) {
  const txOptions = durability === "default" ? undefined : { durability };
  let lost = false;
  let head;
  db.onversionchange = () => db.close(); // another tab deletes the database

  /**
   * write runs fill(kv, meta) in a read-write transaction after the lease check. A write
   * that frees space (shrinking: deletes, compaction) and fails for the quota releases the
   * ballast and is tried once more: a full quota can always be relieved.
   */
  async function write(fill, shrinking = false) {
    try {
      return await writeOnce(fill);
    } catch (e) {
      if (!shrinking || e?.code !== "QuotaExceeded" || !(await releaseBallast(db))) throw e;
      return writeOnce(fill);
    }
  }

  function writeOnce(fill) {
    if (lost) return Promise.reject(storeLocked(name));
    const tx = db.transaction([KV, META], "readwrite", txOptions);
    const kv = tx.objectStore(KV);
    const meta = tx.objectStore(META);
    meta.get("lease").onsuccess = (ev) => {
      if (ev.target.result !== lease) {
        lost = true;
        tx.abort();
        return;
      }
      fill(kv, meta);
    };
    return complete(tx).catch((e) => Promise.reject(lost ? storeLocked(name) : e?.name === "QuotaExceededError" ? quotaExceeded(name) : e));
  }

  /** append writes change sets after the current head. */
  async function append(sets, shrinking) {
    const next = { ...head, nextSeq: head.nextSeq + sets.length };
    await write((kv) => {
      sets.forEach((cs, i) => kv.put(cs, logKey(head.nextSeq + i)));
      kv.put(encodeHead(next), "head");
    }, shrinking);
    head = next;
  }

  /** snapshot replaces the snapshot, and the log before firstSeq, by data. */
  async function snapshot(data, firstSeq) {
    const next = { gen: head.gen + 1, chunks: data.length > 0 ? 1 : 0, nextSeq: head.nextSeq, firstSeq };
    await write((kv) => {
      kv.delete(IDBKeyRange.bound("snap/", "snap/\uffff"));
      if (firstSeq > 0) kv.delete(IDBKeyRange.bound(logKey(0), logKey(firstSeq - 1)));
      if (next.chunks) kv.put(data, `${snapPrefix(next.gen)}${hex(0, 8)}`);
      kv.put(encodeHead(next), "head");
    }, true);
    head = next;
  }

  return {
    /** load reads the snapshot and the change sets after it, in one transaction. */
    load() {
      return new Promise((resolve, reject) => {
        const tx = db.transaction(KV);
        const kv = tx.objectStore(KV);
        const out = { snapshot: new Uint8Array(0), changeSets: [] };
        kv.get("head").onsuccess = (ev) => {
          try {
            head = parseHead(ev.target.result);
          } catch (e) {
            return reject(e);
          }
          const snap = IDBKeyRange.bound(snapPrefix(head.gen), snapPrefix(head.gen) + "\uffff");
          kv.getAll(snap).onsuccess = (ev) => {
            if (ev.target.result.length !== head.chunks) return reject(new Error(`tabletop: ${ev.target.result.length} of ${head.chunks} snapshot chunks present`));
            out.snapshot = concat(ev.target.result);
          };
          if (head.nextSeq > head.firstSeq) {
            kv.getAll(IDBKeyRange.bound(logKey(head.firstSeq), logKey(head.nextSeq - 1))).onsuccess = (ev) => (out.changeSets = ev.target.result);
          }
        };
        tx.oncomplete = () => resolve(out);
        tx.onerror = () => reject(tx.error);
      });
    },
    /**
     * commit makes records durable in order: the change sets in one transaction, then the
     * last snapshot, if any, in another (it covers every change set before it). It resolves
     * { compactError } once the change sets are durable, compactError being the
     * snapshot's failure (the log is intact without it); it rejects if the change sets fail.
     * shrinking says that the records only delete: they may use the ballast.
     */
    async commit(records, shrinking = false) {
      const sets = [];
      let snap, firstSeq;
      for (const r of records) {
        if (r.kind === CHANGE_SET) sets.push(r.data);
        else if (r.kind === SNAPSHOT) (snap = r.data), (firstSeq = head.nextSeq + sets.length);
      }
      if (sets.length > 0) await append(sets, shrinking);
      if (snap === undefined) return {};
      try {
        await snapshot(snap, firstSeq);
        return {};
      } catch (e) {
        return { compactError: e };
      }
    },
    /** getMeta reads a value kept beside the store (the service properties). */
    getMeta(key) {
      return done(db.transaction(META).objectStore(META).get(key));
    },
    /** putMeta durably writes a value kept beside the store. */
    putMeta(key, value) {
      return write((_, meta) => meta.put(value, key));
    },
    close() {
      db.close();
      release();
    },
  };
}

function concat(chunks) {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let pos = 0;
  for (const c of chunks) out.set(c, pos), (pos += c.length);
  return out;
}

function openDatabase(name) {
  const req = indexedDB.open(dbName(name), 1);
  req.onupgradeneeded = () => {
    req.result.createObjectStore(KV);
    req.result.createObjectStore(META);
  };
  return done(req);
}

/**
 * BALLAST is the size of a value kept in the database only to be deleted when the storage
 * quota is full: a browser refuses every write, even a delete's small log record, once
 * usage exceeds the quota, and deleting the ballast brings it back under. It is random,
 * so that the browser's compression cannot shrink it.
 */
const BALLAST = 512 << 10;

/** keepBallast writes the ballast if it is missing and there is room for it. */
async function keepBallast(db) {
  if ((await done(db.transaction(META).objectStore(META).getKey("ballast"))) !== undefined) return;
  const bytes = new Uint8Array(BALLAST);
  for (let i = 0; i < BALLAST; i += 65536) crypto.getRandomValues(bytes.subarray(i, i + 65536));
  const tx = db.transaction(META, "readwrite");
  tx.objectStore(META).put(bytes, "ballast");
  await complete(tx).catch(() => {}); // no room: the store opens all the same
}

/** releaseBallast deletes the ballast; it reports whether there was one. */
async function releaseBallast(db) {
  if ((await done(db.transaction(META).objectStore(META).getKey("ballast"))) === undefined) return false;
  const tx = db.transaction(META, "readwrite", { durability: "strict" });
  tx.objectStore(META).delete("ballast");
  await complete(tx);
  return true;
}

/**
 * writeLease writes a new lease for this opener and returns it. When the storage quota is
 * full the lease cannot be written: the opener adopts the current one, so that the store
 * still opens (to be read, and written once there is room); the Web Lock still keeps a
 * second tab out where there are Web Locks.
 */
async function writeLease(db) {
  const lease = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  const tx = db.transaction(META, "readwrite", { durability: "strict" });
  tx.objectStore(META).put(lease, "lease");
  try {
    await complete(tx);
    return lease;
  } catch (e) {
    if (e?.name !== "QuotaExceededError") throw e;
    return done(db.transaction(META).objectStore(META).get("lease"));
  }
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
