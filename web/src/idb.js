// IndexedDB storage for a persistent store: its snapshot and change log, in the layout of
// core/backend/kvlog, written from JavaScript, shared by every tab of the origin.
//
// Layout, in the object store "kv" (values are bytes):
//
//   head              "gen chunks nextSeq firstSeq" (ASCII): the live snapshot generation, its
//                     chunk count, the next log sequence number and the first live one
//   snap/{gen}/{n}    the snapshot, in chunks read back to back (this module writes one)
//   log/{seq}         one change set per key, seq in 16 hex digits
//   note/{seq}        the changes of the commit whose first change set is log/{seq}, as
//                     UTF-8 JSON (what Store._subscribe listeners receive), so that a tab
//                     that reads another tab's commit from the log can report it
//
// Every tab keeps its own replica of the store in its engine, and the log is how tabs
// follow each other. A write is one read-write transaction (transact): it reads the head,
// reads the log entries this tab has not applied yet (or, if the log no longer reaches
// back that far, the whole snapshot and log), lets the caller apply them and then its own
// writes in the engine synchronously, inside the transaction's callback, and puts the new
// change sets, their notes and the new head. IndexedDB runs read-write transactions on one
// object store one after another, so the log is a single total order of every tab's
// commits and a write always runs on the latest state (two conditional writes on one
// entity from two tabs: exactly one wins). A tab that believes it writes alone may put its
// records in the same round trip as it reads the head (transact's speculate): a head that
// is not the one it expected aborts the transaction, undoing them. A snapshot writes the
// new snapshot and head and deletes the old snapshot and the log before it in one
// transaction. A crash at any point leaves the old or the new state, never a mix.
//
// Tabs share a store by default: each takes the Web Lock "tabletop:{name}" in shared mode.
// An exclusive opener (lock: "fail" | "wait" | "steal") takes it exclusively, waiting for
// the shared holders, failing with StoreLocked after lockTimeout, or taking it over; and
// every commit checks, inside its own IndexedDB transaction, the lease written on opening
// ("shared:…", adopted by every sharing tab, or an exclusive opener's own): a tab that was
// taken over cannot write one more change set, even where Web Locks are missing.

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
 * @param {{durability?: "strict" | "relaxed" | "default", lock?: "shared" | "fail" | "wait" | "steal", lockTimeout?: number}} options
 */
export async function openIDBStorage(name, options = {}) {
  const { durability = "strict", lock = "shared", lockTimeout = 3000 } = options;
  const release = await acquireLock(name, lock, lockTimeout);
  let db;
  try {
    db = await openDatabase(name);
    const lease = await writeLease(db, lock === "shared");
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

const noteKey = (seq) => `note/${hex(seq, 16)}`;
const logRange = (from, to) => IDBKeyRange.bound(logKey(from), logKey(to - 1));
const noteRange = (from, to) => IDBKeyRange.bound(noteKey(from), noteKey(to - 1));
const snapRange = (gen) => IDBKeyRange.bound(snapPrefix(gen), snapPrefix(gen) + "\uffff");
const decoder = new TextDecoder();

/**
 * readSince reads, in the transaction of kv, what a replica that has applied the change
 * sets before seq lacks, and calls done(caught) with it, or fail(error):
 *   { nextSeq, entries: [{ cs, changes? }] }             the change sets seq … nextSeq-1
 *   { nextSeq, reload: { snapshot, changeSets, firstSeq, entries } }  the log no longer reaches
 *                                                       back to seq: the whole store, entries
 *                                                       being the log after the snapshot
 * changes is a commit's note, on the entry of its first change set.
 */
function readSince(kv, seq, done, fail) {
  kv.get("head").onsuccess = (ev) => {
    let head;
    try {
      head = parseHead(ev.target.result);
    } catch (e) {
      return fail(e);
    }
    if (head.nextSeq === seq) return done({ head, nextSeq: seq, entries: [] });
    const reload = head.firstSeq > seq || head.nextSeq < seq;
    const from = reload ? head.firstSeq : seq;
    let snapshot, sets, noteKeys;
    const finish = (notes) => {
      if (sets.length !== head.nextSeq - from) return fail(new Error(`tabletop: ${sets.length} of ${head.nextSeq - from} log records present`));
      const entries = sets.map((cs) => ({ cs }));
      notes.forEach((note, i) => {
        const entry = entries[parseInt(noteKeys[i].slice(5), 16) - from];
        if (entry) entry.changes = JSON.parse(decoder.decode(note));
      });
      done(reload ? { head, nextSeq: head.nextSeq, reload: { snapshot, changeSets: sets, firstSeq: from, entries } } : { head, nextSeq: head.nextSeq, entries });
    };
    if (reload) {
      kv.getAll(snapRange(head.gen)).onsuccess = (ev) => {
        if (ev.target.result.length !== head.chunks) return fail(new Error(`tabletop: ${ev.target.result.length} of ${head.chunks} snapshot chunks present`));
        snapshot = concat(ev.target.result);
        if (head.nextSeq === from) (sets = []), (noteKeys = []), finish([]);
      };
      if (head.nextSeq === from) return;
    }
    // Requests of one transaction succeed in the order they were made: the last one finishes.
    kv.getAll(logRange(from, head.nextSeq)).onsuccess = (ev) => (sets = ev.target.result);
    kv.getAllKeys(noteRange(from, head.nextSeq)).onsuccess = (ev) => (noteKeys = ev.target.result);
    kv.getAll(noteRange(from, head.nextSeq)).onsuccess = (ev) => finish(ev.target.result);
  };
}

function storage(name, db, lease, durability, release) {
  const txOptions = durability === "default" ? undefined : { durability };
  let lost = false;
  let known; // the head as this storage last read or wrote it
  db.onversionchange = () => db.close(); // another tab deletes the database

  /**
   * writeTx runs body(kv, meta, abort) in a read-write transaction that checks the lease
   * and resolves once it has committed; abort(error) aborts it, failing with error. The
   * lease is read in the same round trip as body's first requests: its check aborts the
   * transaction, undoing whatever body did, before any other request's callback runs.
   */
  function writeTx(body) {
    if (lost) return Promise.reject(storeLocked(name));
    const tx = db.transaction([KV, META], "readwrite", txOptions);
    const kv = tx.objectStore(KV);
    const meta = tx.objectStore(META);
    let failure;
    const abort = (e) => {
      if (failure || lost) return;
      failure = e;
      tx.abort();
    };
    meta.get("lease").onsuccess = (ev) => {
      if (ev.target.result !== lease) {
        lost = true;
        tx.abort();
      }
    };
    try {
      body(kv, meta, abort);
    } catch (e) {
      abort(e);
    }
    return complete(tx).catch((e) => Promise.reject(failure ?? (lost ? storeLocked(name) : e?.name === "QuotaExceededError" ? quotaExceeded(name) : e)));
  }

  /** putSnapshot writes data as the snapshot covering the log before firstSeq, after head. */
  function putSnapshot(kv, head, data, firstSeq) {
    const next = { gen: head.gen + 1, chunks: data.length > 0 ? 1 : 0, nextSeq: head.nextSeq, firstSeq };
    kv.delete(IDBKeyRange.bound("snap/", "snap/\uffff"));
    if (firstSeq > 0) kv.delete(logRange(0, firstSeq)), kv.delete(noteRange(0, firstSeq));
    if (next.chunks) kv.put(data, `${snapPrefix(next.gen)}${hex(0, 8)}`);
    kv.put(encodeHead(next), "head");
    return next;
  }

  return {
    /**
     * load reads the whole store: { snapshot, changeSets, firstSeq, nextSeq, entries },
     * entries being the change sets after the snapshot with their notes.
     */
    load() {
      return new Promise((resolve, reject) => {
        const tx = db.transaction(KV);
        let out;
        readSince(tx.objectStore(KV), -1, (caught) => ((known = caught.head), (out = { ...caught.reload, nextSeq: caught.nextSeq })), reject);
        tx.oncomplete = () => (out ? resolve(out) : reject(new Error("tabletop: the store could not be read")));
        tx.onerror = () => reject(tx.error);
      });
    },
    /** catchUp reads what a replica that has applied the change sets before seq lacks (see readSince). */
    catchUp(seq) {
      return new Promise((resolve, reject) => {
        const tx = db.transaction(KV);
        let out;
        readSince(tx.objectStore(KV), seq, (caught) => ((known = caught.head), (out = caught)), reject);
        tx.oncomplete = () => (out ? resolve(out) : reject(new Error("tabletop: the store could not be read")));
        tx.onerror = () => reject(tx.error);
      });
    },
    /**
     * transact is one write, for a replica that has applied the change sets before seq: in
     * one read-write transaction it reads what the replica lacks, calls run(caught)
     * synchronously (caught as readSince gives it; run applies it and then its writes in the
     * engine), and puts what run returns: { sets: [{ cs, changes? }], snapshot? } — the
     * change sets at caught.nextSeq onwards, with the note of each commit on its first, and
     * a snapshot covering them all. It resolves with the sequence number of the first change
     * set once the transaction has committed, and rejects, with nothing written, if it fails
     * (QuotaExceeded, StoreLocked, or run's own exception).
     *
     * With speculate, when the head this storage last saw is the replica's (seq), run is
     * called at once with nothing to catch up on, and its records are put in the same round
     * trip as the head is read; if the head read is not the one expected (another tab wrote
     * or compacted meanwhile), the transaction is aborted, undoing the puts, and transact
     * rejects with an error whose speculation is true: the replica then holds writes that
     * are not stored, and must be reloaded. It saves a round trip to IndexedDB per write
     * for a tab that writes alone.
     */
    async transact(seq, run, speculate = false) {
      let from, head;
      const put = (kv, caught, out) => {
        from = caught.nextSeq;
        head = caught.head;
        if (out.sets.length === 0 && !out.snapshot) return;
        head = { ...head, nextSeq: from + out.sets.length };
        out.sets.forEach((s, i) => {
          kv.put(s.cs, logKey(from + i));
          if (s.changes) kv.put(encoder.encode(JSON.stringify(s.changes)), noteKey(from + i));
        });
        if (out.snapshot) head = putSnapshot(kv, head, out.snapshot, head.nextSeq);
        kv.put(encodeHead(head), "head");
      };
      const expected = known;
      if (speculate && expected?.nextSeq === seq) {
        await writeTx((kv, meta, abort) => {
          kv.get("head").onsuccess = (ev) => {
            try {
              const now = parseHead(ev.target.result);
              if (now.nextSeq !== seq) return abort(Object.assign(new Error("tabletop: another tab wrote meanwhile"), { speculation: true }));
              if (head !== expected && (now.gen !== head.gen || now.chunks !== head.chunks || now.firstSeq !== head.firstSeq)) {
                // Another tab compacted meanwhile: its snapshot stays, under the log just put.
                head = { ...now, nextSeq: head.nextSeq };
                kv.put(encodeHead(head), "head");
              } else if (head === expected) head = now;
            } catch (e) {
              abort(e);
            }
          };
          const caught = { head: expected, nextSeq: seq, entries: [] };
          const out = run(caught);
          if (out.snapshot) throw new Error("tabletop: a compaction cannot be speculated");
          put(kv, caught, out);
        });
      } else {
        await writeTx((kv, meta, abort) => {
          readSince(kv, seq, (caught) => {
            try {
              put(kv, caught, run(caught));
            } catch (e) {
              abort(e);
            }
          }, abort);
        });
      }
      known = head;
      return from;
    },
    /**
     * snapshot replaces the snapshot, and the log before firstSeq, by data, a snapshot of
     * the store after every change set before firstSeq; a newer snapshot already there wins.
     * It frees space: failing for the quota it releases the ballast and tries once more.
     */
    async snapshot(data, firstSeq) {
      const once = () =>
        writeTx((kv, _, abort) => {
          kv.get("head").onsuccess = (ev) => {
            try {
              const head = parseHead(ev.target.result);
              if (head.firstSeq < firstSeq && head.nextSeq >= firstSeq) written = putSnapshot(kv, head, data, firstSeq);
              else written = head;
            } catch (e) {
              abort(e);
            }
          };
        });
      let written;
      try {
        await once();
      } catch (e) {
        if (e?.code !== "QuotaExceeded" || !(await releaseBallast(db))) throw e;
        await once();
      }
      if (known?.nextSeq === written.nextSeq) known = written;
    },
    /** releaseBallast deletes the ballast, so that a write that frees space fits again; it reports whether there was one. */
    releaseBallast() {
      return releaseBallast(db);
    },
    /** getMeta reads a value kept beside the store (the service properties). */
    getMeta(key) {
      return done(db.transaction(META).objectStore(META).get(key));
    },
    /** putMeta durably writes a value kept beside the store. */
    putMeta(key, value) {
      return writeTx((_, meta) => meta.put(value, key));
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
 * writeLease returns the lease this opener's commits check. A sharing opener adopts the
 * current shared lease ("shared:…") or, if an exclusive opener wrote the last one, writes
 * a new shared one (read and written in one transaction, so that tabs opening together
 * agree); an exclusive opener writes its own, which makes every earlier opener's commits
 * fail. When the storage quota is full the lease cannot be written: the opener adopts the
 * current one, so that the store still opens (to be read, and written once there is room);
 * the Web Lock still keeps other tabs out where there are Web Locks.
 */
async function writeLease(db, shared) {
  const fresh = `${shared ? "shared:" : "x:"}${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  const tx = db.transaction(META, "readwrite", { durability: "strict" });
  const meta = tx.objectStore(META);
  let lease = fresh;
  meta.get("lease").onsuccess = (ev) => {
    if (shared && typeof ev.target.result === "string" && ev.target.result.startsWith("shared:")) lease = ev.target.result;
    else meta.put(fresh, "lease");
  };
  try {
    await complete(tx);
    return lease;
  } catch (e) {
    if (e?.name !== "QuotaExceededError") throw e;
    return done(db.transaction(META).objectStore(META).get("lease"));
  }
}

/**
 * acquireLock takes the store's Web Lock, shared or exclusive (mode "fail" | "wait" |
 * "steal"), and returns the function that releases it. A shared lock waits up to timeout
 * for an exclusive holder. Where there are no Web Locks (Node), only the lease protects
 * the database.
 */
function acquireLock(name, mode, timeout) {
  const locks = globalThis.navigator?.locks;
  if (!locks) return Promise.resolve(() => {});
  return new Promise((resolve, reject) => {
    let release;
    const held = new Promise((r) => (release = r));
    const options =
      mode === "steal" ? { steal: true } : mode === "wait" ? {} : { signal: AbortSignal.timeout(timeout), mode: mode === "shared" ? "shared" : "exclusive" };
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
