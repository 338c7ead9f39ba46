// The store in IndexedDB as key-range pages (src/idb.js, src/store.js): opening reads no
// page and no log record but the last, a read loads the pages it needs
// with exactly the log records that touch them, a compaction rewrites only the pages the
// log touched and splits big ones, tabs defer each other's commits for ranges they have
// not loaded and find each other's records in the log (also a tab that wrote alone and
// missed a compaction), and databases of version 1 (a whole snapshot) and 2 (a log without its
// index) are converted on open.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fresh, collect } from "./helpers.js";
import { openStore, deleteStore, TableClient } from "../tabletop.js";
import { loadEngine } from "../src/engine.js";
import { eachCommand, eachKey, splitPage } from "../src/load.js";
import { logEntry } from "../src/idb-format.js";
import { quotaExceeded } from "../src/idb.js";

const blob = "x".repeat(500);

/** filled opens a store with table "big": parts partitions of 50 entities of about 600 bytes, compacted. */
async function filled(t, parts = 40) {
  const name = fresh("pages");
  const store = await openStore(name);
  t.after(async () => (await store.close().catch(() => {}), await deleteStore(name)));
  const c = new TableClient(store, "big");
  await c.createTable();
  for (let p = 0; p < parts; p++) {
    const pk = `p${String(p).padStart(2, "0")}`;
    await c.submitTransaction(Array.from({ length: 50 }, (_, r) => ["create", { partitionKey: pk, rowKey: `r${String(r).padStart(2, "0")}`, blob, n: p * 100 + r }]));
  }
  await store.compact();
  return { name, store, c };
}

/** raw reads every record of one object store of a store's database: [[key, value]]. */
async function raw(name, objectStore) {
  const db = await new Promise((resolve, reject) => {
    const req = indexedDB.open(`tabletop:${name}`);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  const os = db.transaction(objectStore).objectStore(objectStore);
  const [keys, values] = await Promise.all([os.getAllKeys(), os.getAll()].map((req) => new Promise((r) => (req.onsuccess = () => r(req.result)))));
  db.close();
  return keys.map((k, i) => [k instanceof ArrayBuffer ? Buffer.from(k).toString("hex") : k, values[i]]);
}

/** spyLoads records how many pages each load of a store hands to the engine. */
function spyLoads(store) {
  const loads = [];
  const load = store._load.bind(store);
  store._load = (l) => (loads.push(l.pages.length), load(l));
  return loads;
}

test("reopening reads no page; a read loads only the pages it needs", async (t) => {
  const { name, store, c } = await filled(t);
  await c.upsertEntity({ partitionKey: "p07", rowKey: "r10", blob, n: -1 }, "Replace"); // in the log only
  const before = await collect(c.listEntities());
  await store.close();
  const pages = await raw(name, "pages");
  assert.ok(pages.length >= 8, `${pages.length} pages`);

  const getAll = IDBObjectStore.prototype.getAll;
  let pageReads = 0;
  IDBObjectStore.prototype.getAll = function (...args) {
    if (this.name === "pages") pageReads++;
    return getAll.apply(this, args);
  };
  let again;
  try {
    again = await openStore(name);
  } finally {
    IDBObjectStore.prototype.getAll = getAll;
  }
  t.after(() => again.close().catch(() => {}));
  assert.equal(pageReads, 0, "opening read pages");
  const loads = spyLoads(again);
  const a = new TableClient(again, "big");
  assert.equal((await a.getEntity("p07", "r10")).n, -1);
  assert.equal((await a.getEntity("p31", "r02")).n, 3102);
  const loaded = loads.reduce((n, k) => n + k, 0);
  assert.ok(loaded <= 6 && loaded < pages.length / 2, `two point reads loaded ${loaded} of ${pages.length} pages`);
  const after = await collect(a.listEntities());
  assert.deepEqual(after.map((e) => [e.partitionKey, e.rowKey, e.n, e.etag]), before.map((e) => [e.partitionKey, e.rowKey, e.n, e.etag]));
});

test("a compaction rewrites only the pages the log touched", async (t) => {
  const { name, store, c } = await filled(t);
  const before = new Map(await raw(name, "pages"));
  await c.updateEntity({ partitionKey: "p20", rowKey: "r20", n: 0 }, "Merge");
  await store.compact();
  const after = new Map(await raw(name, "pages"));
  assert.deepEqual([...after.keys()], [...before.keys()]);
  const changed = [...after].filter(([k, v]) => Buffer.compare(Buffer.from(v), Buffer.from(before.get(k))) !== 0);
  // The entity's page, and the page holding the store's clock (every write moves it).
  const holds = (v, text) => Buffer.from(v).includes(Buffer.from(text));
  assert.equal(changed.length, 2, `${changed.length} pages rewritten for one entity`);
  assert.ok(changed.some(([, v]) => holds(v, "e\x00big\x00p20\x00r20")) && changed.some(([, v]) => holds(v, "m\x00clock")));
  assert.deepEqual(await raw(name, "kv").then((kv) => kv.map(([k]) => k)), ["head"], "the log is gone");
});

test("a page grown past twice its size is split at the compaction", async (t) => {
  const name = fresh("pages");
  let store = await openStore(name);
  t.after(async () => (await store.close().catch(() => {}), await deleteStore(name)));
  const c = new TableClient(store, "one");
  await c.createTable();
  for (let i = 0; i < 8; i++) await c.submitTransaction(Array.from({ length: 50 }, (_, r) => ["create", { partitionKey: "a", rowKey: `${i}-${String(r).padStart(2, "0")}`, blob: "y".repeat(1000) }]));
  await store.compact();
  const pages = await raw(name, "pages");
  assert.ok(pages.length >= 4, `${pages.length} pages for 400 KB`);
  assert.ok(pages.every(([, v]) => v.length < 70 << 10), `a page of ${Math.max(...pages.map(([, v]) => v.length))} bytes`);
  assert.equal(pages[0][0], "70", "the first page's range starts at the empty key");
  await store.close();
  store = await openStore(name);
  assert.equal((await collect(new TableClient(store, "one").listEntities())).length, 400);
});

test("a tab compacts once its log touching one page passes 512 KiB and its writes pause, where the quota has room", async (t) => {
  // Appends of 50 KB (far below the 4 MiB of log that compacts a store) all land on the
  // table's last page: a read of it would apply all of them.
  const append = async (quota, close = false) => {
    const name = fresh("pages");
    const store = await openStore(name);
    t.after(async () => (await store.close().catch(() => {}), await deleteStore(name)));
    const c = new TableClient(store, "one");
    await c.createTable();
    const nav = (globalThis.navigator ??= {}); // Node 20 has none
    const estimate = nav.storage;
    nav.storage = quota && { estimate: async () => ({ usage: 1 << 20, quota }) };
    try {
      for (let i = 0; i < 16; i++) await c.submitTransaction(Array.from({ length: 50 }, (_, r) => ["create", { partitionKey: "a", rowKey: `${String(i).padStart(2, "0")}-${String(r).padStart(2, "0")}`, blob: "y".repeat(1000) }]));
      const logged = (await raw(name, "kv")).filter(([k]) => k.startsWith("log/")).length;
      assert.equal(logged, 17, "no compaction while the writes come");
      if (close) await store.close(); // which compacts at once
      else await new Promise((r) => setTimeout(r, 400)); // the writes paused: it compacts
      while (store._pumping) await store._pumping;
    } finally {
      nav.storage = estimate;
    }
    return (await raw(name, "kv")).filter(([k]) => k.startsWith("log/")).length;
  };
  const roomy = await append(1 << 30);
  assert.equal(roomy, 0, "the log is folded into the pages");
  assert.equal(await append(1 << 30, true), roomy, "closing, the same");
  assert.equal(await append(), roomy, "where the browser gives no estimate, the same");
  assert.equal(await append(20 << 20), 17, "with less than 32 MiB of room under the quota, no compaction");
});

test("an automatic compaction that fails is reported on the store's error event, and tried again", async (t) => {
  const name = fresh("pages");
  const store = await openStore(name);
  t.after(async () => (await store.close().catch(() => {}), await deleteStore(name)));
  assert.throws(() => store.on("change", () => {}), TypeError);
  const reported = [];
  store.on("error", (e) => reported.push(e.code));
  const c = new TableClient(store, "one");
  await c.createTable();
  const compact = store._storage.compact;
  let fail = 1;
  store._storage.compact = (...args) => (fail-- > 0 ? Promise.reject(quotaExceeded(name)) : compact(...args));
  const logged = async () => (await raw(name, "kv")).filter(([k]) => k.startsWith("log/")).length;
  const append = (i) => c.submitTransaction(Array.from({ length: 50 }, (_, r) => ["create", { partitionKey: "a", rowKey: `${String(i).padStart(2, "0")}-${String(r).padStart(2, "0")}`, blob: "y".repeat(1000) }]));
  for (let i = 0; i < 16; i++) await append(i);
  await new Promise((r) => setTimeout(r, 400)); // the writes paused: it compacts, and fails
  while (store._pumping) await store._pumping;
  assert.deepEqual(reported, ["QuotaExceeded"]);
  assert.equal(await logged(), 17, "nothing compacted");
  await append(16);
  await new Promise((r) => setTimeout(r, 400));
  while (store._pumping) await store._pumping;
  assert.equal(await logged(), 0, "compacted after the next commit");
  assert.deepEqual(reported, ["QuotaExceeded"]);
});

test("a tab defers the other tab's commits for ranges it has not loaded, across compactions", async (t) => {
  const { name, store: sa, c: a } = await filled(t, 20);
  const sb = await openStore(name);
  t.after(() => sb.close().catch(() => {}));
  const b = new TableClient(sb, "big");
  await new Promise((r) => setTimeout(r, 20));
  assert.equal((await b.getEntity("p01", "r01")).n, 101); // b loads p01's pages only
  await a.upsertEntity({ partitionKey: "p01", rowKey: "r01", n: 1 }, "Merge");
  await a.upsertEntity({ partitionKey: "p15", rowKey: "r15", n: 1 }, "Merge");
  await new Promise((r) => setTimeout(r, 20)); // b applies p01's, defers p15's
  await sa.compact();
  assert.equal((await b.getEntity("p01", "r01")).n, 1);
  assert.equal((await b.getEntity("p15", "r15")).n, 1);
  // b hears nothing more: a's next commits and compaction put pages past b's log position.
  sb._channel.onmessage = null;
  await a.upsertEntity({ partitionKey: "p16", rowKey: "r16", n: 2 }, "Merge");
  await sa.compact();
  const resets = [];
  sb._subscribe((c) => c.reset && resets.push(c));
  assert.equal((await b.getEntity("p16", "r16")).n, 2);
  assert.equal(resets.length, 1, "b started again from the pages");
  assert.equal((await b.getEntity("p01", "r01")).n, 1);
});

/**
 * oldStore writes, in an engine of its own, what an older database held: the snapshot of
 * table "old" with 300 entities, and the change sets after it (p0/0 replaced with after:
 * true, p1/1 deleted, then each of more: [kind, entity, etag]).
 */
async function oldStore(...more) {
  const engine = await loadEngine();
  const h = String(engine.call(["open", "", "outbox", new Uint8Array(0)]).json);
  const sets = [];
  const write = (...args) => sets.push(...engine.call([args[0], h, ...args.slice(1)]).records.map((r) => r.data));
  write("createTable", "old");
  for (let i = 0; i < 300; i++) write("write", "old", "create", JSON.stringify({ PartitionKey: `p${i % 7}`, RowKey: String(i), blob }), "");
  const snapshot = engine.call(["compact", h]).records.find((r) => r.kind === 2).data;
  sets.length = 0;
  write("write", "old", "upsertReplace", JSON.stringify({ PartitionKey: "p0", RowKey: "0", after: true }), "");
  write("write", "old", "delete", JSON.stringify({ PartitionKey: "p1", RowKey: "1" }), "*");
  for (const [kind, entity, etag] of more) write("write", "old", kind, JSON.stringify(entity), etag);
  engine.call(["close", h]);
  return { snapshot, sets };
}

test("a database of version 1 (a whole snapshot and its log) is cut into pages on first open", async (t) => {
  const name = fresh("v1");
  t.after(() => deleteStore(name));
  const { snapshot, sets } = await oldStore();
  const enc = new TextEncoder();
  const db = await new Promise((resolve, reject) => {
    const req = indexedDB.open(`tabletop:${name}`, 1);
    req.onupgradeneeded = () => (req.result.createObjectStore("kv"), req.result.createObjectStore("meta"));
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  const tx = db.transaction("kv", "readwrite");
  const kv = tx.objectStore("kv");
  kv.put(snapshot, "snap/0000000000000003/00000000");
  sets.forEach((cs, i) => kv.put(cs, `log/${(5 + i).toString(16).padStart(16, "0")}`));
  kv.put(enc.encode(`3 1 ${5 + sets.length} 5`), "head");
  kv.put(enc.encode(JSON.stringify([{ table: "old", kind: "upsertReplace", partitionKey: "p0", rowKey: "0" }])), "note/0000000000000005");
  await new Promise((r) => (tx.oncomplete = r));
  db.close();

  const store = await openStore(name);
  t.after(() => store.close().catch(() => {}));
  const rows = await collect(new TableClient(store, "old").listEntities());
  assert.equal(rows.length, 299);
  assert.equal(rows.find((e) => e.rowKey === "0").after, true);
  assert.equal(rows.some((e) => e.rowKey === "1"), false);
  const keys = (await raw(name, "kv")).map(([k]) => k);
  assert.equal(keys.filter((k) => k.startsWith("snap/") || k.startsWith("note/")).length, 0, "the snapshot or a note is still there");
  const first = (await raw(name, "kv")).find(([k]) => k === "log/0000000000000005")[1];
  assert.equal(logEntry(first).changes[0].rowKey, "0", "the note is not in its log record");
  assert.ok((await raw(name, "pages")).length >= 3);
});

test("a commit of a tab writing alone puts its log record and nothing else", async (t) => {
  const name = fresh("pages");
  const store = await openStore(name);
  t.after(async () => (await store.close().catch(() => {}), await deleteStore(name)));
  const c = new TableClient(store, "one");
  await c.createTable();
  await c.createEntity({ partitionKey: "p", rowKey: "0" }); // the ranges it needs are loaded
  await new Promise((r) => setTimeout(r, 150));
  assert.equal(store._alone, true);
  const calls = [];
  const methods = ["add", "put", "get", "getAll", "getKey", "getAllKeys", "openKeyCursor", "openCursor", "count", "delete"];
  const restores = [spy(IDBObjectStore.prototype, methods, (m, os) => calls.push(`${m} ${os.name}`)), spy(IDBTransaction.prototype, ["commit"], () => calls.push("commit"))];
  try {
    await c.createEntity({ partitionKey: "p", rowKey: "1" });
  } finally {
    restores.forEach((restore) => restore());
  }
  // The log record where none is yet, the lease, and the commit asked for once the lease is checked.
  assert.deepEqual(calls.sort(), ["add kv", "commit", "get meta"]);
});

/**
 * countLogReads counts the log records (values with cs) that IndexedDB hands the module
 * while fn runs, through object stores' and the log index's reads.
 */
async function countLogReads(fn) {
  let n = 0;
  const count = (v) => (n += (Array.isArray(v) ? v : [v]).filter((x) => x?.cs).length);
  const onRead = (m, _, req) => req.addEventListener("success", () => count(m === "openCursor" ? req.result?.value : req.result));
  const restores = [IDBObjectStore.prototype, IDBIndex.prototype].map((proto) => spy(proto, ["get", "getAll", "openCursor"], onRead));
  try {
    return { out: await fn(), reads: () => n };
  } finally {
    restores.forEach((restore) => restore());
  }
}

/**
 * spy makes each of methods on proto (an IndexedDB prototype) call onCall(method, target,
 * request) once it has made its request; it returns the function that undoes it.
 */
function spy(proto, methods, onCall) {
  const saved = methods.map((m) => proto[m]);
  methods.forEach((m, i) => (proto[m] = function (...args) {
    const req = saved[i].apply(this, args);
    onCall(m, this, req);
    return req;
  }));
  return () => methods.forEach((m, i) => (proto[m] = saved[i]));
}

/** logRecords reads a store's log: [[seq, record]] in sequence order. */
async function logRecords(name) {
  return (await raw(name, "kv")).filter(([k]) => k.startsWith("log/")).map(([k, v]) => [parseInt(k.slice(4), 16), v]);
}

/** keysOf lists the keys a change set writes, as text. */
function keysOf(cs) {
  const out = [];
  eachKey(cs, (k) => out.push(Buffer.from(k).toString("latin1")));
  return out;
}

test("opening reads no log record but the last; a read of a page no commit touched reads none", async (t) => {
  const { name, store, c } = await filled(t);
  for (let i = 0; i < 60; i++) await c.upsertEntity({ partitionKey: `p0${i % 3}`, rowKey: String(i % 7), n: i, blob }, "Replace");
  const log = await logRecords(name);
  assert.ok(log.length >= 60, `${log.length} log records`);
  await store.close();

  // The pages are listed in meta, written with them: listing their keys would read them.
  const listed = (await raw(name, "meta")).find(([k]) => k === "directory")[1].map((k) => Buffer.from(k).toString("hex"));
  assert.deepEqual(listed, (await raw(name, "pages")).map(([k]) => k));
  const scans = [];
  const restore = spy(IDBObjectStore.prototype, ["getAllKeys", "openCursor", "openKeyCursor", "count"], (m, os) => os.name === "pages" && scans.push(m));
  let again, a, read;
  try {
    const opened = await countLogReads(async () => (again = await openStore(name)));
    t.after(() => again.close().catch(() => {}));
    assert.equal(opened.reads(), 1, `opening read ${opened.reads()} of ${log.length} log records`);
    a = new TableClient(again, "big");
    read = await countLogReads(() => a.getEntity("p31", "r02"));
  } finally {
    restore();
  }
  assert.deepEqual(scans, [], "the pages' keys were listed");
  assert.equal(read.out.n, 3102);
  assert.equal(read.reads(), 0, "a read of an untouched page read log records");
  const touched = await countLogReads(() => a.getEntity("p01", "6"));
  assert.equal(touched.out.n, 55);
  assert.ok(touched.reads() >= 20, `the page of p01 was loaded with ${touched.reads()} log records`);
});

test("a page load applies exactly the log records that touch it, in sequence order", async (t) => {
  const { name, store, c } = await filled(t);
  for (let i = 0; i < 30; i++) await c.upsertEntity({ partitionKey: i % 2 ? "p12" : "p27", rowKey: `r${String(i % 5).padStart(2, "0")}`, n: -i, blob }, "Replace");
  await c.updateEntity({ partitionKey: "p12", rowKey: "r03", n: 7 }, "Merge");
  const log = await logRecords(name);
  await store.close();

  const again = await openStore(name);
  t.after(() => again.close().catch(() => {}));
  const loads = [];
  const load = again._load.bind(again);
  again._load = (l) => (loads.push(l), load(l));
  const a = new TableClient(again, "big");
  assert.equal((await a.getEntity("p12", "r03")).n, 7);
  assert.equal((await a.getEntity("p12", "r01")).n, -21);
  for (const l of loads) {
    const lo = Buffer.from(l.lo).toString("latin1"), hi = Buffer.from(l.hi).toString("latin1");
    const inRange = (k) => k >= lo && k < hi && k !== "m\x00clock";
    const expected = log.filter(([, r]) => keysOf(r.cs).some(inRange)).map(([, r]) => Buffer.from(r.cs));
    assert.deepEqual(l.sets.map((cs) => Buffer.from(cs)), expected, `the records loaded with [${JSON.stringify(lo)}, ${JSON.stringify(hi)})`);
  }
  assert.ok(loads.some((l) => l.sets.length >= 15), "no load carried p12's records");
});

/**
 * greeted waits until two open stores of one name have heard each other (store.js
 * _receive): from then on neither takes itself to write alone, however late its quiet
 * timer fires on a busy machine (a fixed wait was not always long enough).
 */
async function greeted(a, b) {
  while (!a._heard || !b._heard) await new Promise((r) => setTimeout(r, 5));
}

test("a tab that writes alone and missed another tab's compaction lists the pages as they are in its records", async (t) => {
  const { name, store: sa, c: a } = await filled(t, 10);
  const sb = await openStore(name);
  t.after(() => sb.close().catch(() => {}));
  await greeted(sa, sb);
  // Neither hears the other from now on; a believes it writes alone.
  sa._channel.onmessage = sb._channel.onmessage = null;
  const big = "q".repeat(20000);
  for (let i = 0; i < 10; i++) await a.upsertEntity({ partitionKey: "p05", rowKey: `s${i}`, big });
  const before = (await raw(name, "pages")).length;
  await sb.compact(); // b catches up from the log, and splits p05's page
  const pages = (await raw(name, "pages")).map(([k]) => k);
  assert.ok(pages.length > before, "the compaction split no page");
  sa._alone = true;
  await a.upsertEntity({ partitionKey: "p05", rowKey: "s9", n: 99 }, "Merge");
  assert.equal(sa._alone, true, "a compaction alone needs no reload");
  const [[, rec]] = await logRecords(name);
  const key = Buffer.from("p" + "e\x00big\x00p05\x00s9", "latin1").toString("hex");
  const page = pages.filter((k) => k <= key).at(-1);
  assert.deepEqual(rec.touches.map((k) => Buffer.from(k).toString("hex")), [page], "the record lists a page that is no longer its key's");

  const sc = await openStore(name);
  t.after(() => sc.close().catch(() => {}));
  const e = await new TableClient(sc, "big").getEntity("p05", "s9");
  assert.equal(e.n, 99);
  assert.equal(e.big.length, 20000);
});

test("a tab that writes alone and missed another tab's writes and compaction writes again on the state it left", async (t) => {
  const { name, store: sa, c: a } = await filled(t, 10);
  const sb = await openStore(name);
  t.after(() => sb.close().catch(() => {}));
  await greeted(sa, sb);
  sa._channel.onmessage = sb._channel.onmessage = null; // neither hears the other
  const b = new TableClient(sb, "big");
  await b.upsertEntity({ partitionKey: "p03", rowKey: "from-b", n: 1 });
  await sb.compact(); // folds b's record into the pages: no log record is left at a's position
  sa._alone = true;
  await a.upsertEntity({ partitionKey: "p04", rowKey: "from-a", n: 2 });
  assert.equal(sa._alone, false, "a's speculation was not undone");
  assert.equal((await a.getEntity("p03", "from-b")).n, 1, "a did not reload b's write");

  const sc = await openStore(name);
  t.after(() => sc.close().catch(() => {}));
  const c = new TableClient(sc, "big");
  assert.equal((await c.getEntity("p04", "from-a")).n, 2, "a's acknowledged write is lost");
  assert.equal((await c.getEntity("p03", "from-b")).n, 1);
});

test("two tabs: a tab loads the other's writes that are only in the log", async (t) => {
  const { name, store: sa, c: a } = await filled(t, 20);
  const sb = await openStore(name);
  t.after(() => sb.close().catch(() => {}));
  const b = new TableClient(sb, "big");
  await new Promise((r) => setTimeout(r, 20));
  assert.equal((await b.getEntity("p01", "r01")).n, 101);
  sb._channel.onmessage = null; // b hears nothing: a's writes reach it through the log
  await a.upsertEntity({ partitionKey: "p01", rowKey: "r01", n: 1 }, "Merge");
  await a.upsertEntity({ partitionKey: "p15", rowKey: "r15", n: 2 }, "Merge");
  await a.deleteEntity("p16", "r16");
  assert.equal((await b.getEntity("p15", "r15")).n, 1515, "b read past its replica's position");
  await sb.sync();
  assert.equal((await b.getEntity("p01", "r01")).n, 1);
  assert.equal((await b.getEntity("p15", "r15")).n, 2);
  await assert.rejects(b.getEntity("p16", "r16"), (e) => e.code === "ResourceNotFound");
  // b's own write on top of a's, then a fresh tab reads both from the log.
  await b.updateEntity({ partitionKey: "p15", rowKey: "r15", m: 3 }, "Merge");
  const sc = await openStore(name);
  t.after(() => sc.close().catch(() => {}));
  const e = await new TableClient(sc, "big").getEntity("p15", "r15");
  assert.deepEqual([e.n, e.m], [2, 3]);
});

test("a database of version 2 (its log not indexed) gets the index on first open", async (t) => {
  const name = fresh("v2");
  t.after(() => deleteStore(name));
  const { snapshot, sets } = await oldStore(["upsertMerge", { PartitionKey: "p6", RowKey: "6", later: 1 }, ""]);
  const pages = splitPage(snapshot, 16 << 10);
  pages[0].first = new Uint8Array(0);
  const db = await new Promise((resolve, reject) => {
    const req = indexedDB.open(`tabletop:${name}`, 2);
    req.onupgradeneeded = () => ["kv", "meta", "pages"].forEach((s) => req.result.createObjectStore(s));
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  const tx = db.transaction(["kv", "pages"], "readwrite");
  for (const p of pages) tx.objectStore("pages").put(p.data, new Uint8Array([0x70, ...p.first]));
  const kv = tx.objectStore("kv");
  sets.forEach((cs, i) => kv.put(i === 0 ? { cs, changes: [{ table: "old", kind: "upsertReplace", partitionKey: "p0", rowKey: "0" }] } : cs, `log/${(9 + i).toString(16).padStart(16, "0")}`));
  kv.put(new TextEncoder().encode("4 0 9 9"), "head");
  await new Promise((r) => (tx.oncomplete = r));
  db.close();

  const store = await openStore(name);
  t.after(() => store.close().catch(() => {}));
  const c = new TableClient(store, "old");
  assert.equal((await c.getEntity("p6", "6")).later, 1);
  const rows = await collect(c.listEntities());
  assert.equal(rows.length, 299);
  assert.equal(rows.find((e) => e.rowKey === "0").after, true);
  assert.equal(rows.some((e) => e.rowKey === "1"), false);
  const log = await logRecords(name);
  assert.deepEqual(log.map(([seq]) => seq), [9, 10, 11]);
  assert.ok(log.every(([, r]) => r.touches?.length === 1 && r.carry?.length > 0), "a record was not indexed, or carries no clock");
  assert.equal(logEntry(log[0][1]).changes[0].rowKey, "0", "the note is not in its log record");
  await c.upsertEntity({ partitionKey: "p3", rowKey: "x" }); // the clock loads from the log's last record
  await store.close();
  const again = await openStore(name);
  t.after(() => again.close().catch(() => {}));
  assert.equal((await collect(new TableClient(again, "old").listEntities())).length, 300);
});

test("the clock reopens from the log's last record, also when the last commits moved no clock", async (t) => {
  const { name, store, c } = await filled(t, 10);
  let last;
  for (let i = 0; i < 5; i++) last = await c.upsertEntity({ partitionKey: "p09", rowKey: `z${i}`, i });
  for (let i = 0; i < 3; i++) await c.deleteEntity("p03", `r0${i}`);
  const [, rec] = (await logRecords(name)).at(-1);
  assert.ok(!keysOf(rec.cs).includes("m\x00clock"), "the last record moves the clock: the test tests nothing");
  const before = (await c.getEntity("p09", "z4")).timestamp;
  await store.close();

  const clocks = [];
  for (const [, r] of await logRecords(name)) eachCommand(r.cs, (cmd, k) => Buffer.from(k).toString("latin1") === "m\x00clock" && clocks.push(Buffer.from(cmd)));
  const again = await openStore(name);
  t.after(() => again.close().catch(() => {}));
  assert.deepEqual(Buffer.from(again._carry.cmds.get("m\x00clock")), clocks.at(-1), "the replica opened without the clock's last command");
  const a = new TableClient(again, "big");
  await a.upsertEntity({ partitionKey: "p00", rowKey: "new" }); // its page and the clock's load
  const after = (await a.getEntity("p00", "new")).timestamp;
  assert.ok(after > before, `${after} after ${before} (etag ${last.etag})`);
});

test("appending to a table touches no page a write to its older entities needs", async (t) => {
  const name = fresh("pages");
  const store = await openStore(name);
  t.after(async () => (await store.close().catch(() => {}), await deleteStore(name)));
  const c = new TableClient(store, "log");
  await c.createTable();
  const append = async (from, n) => {
    for (let i = from; i < from + n; i += 50) await c.submitTransaction(Array.from({ length: 50 }, (_, k) => ["create", { partitionKey: `p${String(Math.floor((i + k) / 100)).padStart(4, "0")}`, rowKey: String(i + k).padStart(6, "0"), blob }]));
  };
  await append(0, 1000);
  await store.compact(); // the last page holds entities, the clock and the table: cut apart
  await append(1000, 300);
  await store.close();
  const again = await openStore(name);
  t.after(() => again.close().catch(() => {}));
  // A write needs the table's record and the clock: their page, none of the appends.
  const wrote = await countLogReads(() => new TableClient(again, "log").upsertEntity({ partitionKey: "p0002", rowKey: "000250", n: 1 }, "Merge"));
  assert.equal(wrote.reads(), 0, "the write loaded the appends' log records");
  assert.equal((await new TableClient(again, "log").getEntity("p0002", "000250")).blob, blob);
  assert.equal((await new TableClient(again, "log").getEntity("p0012", "001299")).blob, blob);
});
