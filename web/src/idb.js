// IndexedDB storage for a persistent store: its key-range pages and change log, written
// from JavaScript, shared by every tab of the origin.
//
// Layout. The object store "pages" holds the store's records as pages: each about
// PAGE_BYTES of consecutive engine keys, as buntdb commands in key order, under a binary
// key: "p" then the first key of its range (the first page's range starts at the empty
// key). A page's range runs to the next page's key. The object store "meta" lists every
// page's key under "directory", written with the pages (listing the keys of "pages"
// itself would read the pages from disk). The object store "kv" holds:
//
//   head              "gen 0 nextSeq firstSeq" (ASCII): the pages' generation (bumped by
//                     each compaction), 0, the next log sequence number as of the last
//                     compaction (the log's last key + 1 if later) and the first live one:
//                     the pages hold every change set before firstSeq
//   log/{seq}         one change set per key, seq in 16 hex digits: { cs, changes?,
//                     touches, total, carry }: its bytes; for the first change set of a
//                     commit, changes (as JSON text), what Store._subscribe listeners receive, so that a
//                     tab that reads another tab's commit from the log can report it;
//                     touches, what the index "touches" finds it by (see below); total,
//                     the bytes of log since the pages up to it, as its writer counted
//                     them; carry, the latest command of each CARRIED key as of it
//
// The log's index "touches" (multiEntry) finds the records a page load needs. A record
// lists the IndexedDB key of each page its keys fall in (touches), except the CARRIED
// keys: keys (nearly) every commit writes, which would tie every record to one page; the
// latest command of each is in every record's carry instead. Page boundaries change only
// at a compaction, which also deletes the records it folds in, so the mapping holds for
// the records that remain, provided each writer knows the pages as they are: a write
// reads the head and, when its generation changed, the directory; a tab that writes
// alone, reading no head, learns the generation the last compaction wrote beside the
// lease, and if it did not know it reads the directory and puts its records again, in
// the same transaction. Loading pages reads them and the records listed under them, in
// sequence order.
//
// A commit puts its log records and nothing else: its sequence numbers follow the log's
// last key, so the head changes only when the pages do.
//
// Opening reads the head, the directory and the log's last record (its carry), never a
// page and never the rest of the log: the engine opens with no key range resident, the
// carried keys' commands deferred until their page loads, and asks for the ranges a call
// needs (readPages, or inside a write's transaction), each loaded with the log records
// that touch it. A compaction rewrites only the pages whose ranges the log touched,
// splitting those grown past twice PAGE_BYTES (at each change of record kind too:
// cutPage), and deletes the log they now hold, in one
// transaction: a crash leaves the old or the new state. A page is never deleted (an
// emptied one stays, empty), so a tab whose list of page keys is older still finds every
// page covering a range from the greatest key it knows at or below it.
// Version 1 of the database kept a whole snapshot (snap/{gen}/{n}) instead of pages: it is
// cut into pages when the database is upgraded, in the upgrade's own transaction; the log
// of versions 1 and 2 is indexed and the directory written there too (idb-upgrade.js).
// The records themselves are read and written by idb-format.js.
//
// Every tab keeps its own replica of the store in its engine, and the log is how tabs
// follow each other. A write is one read-write transaction (transact): it reads the head
// and the log's last key, reads the log entries this tab has not applied yet (or, if the
// log no longer reaches back that far, starts again from the pages), lets the caller
// apply them and then its own writes in the engine synchronously, inside the
// transaction's callback, and puts the new change sets. IndexedDB runs read-write transactions on one
// object store one after another, so the log is a single total order of every tab's
// commits and a write always runs on the latest state (two conditional writes on one
// entity from two tabs: exactly one wins). A tab that believes it writes alone may add its
// records without reading the log first (transact's speculate): IndexedDB's add fails
// where a record already is, aborting the transaction and undoing them. A commit of such a
// tab is two requests: the lease (below) and the add, or the add alone under the writer
// lock (below). A crash at any point leaves the old or the new state, never a mix.
//
// Tabs share a store by default: each takes the Web Lock "tabletop:{name}" in shared mode.
// An exclusive opener (lock: "fail" | "wait" | "steal") takes it exclusively, waiting for
// the shared holders, failing with StoreLocked after lockTimeout, or taking it over; and
// every commit checks, inside its own IndexedDB transaction, the lease written on opening
// ("shared:…", adopted by every sharing tab, or an exclusive opener's own): a tab that was
// taken over cannot write one more change set, even where Web Locks are missing.
//
// The writer lock. Where there are Web Locks, a tab that writes alone also holds the
// exclusive Web Lock "tabletop:{name}:writer" for as long as it does (writeAlone), as
// does a tab that shares the store while it speculates (store.js), and
// once one of its commits has checked the lease in a transaction begun under that lock,
// its commits read no lease: a commit is then the add alone, committed at once. That is
// safe because nothing the lease tells can happen while it holds the lock: a compaction
// runs only under the writer lock (the holder's own, or taken for it and released after),
// and an exclusive opener writes its lease under it, after the tab it takes the store
// from has let it go (a tab whose store lock is stolen stops writing and releases the
// writer lock at once: taken). Another tab's commits are still caught by add's
// ConstraintError. A transaction begun before the lock was released is ordered before
// every transaction begun after it was taken by another tab (IndexedDB runs read-write
// transactions over one object store in the order they were begun). A tab that hears
// another releases the lock and checks the lease again, and so does a tab that shares the
// store once its writes pause or another tab asks for the lock; where there are no Web
// Locks, every commit checks it. Version 4 of the database changes no record, only keeps out the
// code of version 3, which compacts without the lock.

import { RestError, dataCorrupted } from "./errors.js";
import { compareBytes, cutPage, eachKey, yieldToPage, SLICE_MS } from "./load.js";
import { Carry, DIRECTORY, Directory, KV, META, PAGES, PAGE_BYTES, TOUCHES, KEY_END, allLog, encodeHead, logEntries, logEntry, logKey, logRange, logRecord, pageKey, pageName, parseHead, writeDirectory } from "./idb-format.js";
import { upgrade } from "./idb-upgrade.js";

export { Carry, KEY_END, PAGE_BYTES };

/**
 * VERSION is the database's version: 1 a whole snapshot, 2 pages, 3 the log indexed by
 * page, 4 compactions under the writer lock (the records are version 3's).
 */
const VERSION = 4;

/** LOG_PIECE is about how many bytes of log opening reads per transaction. */
const LOG_PIECE = 128 << 10;

/** PAGES_PER_READ bounds how many pages one read of a key range loads. */
const PAGES_PER_READ = 16;

/** SAVE_BYTES is about how much of a page a compaction asks the engine for in one call. */
const SAVE_BYTES = 4 * PAGE_BYTES;

/**
 * PAGE_LOG_BYTES is how much log touching one page makes a tab compact (pageLogHeavy):
 * loading a page applies every record that touches it, in one engine call, so a read
 * landing on the page a fill keeps writing waits for all of that log.
 */
const PAGE_LOG_BYTES = 512 << 10;

/**
 * ROOM_BYTES is how much room under the storage quota a compaction for a heavy page asks
 * for: the pages it writes anew count against the quota, beside the ones they replace,
 * until the browser reclaims those, which may take longer than the store stays open.
 */
const ROOM_BYTES = 32 << 20;

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
  let taken = () => {};
  const release = await acquireLock(name, lock, lockTimeout, () => taken());
  let db;
  try {
    db = await openDatabase(name);
    // An exclusive opener writes its lease holding the writer lock: a tab it takes the
    // store from, if it was writing without reading the lease, first stops (see storage).
    // A sharing opener mostly finds a shared lease to adopt and the ballast in place: one
    // read-only transaction, not a read-write one and another read.
    const found = lock === "shared" ? await readLease(db) : { ballast: false };
    const lease = found.lease ?? (await (lock === "shared" ? writeLease(db, true) : withWriterLock(name, true, () => writeLease(db, false))));
    if (!found.ballast) await keepBallast(db);
    const s = storage(name, db, lease, durability, release);
    taken = s.taken;
    return s;
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

/**
 * readTail reads, in the transaction of kv, what a replica starts from besides the pages:
 * the latest command of each carried key and the bytes of log since the pages, from the
 * log's last record (every record has them since the log is indexed: idb-upgrade.js gives
 * version 2's theirs); it calls done({ changeSets, logBytes }), or fail(error).
 */
function readTail(kv, done, fail) {
  kv.openCursor(allLog(), "prev").onsuccess = (ev) => {
    let last;
    try {
      last = ev.target.result && logEntry(ev.target.result.value, ev.target.result.key);
    } catch (e) {
      return fail(e);
    }
    done({ changeSets: last?.carry?.length > 0 ? [last.carry] : [], logBytes: last ? (last.total ?? last.cs.length) : 0 });
  };
}

/**
 * readHead reads the head in the transaction of kv, its nextSeq moved past the log's last
 * key, and calls done(head), or fail(error).
 */
function readHead(kv, done, fail) {
  let head;
  kv.get("head").onsuccess = (ev) => {
    try {
      head = parseHead(ev.target.result);
    } catch (e) {
      fail(e);
    }
  };
  kv.openKeyCursor(allLog(), "prev").onsuccess = (ev) => {
    if (!head) return;
    const last = ev.target.result?.key;
    if (last !== undefined) head.nextSeq = Math.max(head.nextSeq, parseInt(last.slice(4), 16) + 1);
    done(head);
  };
}

/**
 * readSince reads, in the transaction of kv, what a replica that has applied the change
 * sets before seq lacks, and calls done(caught) with it, or fail(error):
 *   { nextSeq, entries: [{ cs, changes? }] }             the change sets seq … nextSeq-1
 *   { nextSeq, reload: { changeSets, logBytes, firstSeq, entries: [] } }  the log no
 *                         longer reaches back to seq: the replica must start again from
 *                         the pages, with the carried keys' commands (see readTail)
 * changes is a commit's note, on the entry of its first change set.
 */
function readSince(kv, seq, done, fail) {
  readHead(kv, (head) => {
    if (head.nextSeq === seq) return done({ head, nextSeq: seq, entries: [] });
    if (head.firstSeq > seq || head.nextSeq < seq) {
      return readTail(kv, (tail) => done({ head, nextSeq: head.nextSeq, reload: { ...tail, firstSeq: head.firstSeq, entries: [] } }), fail);
    }
    kv.getAll(logRange(seq, head.nextSeq)).onsuccess = (ev) => {
      const records = ev.target.result;
      if (records.length !== head.nextSeq - seq) return findLogDamage(kv, head, fail);
      let entries;
      try {
        entries = logEntries(records, seq);
      } catch (e) {
        return fail(e);
      }
      done({ head, nextSeq: head.nextSeq, entries });
    };
  }, fail);
}

/**
 * checkLog checks, in the transaction of kv, that the log holds the records head gives
 * (head.firstSeq to head.nextSeq-1, every one and no other: a compaction deletes the
 * records it folds in and writes the head in one transaction), then calls done(), or
 * fail(error) with the damage (see findLogDamage). It counts the records, reading none.
 */
function checkLog(kv, head, done, fail) {
  kv.count(allLog()).onsuccess = (ev) => (ev.target.result === head.nextSeq - head.firstSeq ? done() : findLogDamage(kv, head, fail));
}

/**
 * findLogDamage reads, in the transaction of kv, the log's keys, and calls fail with the
 * DataCorrupted error naming the first that differs from what head gives (head.firstSeq
 * to head.nextSeq-1): a record missing, or one outside that run.
 */
function findLogDamage(kv, head, fail) {
  kv.getAllKeys(allLog()).onsuccess = (ev) => {
    const keys = ev.target.result.filter((k) => k >= logKey(head.firstSeq));
    const span = `the log runs from ${logKey(head.firstSeq)} to ${logKey(head.nextSeq - 1)}`;
    const stray = ev.target.result.find((k) => k < logKey(head.firstSeq));
    if (stray !== undefined) return fail(dataCorrupted(stray, `a log record before the log's start: ${span}`));
    for (let i = 0; i < head.nextSeq - head.firstSeq; i++) {
      if (keys[i] !== logKey(head.firstSeq + i)) return fail(dataCorrupted(logKey(head.firstSeq + i), `missing, though ${span}`));
    }
    if (keys.length > head.nextSeq - head.firstSeq) return fail(dataCorrupted(keys[head.nextSeq - head.firstSeq], `a log record past the log's end: ${span}`));
    fail(new Error("tabletop: the log changed while it was read")); // not in one transaction: cannot happen
  };
}

/**
 * readPagesIn reads, in the transaction of kv and pages, the pages covering the start of
 * the key range [lo, hi) (PAGES_PER_READ of those dir knows, at most) and the log records
 * before seq that touch them, and calls done({ lo, hi, pages, sets, starts }) with them
 * (sets: the records' change sets in sequence order; starts: each page's first key, when
 * every page was read) and the range they cover, whole pages from
 * lo's page on, or fail(error). The range runs between pages dir knows; as pages are
 * never deleted, it is whole pages even if dir missed a split in it (its pages are read
 * all the same), and a record touching a key in it lists a page in it.
 */
function readPagesIn(kv, pages, dir, lo, hi, seq, done, fail) {
  const first = dir.search(lo);
  let last = first + 1;
  while (last < dir.keys.length && last - first < PAGES_PER_READ && compareBytes(dir.keys[last], hi) < 0) last++;
  const start = dir.keys[first];
  const end = dir.keys[last] ?? KEY_END;
  const range = IDBKeyRange.bound(pageKey(start), pageKey(end), false, true);
  const index = kv.index(TOUCHES);
  const limit = logKey(seq);
  const sets = new Map(); // log key → change set: a record touching two pages is read twice
  let got, waiting = 2;
  const finish = () => {
    if (--waiting > 0) return;
    // Before the first compaction (generation 0) no page is written yet.
    if (got.length < last - first && dir.gen > 0) return findMissingPage(pages, range, dir.keys.slice(first, last), fail);
    const order = [...sets.keys()].sort(); // fixed-width hex: text order is sequence order
    const names = got.length === last - first ? dir.keys.slice(first, last).map(pageName) : undefined;
    const starts = got.length === last - first ? dir.keys.slice(first, last) : undefined; // where each page starts
    done({ lo: start, hi: end, pages: got, sets: order.map((k) => sets.get(k)), names: { pages: names, sets: order }, starts });
  };
  const records = (range) => {
    let keys;
    index.getAllKeys(range).onsuccess = (ev) => (keys = ev.target.result);
    const req = index.getAll(range);
    req.onsuccess = (ev) => {
      ev.target.result.forEach((v, i) => keys[i] < limit && sets.set(keys[i], v?.cs));
      finish();
    };
    req.onerror = () => fail(req.error);
  };
  const req = pages.getAll(range);
  req.onsuccess = (ev) => ((got = ev.target.result), finish());
  req.onerror = () => fail(req.error);
  records(range);
}

/**
 * pagesOf cuts records a compaction saved into the pages that hold them ([{ first, data
 * }]): a page grown past twice PAGE_BYTES, or a part of one saved after its first (first
 * undefined), as cutPage cuts it; the others whole. The first page starts at first when it
 * is given (a page keeps the start of its range, even empty), the others at their first
 * key.
 */
function pagesOf(data, first) {
  if (first !== undefined && data.length <= 2 * PAGE_BYTES) return [{ first, data }];
  const parts = cutPage(data, PAGE_BYTES);
  if (first !== undefined) parts[0].first = first;
  return parts;
}

/** afterLastKey is the least key after the last key of a run of commands. */
function afterLastKey(data) {
  let last;
  eachKey(data, (k) => (last = k));
  const out = new Uint8Array(last.length + 1);
  out.set(last);
  return out;
}

/**
 * findMissingPage reads, in the transaction of pages, the keys of the pages in range and
 * calls fail with the DataCorrupted error naming the first of known (engine keys starting
 * pages, as the directory lists them) that is not among them: pages are never deleted.
 */
function findMissingPage(pages, range, known, fail) {
  pages.getAllKeys(range).onsuccess = (ev) => {
    const have = new Set(ev.target.result.map((k) => pageName(new Uint8Array(k).subarray(1))));
    const missing = known.map(pageName).find((n) => !have.has(n));
    fail(dataCorrupted(missing ?? pageName(known[0]), "missing, though the directory of pages lists it"));
  };
}

/**
 * readDirectory reads every page's key into dir, in the transaction of meta, if dir does
 * not know the pages of generation gen (the head's) yet, then calls done(). The
 * directory is written with the pages it lists (writeDirectory): reading it costs a small
 * record, where listing the pages' keys would read the pages themselves from disk.
 */
function readDirectory(meta, dir, gen, done) {
  if (dir.gen === gen) return done();
  meta.get(DIRECTORY).onsuccess = (ev) => {
    dir.add(ev.target.result ?? []);
    dir.gen = gen;
    done();
  };
}

function storage(name, db, lease, durability, release) {
  const txOptions = durability === "default" ? undefined : { durability };
  const locks = globalThis.navigator?.locks;
  let lost = false, closed = false;
  let alone; // while this tab holds the writer lock: { verified, release }
  let asked; // the writer lock's request under way or granted
  /**
   * writeAlone takes (true) or releases (false) the writer lock, for a tab that writes
   * alone: while it holds it and once a commit checked the lease in a transaction begun
   * under it (verified), its speculative commits read no lease (see transact).
   */
  const writeAlone = (on) => {
    if (!locks) return;
    if (!on) {
      const r = alone?.release;
      alone = asked = undefined;
      r?.();
      return;
    }
    if (asked || lost || closed) return;
    const mine = (asked = {});
    locks
      .request(writerLock(name), { ifAvailable: true }, (lock) => {
        if (asked !== mine || !lock) {
          if (asked === mine) asked = undefined;
          return undefined;
        }
        return new Promise((r) => (alone = { verified: false, release: r }));
      })
      .catch(() => asked === mine && (asked = undefined));
  };
  let known; // the head as this storage last read or wrote it
  const dir = new Directory();
  const pageLog = new PageLog();
  db.onversionchange = () => db.close(); // another tab deletes the database

  /**
   * writeTx runs body(kv, meta, pages, abort, finished) in a read-write transaction that
   * checks the lease and resolves once it has committed; abort(error) aborts it, failing
   * with error. The lease is read in the same round trip as body's first requests: its
   * check aborts the transaction, undoing whatever body did, before any other request's
   * callback runs. onGen(gen, meta, firstSeq, abort), if given, receives the pages'
   * generation and the log's first sequence number that the last compaction wrote beside
   * the lease, if one did, and returns whether it made requests or aborted.
   *
   * body calls finished() once it has made its last request: once the lease is checked
   * too (and onGen had nothing to do), the transaction is committed at once
   * (IDBTransaction.commit) instead of when the page has seen every request's answer,
   * which saves the page a turn before the commit, the difference between a strict
   * single insert trailing Dexie's rate and matching it (bench/commit.js, Chromium). A
   * request that fails after that (add's ConstraintError) still aborts the transaction:
   * its error event, not cancelled, does.
   */
  function writeTx(body, onGen, holding) {
    if (lost) return Promise.reject(storeLocked(name));
    const tx = db.transaction([KV, META, PAGES], "readwrite", txOptions);
    const trusted = holding?.verified;
    const kv = tx.objectStore(KV);
    const meta = tx.objectStore(META);
    let failure, checked = false, last = false;
    const abort = (e) => {
      if (failure || lost) return;
      failure = e;
      try {
        tx.abort();
      } catch {
        // Committing already: only a failed request's error event (not cancelled) aborts it now.
      }
    };
    const commit = () => {
      if (!checked || !last || failure || lost) return;
      try {
        tx.commit?.();
      } catch {
        // No longer active (aborted): complete() reports how it ended.
      }
    };
    if (trusted) checked = true;
    else meta.get("lease").onsuccess = (ev) => {
      const rec = leaseOf(ev.target.result);
      if (rec.lease !== lease) {
        lost = true;
        tx.abort();
        return;
      }
      if (onGen && rec.gen !== undefined && onGen(rec.gen, meta, rec.firstSeq, abort)) return;
      checked = true;
      commit();
    };
    try {
      body(kv, meta, tx.objectStore(PAGES), abort, () => ((last = true), commit()));
    } catch (e) {
      abort(e);
    }
    return complete(tx).then(
      () => holding && (holding.verified = true),
      (e) => Promise.reject(failure ?? (lost ? storeLocked(name) : e?.name === "QuotaExceededError" ? quotaExceeded(name) : e)),
    );
  }

  /** readTx runs body(kv, pages, done, fail, meta) in a read-only transaction; it resolves with what body passed to done. */
  function readTx(body) {
    return new Promise((resolve, reject) => {
      const tx = db.transaction([KV, META, PAGES]);
      let out, failure;
      body(tx.objectStore(KV), tx.objectStore(PAGES), (v) => (out = { v }), (e) => (failure = e), tx.objectStore(META));
      tx.oncomplete = () => (out ? resolve(out.v) : reject(failure ?? new Error("tabletop: the store could not be read")));
      tx.onerror = () => reject(failure ?? tx.error);
      // A callback that threw aborts the transaction with no error event: without this the
      // read would never settle.
      tx.onabort = () => reject(failure ?? tx.error ?? new Error("tabletop: reading the store was aborted"));
    });
  }

  /**
   * runLoading calls step(loaded, resumed) until it returns something other than { need:
   * [[lo, hi], …] } or { yield: true }, then calls done with the last result. For a need
   * it reads the pages covering the start of each range, in the transaction of kv and
   * pages, with the log records before seq (loaded lists what readPagesIn read, a range
   * that an earlier read of the same need covered read no more); for a yield it calls
   * step again in a later task (resumed true), the transaction kept open by a request
   * meanwhile, so that other tasks of the page run between the steps of one commit.
   */
  function runLoading(kv, pages, seq, step, done, fail) {
    const readAll = (need, loaded) => {
      const [first, ...others] = need.filter(([lo]) => !loaded.some((l) => compareBytes(l.lo, lo) <= 0 && compareBytes(lo, l.hi) < 0));
      if (!first) return next(loaded);
      readPagesIn(kv, pages, dir, first[0], first[1], seq, (l) => readAll(others, [...loaded, l]), fail);
    };
    const next = (loaded, resumed = false) => {
      let out;
      try {
        out = step(loaded, resumed);
      } catch (e) {
        return fail(e);
      }
      if (out?.need) return readAll(out.need, []);
      if (out?.yield) {
        const req = kv.count(IDBKeyRange.only("head")); // any request: its answer is a task of its own
        req.onsuccess = () => next(undefined, true);
        req.onerror = () => fail(req.error);
        return;
      }
      try {
        done(out);
      } catch (e) {
        fail(e);
      }
    };
    next(undefined);
  }

  return {
    /**
     * load reads what a replica starts from: { changeSets, logBytes, firstSeq, nextSeq,
     * entries }: the latest commands of the carried keys and the bytes of log since the
     * pages (see readTail). It reads the pages' keys, not the pages, and no other log
     * record, unless from (a sequence number) is given: then entries are the log's records
     * from there on, with their notes, for a replica that had reached from (none if the
     * log no longer reaches back that far).
     */
    async load(from) {
      for (;;) {
        const start = await readTx((kv, pages, done, fail, meta) => {
          let keys;
          meta.get(DIRECTORY).onsuccess = (ev) => (keys = ev.target.result ?? []);
          let head, tail;
          readHead(kv, (h) => checkLog(kv, h, () => ((head = h), tail && done({ head, keys, ...tail })), fail), fail);
          readTail(kv, (t) => ((tail = t), head && done({ head, keys, ...tail })), fail);
        });
        const { head } = start;
        dir.add(start.keys);
        dir.gen = Math.max(dir.gen, head.gen);
        // The log in pieces, each its own transaction and task: one getAll of megabytes
        // would hold the page's main thread while it is deserialized. Records are never
        // changed, only deleted by a compaction: one missing means start again.
        const entries = [];
        const first = from === undefined || from < head.firstSeq || from > head.nextSeq ? head.nextSeq : from;
        for (let at = first, n = 4, bytes = 0; at < head.nextSeq && entries.length === at - first; at += n) {
          n = entries.length === 0 ? 4 : Math.min(4096, Math.max(1, Math.round((LOG_PIECE * entries.length) / bytes)));
          const piece = logEntries(await readTx((kv, _, done) => (kv.getAll(logRange(at, Math.min(head.nextSeq, at + n))).onsuccess = (ev) => done(ev.target.result))), at);
          for (const e of piece) bytes += e.cs.length;
          entries.push(...piece);
          await yieldToPage();
        }
        if (entries.length !== head.nextSeq - first) continue;
        known = head;
        return { changeSets: start.changeSets, logBytes: start.logBytes, firstSeq: head.firstSeq, nextSeq: head.nextSeq, entries };
      }
    },
    /** catchUp reads what a replica that has applied the change sets before seq lacks (see readSince). */
    catchUp(seq) {
      return readTx((kv, _, done, fail) => readSince(kv, seq, (caught) => ((known = caught.head), done(caught)), fail));
    },
    /**
     * readPages reads the pages covering the start of the key range [lo, hi) for a replica
     * that has applied the change sets before seq: { lo, hi, pages } (see readPagesIn), or
     * { behind: true } when the pages hold change sets the replica has not applied (another
     * tab compacted past it): it must catch up first.
     */
    readPages(lo, hi, seq) {
      return readTx((kv, pages, done, fail, meta) => {
        kv.get("head").onsuccess = (ev) => {
          let head;
          try {
            head = parseHead(ev.target.result);
          } catch (e) {
            return fail(e);
          }
          if (head.firstSeq > seq) return done({ behind: true });
          readDirectory(meta, dir, head.gen, () => readPagesIn(kv, pages, dir, lo, hi, seq, done, fail));
        };
      });
    },
    /**
     * transact is one write, for a replica that has applied the change sets before seq: in
     * one read-write transaction it reads what the replica lacks, calls run(caught)
     * synchronously (caught as readSince gives it; run applies it and then its writes in the
     * engine), and puts what run returns: { sets: [{ cs, changes?, total, carry }] } — the
     * change sets at caught.nextSeq onwards, with the note of each commit on its first, the
     * bytes of log since the pages up to each and the carried keys' latest commands (see
     * logRecord). run may instead
     * return { need: [lo, hi] }: the pages covering that key range are read in the same
     * transaction and run is called again, run(caught, loaded), with them ({ lo, hi, pages
     * }, see readPagesIn) to load before it goes on; or { yield: true }: run is called
     * again, run(caught, undefined, true), in a later task of the same transaction, to go
     * on where it stopped. It resolves with the sequence number
     * of the first change set once the transaction has committed, and rejects, with
     * nothing written, if it fails (QuotaExceeded, StoreLocked, or run's own exception).
     *
     * With speculate, when the head this storage last saw is the replica's (seq), run is
     * called at once with nothing to catch up on, and its records are added (IndexedDB's
     * add: it fails where a record is) with no read of the log; if one was there (another
     * tab wrote meanwhile), the transaction is aborted, undoing the rest, and transact rejects with
     * an error whose speculation is true: the replica then holds writes that are not
     * stored, and must be reloaded. It saves a round trip to IndexedDB per write for a tab
     * that writes alone, or that wrote last among tabs that share the store. A compaction
     * by another tab meanwhile stays: a commit does not write the head. lone takes the
     * writer lock (see writeAlone), for a tab that writes alone or speculates; without it
     * the lock is released and a speculative commit reads the lease.
     */
    async transact(seq, run, speculate = false, lone = speculate) {
      let from, head, stored;
      const put = (kv, caught, out, write = (rec, key) => kv.put(rec, key)) => {
        from = caught.nextSeq;
        head = caught.head;
        if (out.sets.length === 0) return;
        head = { ...head, nextSeq: from + out.sets.length };
        out.sets.forEach((s, i) => {
          const rec = logRecord(s, dir, s.total);
          pageLog.add(rec);
          write(rec, logKey(from + i));
        });
        stored = { kv, sets: out.sets };
      };
      const expected = known;
      writeAlone(lone);
      const holding = alone;
      if (speculate && expected?.nextSeq === seq) {
        stored = undefined;
        await writeTx((kv, meta, pages, abort, finished) => {
          // add, not put: a record of another tab at a position fails it (ConstraintError),
          // aborting the transaction. Another tab's records start at seq, or a compaction
          // deleted them, which the lease tells (below).
          // The error aborts the transaction (its event is not cancelled), also once committing.
          const add = (rec, key) => {
            kv.add(rec, key).onerror = (ev) => {
              if (ev.target.error?.name === "ConstraintError") abort(Object.assign(new Error("tabletop: another tab wrote meanwhile"), { speculation: true }));
            };
          };
          const caught = { head: expected, nextSeq: seq, entries: [] };
          runLoading(kv, pages, seq, (loaded, resumed) => run(caught, loaded, resumed), (out) => (put(kv, caught, out, add), finished()), abort);
        }, (gen, meta, firstSeq, abort) => {
          if (gen === dir.gen) return false;
          // Another tab compacted meanwhile. If it folded records this tab never applied,
          // the check above cannot see them any more, and the records put here would land
          // below the log's start: run the writes again on the state it left.
          if (!(firstSeq <= seq)) {
            abort(Object.assign(new Error("tabletop: another tab wrote and compacted meanwhile"), { speculation: true }));
            return true;
          }
          // It folded only what this tab had applied, maybe splitting pages: the records list them anew.
          readDirectory(meta, dir, gen, () => stored?.sets.forEach((s, i) => stored.kv.put(logRecord(s, dir, s.total), logKey(from + i))));
          return true;
        }, holding);
      } else {
        await writeTx((kv, meta, pages, abort, finished) => {
          readSince(kv, seq, (caught) => {
            // The records' touches need the pages as they are: another tab may have split some.
            readDirectory(meta, dir, caught.head.gen, () => runLoading(kv, pages, caught.nextSeq, (loaded, resumed) => run(caught, loaded, resumed), (out) => (put(kv, caught, out), finished()), abort));
          }, abort);
        }, undefined, holding);
      }
      known = head;
      return from;
    },
    /**
     * compact writes the pages the log touched anew, for a replica that has applied every
     * change set before seq and nothing else: in one read-write transaction, if the log
     * still ends at seq, it reads the log and the pages' keys, calls save(lo, hi, loaded)
     * for each page whose range [lo, hi) a change set touched, SLICE_MS of them per task
     * (save answers the range's records, up to about its last argument's bytes, SAVE_BYTES,
     * the rest asked for from just after the last key it answered; or { need: [lo, hi] }
     * for pages to load first, as transact's run), puts
     * them (split when past twice PAGE_BYTES), and deletes the log before seq. It resolves
     * with whether the pages now hold the log before seq (false: another tab wrote
     * meanwhile). It frees space:
     * failing for the quota it releases the ballast and tries once more.
     */
    async compact(seq, save, must = true) {
      let written, grown;
      const once = () =>
        writeTx((kv, meta, pages, abort) => {
          written = false;
          grown = undefined;
          readHead(kv, (head) => {
            if (head.nextSeq === seq && head.firstSeq === seq) written = head; // nothing to compact
            if (head.nextSeq !== seq || head.firstSeq === seq) return;
            let sets;
            kv.getAll(logRange(head.firstSeq, seq)).onsuccess = (ev) => (sets = ev.target.result);
            meta.get(DIRECTORY).onsuccess = (ev) => {
              if (sets.length !== seq - head.firstSeq) return findLogDamage(kv, head, abort); // a record gone since the open
              dir.add(ev.target.result ?? []);
              const keys = dir.keys.slice();
              const touched = new Set();
              try {
                for (const e of logEntries(sets, head.firstSeq)) eachKey(e.cs, (k) => touched.add(dir.search(k)));
              } catch (e) {
                return abort(e);
              }
              const order = [...touched].sort((a, b) => a - b);
              let n = 0;
              let from; // where the rest of page order[n] starts, once part of it is saved
              const split = [];
              runLoading(kv, pages, seq, (loaded) => {
                const started = performance.now();
                while (n < order.length) {
                  if (!loaded && performance.now() - started >= SLICE_MS) return { yield: true }; // the rest in a later task
                  const i = order[n];
                  const data = save(from ?? keys[i], keys[i + 1] ?? KEY_END, loaded, SAVE_BYTES);
                  if (data.need) return data;
                  loaded = undefined;
                  for (const p of pagesOf(data, from === undefined ? keys[i] : undefined)) pages.put(p.data, pageKey(p.first)), split.push(pageKey(p.first));
                  from = data.length >= SAVE_BYTES ? afterLastKey(data) : undefined;
                  if (from === undefined) n++;
                }
                return {};
              }, () => {
                kv.delete(logRange(0, seq));
                kv.put(encodeHead((written = { gen: head.gen + 1, chunks: 0, nextSeq: seq, firstSeq: seq })), "head");
                const next = new Directory();
                next.add([...keys.map(pageKey), ...split]);
                writeDirectory(meta, next.keys);
                meta.put(`${lease}@${written.gen}:${written.firstSeq}`, "lease"); // see writeTx
                grown = { split, gen: written.gen };
              }, abort);
            };
          }, abort);
        });
      const twice = async () => {
        try {
          await once();
        } catch (e) {
          if (e?.code !== "QuotaExceeded" || !(await releaseBallast(db))) throw e;
          await once();
        }
        return true;
      };
      // Only the writer lock's holder compacts: a tab writing alone holds it (see transact).
      if (!(alone ? await twice() : await withWriterLock(name, must, twice))) return false;
      if (grown) {
        // Committed: the directory, which read every page's key in it, is the new pages'.
        dir.add(grown.split);
        dir.gen = grown.gen;
      }
      if (written && known?.nextSeq === written.nextSeq) known = written;
      if (written) pageLog.clear();
      return Boolean(written);
    },
    /**
     * pageLogHeavy tells whether a page carries PAGE_LOG_BYTES of the log this tab wrote
     * since the last compaction it knows of, and the storage quota leaves ROOM_BYTES for
     * compacting it (where the browser tells: navigator.storage.estimate).
     */
    pageLogHeavy() {
      return pageLog.heavy();
    },
    /** folded forgets the log this tab wrote: another tab compacted it into the pages. */
    folded() {
      pageLog.clear();
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
    writeAlone,
    /** taken stops this storage's writes: another tab took the store over (its Web Lock stolen). */
    taken() {
      lost = true;
      writeAlone(false);
    },
    close() {
      closed = true;
      writeAlone(false);
      db.close();
      release();
    },
  };
}

/**
 * PageLog counts, per page, the bytes of the log records a tab wrote that touch it, so
 * that the tab compacts before loading one page means applying too much log (see
 * PAGE_LOG_BYTES). It counts only its own tab's records: another tab counts its own.
 */
class PageLog {
  constructor() {
    this.bytes = new Map(); // a page's key, as text → bytes of log touching it
    this.peak = 0; // the most bytes of log touching one page
    this.askAbove = PAGE_LOG_BYTES; // the peak past which heavy asks for the quota again
  }

  /** add counts a log record (logRecord's) against each page it touches. */
  add(rec) {
    for (const page of rec.touches) {
      const k = String.fromCharCode.apply(null, page);
      const n = (this.bytes.get(k) ?? 0) + rec.cs.length;
      this.bytes.set(k, n);
      if (n > this.peak) this.peak = n;
    }
  }

  /** clear forgets every record: they are compacted into the pages. */
  clear() {
    this.bytes.clear();
    this.peak = 0;
    this.askAbove = PAGE_LOG_BYTES;
  }

  /**
   * heavy resolves with whether a page carries more than PAGE_LOG_BYTES and the quota
   * leaves ROOM_BYTES; without room, it asks again only once the peak has grown by
   * another PAGE_LOG_BYTES.
   */
  async heavy() {
    if (this.peak <= this.askAbove) return false;
    const estimate = await globalThis.navigator?.storage?.estimate?.().catch(() => undefined);
    if (!estimate || estimate.quota - estimate.usage >= ROOM_BYTES) return true;
    this.askAbove = this.peak + PAGE_LOG_BYTES;
    return false;
  }
}

/**
 * writerLock is the name of the store's writer lock, a Web Lock taken exclusively by a tab
 * that writes alone for as long as it does, by a compaction, and by an exclusive opener
 * writing its lease (see the top of this file).
 */
const writerLock = (name) => `tabletop:${name}:writer`;

/**
 * withWriterLock runs fn holding the store's writer lock, waiting for it if wait, else
 * resolving with false at once if another tab holds it; where there are no Web Locks it
 * runs fn.
 */
function withWriterLock(name, wait, fn) {
  const locks = globalThis.navigator?.locks;
  if (!locks) return fn();
  return locks.request(writerLock(name), wait ? {} : { ifAvailable: true }, (lock) => (lock ? fn() : false));
}

function openDatabase(name) {
  const req = indexedDB.open(dbName(name), VERSION);
  req.onupgradeneeded = (ev) => upgrade(req.result, req.transaction, ev.oldVersion);
  return done(req);
}

/**
 * BALLAST is the size of a value kept in the database only to be deleted when the storage
 * quota is full: a browser refuses every write, even a delete's small log record, once
 * usage exceeds the quota, and deleting the ballast brings it back under. It is random,
 * so that the browser's compression cannot shrink it.
 */
const BALLAST = 512 << 10;

/**
 * readLease reads, in one read-only transaction, the shared lease a sharing opener adopts
 * (lease: undefined when there is none, or an exclusive opener wrote the last one: then
 * writeLease writes one) and whether the ballast is there.
 */
async function readLease(db) {
  const meta = db.transaction(META).objectStore(META);
  const [v, ballast] = await Promise.all([done(meta.get("lease")), hasBallast(meta)]);
  return { lease: typeof v === "string" && v.startsWith("shared:") ? leaseOf(v).lease : undefined, ballast };
}

/**
 * hasBallast resolves with whether the object store meta holds the ballast. A key cursor
 * finds it in a fraction of what getKey takes, which in Chromium costs as much as reading
 * the 512 KiB value (milliseconds, on every open).
 */
async function hasBallast(meta) {
  return (await done(meta.openKeyCursor(IDBKeyRange.only("ballast")))) !== null;
}

/** keepBallast writes the ballast if it is missing and there is room for it. */
async function keepBallast(db) {
  if (await hasBallast(db.transaction(META).objectStore(META))) return;
  const bytes = new Uint8Array(BALLAST);
  for (let i = 0; i < BALLAST; i += 65536) crypto.getRandomValues(bytes.subarray(i, i + 65536));
  const tx = db.transaction(META, "readwrite");
  tx.objectStore(META).put(bytes, "ballast");
  await complete(tx).catch(() => {}); // no room: the store opens all the same
}

/** releaseBallast deletes the ballast; it reports whether there was one. */
async function releaseBallast(db) {
  if (!(await hasBallast(db.transaction(META).objectStore(META)))) return false;
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
    if (shared && typeof ev.target.result === "string" && ev.target.result.startsWith("shared:")) lease = leaseOf(ev.target.result).lease;
    else meta.put(fresh, "lease");
  };
  try {
    await complete(tx);
    return lease;
  } catch (e) {
    if (e?.name !== "QuotaExceededError") throw e;
    return leaseOf(await done(db.transaction(META).objectStore(META).get("lease"))).lease;
  }
}

/**
 * leaseOf reads the lease record: "{lease}", or "{lease}@{gen}:{firstSeq}" once a
 * compaction wrote the pages' generation gen and the log's new first sequence number
 * beside it, so that a commit that reads no head still learns of it (a tab that writes
 * alone, transact's speculate). Writing a new lease makes every earlier opener's commits
 * fail, so a record without gen is one no compaction followed.
 */
function leaseOf(v) {
  const at = typeof v === "string" ? v.lastIndexOf("@") : -1;
  if (at < 0) return { lease: v, gen: undefined, firstSeq: undefined };
  const [gen, firstSeq] = v.slice(at + 1).split(":");
  return { lease: v.slice(0, at), gen: Number(gen), firstSeq: firstSeq === undefined ? undefined : Number(firstSeq) };
}

/**
 * acquireLock takes the store's Web Lock, shared or exclusive (mode "fail" | "wait" |
 * "steal"), and returns the function that releases it; onLost is called if another
 * opener steals it. A shared lock waits up to timeout for an exclusive holder. Where there
 * are no Web Locks (Node), only the lease protects the database.
 */
function acquireLock(name, mode, timeout, onLost) {
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
        else onLost(); // stolen by an exclusive opener
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
