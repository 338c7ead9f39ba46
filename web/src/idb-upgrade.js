// Converting a persistent store's database of an older version in its upgrade
// transaction (idb.js opens it at VERSION): version 1 kept a whole snapshot (snap/{gen}/{n})
// instead of pages, which is cut into pages; the log of versions 1 and 2 gets its index
// (touches) and the directory of pages is written; version 3's records are version 4's.
// The upgrade commits whole or not at all.

import { splitPage } from "./load.js";
import { KV, META, PAGES, TOUCHES, Carry, Directory, PAGE_BYTES, allLog, concat, encodeHead, hex, logEntry, logRecord, pageKey, parseHead, writeDirectory } from "./idb-format.js";

/**
 * upgrade brings the database of tx (its versionchange transaction, db its database) from
 * oldVersion (0 for a new one) to the current version.
 */
export function upgrade(db, tx, oldVersion) {
  if (oldVersion < 1) {
    db.createObjectStore(KV);
    db.createObjectStore(META);
  }
  if (oldVersion < 2) db.createObjectStore(PAGES);
  if (oldVersion < 3) {
    tx.objectStore(KV).createIndex(TOUCHES, TOUCHES, { multiEntry: true });
    const index = () => oldVersion > 0 && indexLog(tx); // and lists the pages
    if (oldVersion === 1) snapshotToPages(tx, index);
    else index();
  }
  // Version 4 changes no record: only what its tabs do (a compaction takes the writer
  // lock, see idb.js); opening at 4 keeps out tabs of version 3's code, which compact without it.
}

/** snapPrefix is the prefix of the keys of version 1's snapshot of generation gen, in chunks. */
const snapPrefix = (gen) => `snap/${hex(gen, 16)}/`; // version 1's snapshot chunks

const snapRange = (gen) => IDBKeyRange.bound(snapPrefix(gen), snapPrefix(gen) + "\uffff");
const decoder = new TextDecoder();

/**
 * chain runs requests in sequence within a transaction: track(req, fn) calls fn with the
 * request's result, and then() runs once every tracked request, and every one tracked by
 * their callbacks, has answered.
 */
function chain(then) {
  let pending = 0;
  return (req, fn) => {
    pending++;
    req.onsuccess = (ev) => {
      fn?.(ev.target.result);
      if (--pending === 0) then();
    };
  };
}

/**
 * snapshotToPages converts a version 1 database in its upgrade transaction: its snapshot
 * (covering the log before firstSeq, in key order, as buntdb saves) is cut into pages and
 * deleted; then() runs once it has. The upgrade commits whole or not at all.
 */
function snapshotToPages(tx, then) {
  const kv = tx.objectStore(KV);
  const pages = tx.objectStore(PAGES);
  const track = chain(then);
  track(kv.get("head"), (raw) => {
    const head = parseHead(raw);
    track(kv.getAll(snapRange(head.gen)), (chunks) => {
      if (chunks.length !== head.chunks) return tx.abort();
      const parts = splitPage(concat(chunks), PAGE_BYTES);
      if (parts.length > 0) parts[0].first = new Uint8Array(0);
      for (const p of parts) pages.put(p.data, pageKey(p.first));
      kv.delete(IDBKeyRange.bound("snap/", "snap/\uffff"));
      if (chunks.length > 0 || head.gen > 0) kv.put(encodeHead({ ...head, chunks: 0 }), "head");
    });
    // Each note goes into the log record of its commit's first change set.
    const notes = IDBKeyRange.bound("note/", "note/\uffff");
    let keys;
    kv.getAllKeys(notes).onsuccess = (ev) => (keys = ev.target.result);
    track(kv.getAll(notes), (list) =>
      list.forEach((note, i) => {
        const key = `log/${keys[i].slice(5)}`;
        track(kv.get(key), (cs) => cs && kv.put({ cs, changes: JSON.parse(decoder.decode(note)) }, key));
      }),
    );
    kv.delete(notes);
  });
}

/**
 * indexLog fills the log's index in the upgrade transaction of a database of version 1
 * or 2: each record is written again as logRecord writes it, with the pages as they are.
 */
function indexLog(tx) {
  const kv = tx.objectStore(KV);
  const dir = new Directory();
  kv.get("head").onsuccess = (ev) => {
    const head = parseHead(ev.target.result);
    tx.objectStore(PAGES).getAllKeys().onsuccess = (ev) => {
      dir.add(ev.target.result);
      dir.gen = head.gen;
      writeDirectory(tx.objectStore(META), dir.keys);
      let total = 0;
      const carry = new Carry();
      kv.openCursor(allLog()).onsuccess = (ev) => {
        const cursor = ev.target.result;
        if (!cursor) return;
        const e = logEntry(cursor.value, cursor.key);
        total += e.cs.length;
        carry.add(e.cs);
        cursor.update(logRecord({ ...e, carry: carry.bytes() }, dir, total));
        cursor.continue();
      };
    };
  };
}
