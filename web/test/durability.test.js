// The durability pipeline of a persistent store: the engine applies a write at once and
// hands back its records; the store resolves the write only once IndexedDB has them, and
// never lets a read see a write that is not durable yet.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fresh, rejects, collect } from "./helpers.js";
import { openStore, deleteStore, TableClient } from "../tabletop.js";

/** gated makes the store's commits (IndexedDB transactions) wait for open(); it counts them. */
function gated(store) {
  const transact = store._storage.transact;
  let open;
  const g = { calls: 0, gate: new Promise((r) => (open = r)) };
  g.open = open;
  store._storage.transact = async (seq, run) => {
    g.calls++;
    await g.gate;
    return transact(seq, run);
  };
  return g;
}

/** settled reports whether p has settled after the event loop has turned a few times. */
async function settled(p) {
  let done = false;
  p.then(() => (done = true), () => (done = true));
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 1));
  return done;
}

async function persistent(t) {
  const name = fresh();
  const store = await openStore(name);
  t.after(async () => {
    await store.close().catch(() => {});
    await deleteStore(name);
  });
  const c = new TableClient(store, "things");
  await c.createTable();
  return { name, store, c };
}

test("a write resolves only once IndexedDB has it, and reads wait for it", async (t) => {
  const { store, c } = await persistent(t);
  const g = gated(store);
  const write = c.createEntity({ partitionKey: "p", rowKey: "1", v: 1 });
  const read = c.getEntity("p", "1");
  const list = collect(c.listEntities());
  assert.equal(await settled(write), false, "the write resolved before IndexedDB committed it");
  assert.equal(await settled(read), false, "a read returned a write that is not durable");
  assert.equal(await settled(list), false, "a query returned a write that is not durable");
  g.open();
  await write;
  assert.equal((await read).v, 1);
  assert.equal((await list).length, 1);
});

test("writes issued together are committed together", async (t) => {
  const { name, store, c } = await persistent(t);
  const g = gated(store);
  const writes = Array.from({ length: 50 }, (_, i) => c.createEntity({ partitionKey: "p", rowKey: String(i).padStart(2, "0") }));
  g.open();
  await Promise.all(writes);
  assert.ok(g.calls <= 2, `${g.calls} IndexedDB commits for 50 writes`);
  await store.close();
  const again = await openStore(name);
  assert.equal((await collect(new TableClient(again, "things").listEntities())).length, 50);
  await again.close();
});

test("a failed commit fails its writes and every later one, and nothing of them is seen", async (t) => {
  const { name, store, c } = await persistent(t);
  await c.createEntity({ partitionKey: "p", rowKey: "kept", v: 0 });
  const transact = store._storage.transact;
  let fail = true;
  store._storage.transact = async (seq, run) => {
    await new Promise((r) => setTimeout(r, 5));
    if (fail) {
      fail = false;
      throw Object.assign(new Error("no room"), { code: "QuotaExceeded", statusCode: 507 });
    }
    return transact(seq, run);
  };
  const a = c.createEntity({ partitionKey: "p", rowKey: "a" });
  const b = c.upsertEntity({ partitionKey: "p", rowKey: "kept", v: 1 });
  const read = c.getEntity("p", "kept");
  await assert.rejects(a, { code: "QuotaExceeded" });
  await assert.rejects(b, { code: "QuotaExceeded" });
  assert.equal((await read).v, 0, "a read saw a write that failed");
  await rejects(c.getEntity("p", "a"), "ResourceNotFound", 404);
  // The store works again, from what IndexedDB holds.
  await c.createEntity({ partitionKey: "p", rowKey: "after" });
  await store.close();
  const again = await openStore(name);
  const rows = await collect(new TableClient(again, "things").listEntities());
  assert.deepEqual(rows.map((e) => [e.rowKey, e.v]), [["after", undefined], ["kept", 0]]);
  await again.close();
});

test("every durable change passes the commit hook, in order, before its write resolves", async (t) => {
  const { store, c } = await persistent(t);
  const seen = [];
  const off = store._subscribe((commit) => seen.push(...commit.changes.map((ch) => `${ch.kind} ${ch.table} ${ch.partitionKey ?? ""}/${ch.rowKey ?? ""} ${ch.etag ? "etag" : "-"}`)));
  const { etag } = await c.createEntity({ partitionKey: "p", rowKey: "1" });
  assert.deepEqual(seen, ["create things p/1 etag"]);
  await c.submitTransaction([["upsert", { partitionKey: "p", rowKey: "2" }], ["delete", { partitionKey: "p", rowKey: "1" }, { etag }]]);
  await rejects(c.createEntity({ partitionKey: "p", rowKey: "2" }), "EntityAlreadyExists", 409);
  off();
  await c.deleteEntity("p", "2");
  assert.deepEqual(seen, ["create things p/1 etag", "upsertMerge things p/2 etag", "delete things p/1 -"]);
});

test("IndexedDB holds pages and the log: after a compaction, the pages and the log after them", async (t) => {
  const { name, store, c } = await persistent(t);
  for (let i = 0; i < 20; i++) await c.upsertEntity({ partitionKey: "p", rowKey: String(i % 3), i });
  await store.compact();
  await c.createEntity({ partitionKey: "q", rowKey: "after" });
  await store.close();
  const db = await new Promise((resolve, reject) => {
    const req = indexedDB.open(`tabletop:${name}`);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  const keys = await new Promise((r) => (db.transaction("kv").objectStore("kv").getAllKeys().onsuccess = (ev) => r(ev.target.result)));
  const pages = await new Promise((r) => (db.transaction("pages").objectStore("pages").getAllKeys().onsuccess = (ev) => r(ev.target.result)));
  const head = await new Promise((r) => (db.transaction("kv").objectStore("kv").get("head").onsuccess = (ev) => r(new TextDecoder().decode(ev.target.result))));
  db.close();
  assert.deepEqual(keys, ["head", "log/0000000000000015"]); // its note is in the log record
  assert.deepEqual(pages.map((k) => [...new Uint8Array(k)]), [[0x70]], "one page, whose range starts at the empty key");
  assert.equal(head, "1 0 21 21"); // a commit does not write the head
  const again = await openStore(name);
  assert.equal((await collect(new TableClient(again, "things").listEntities())).length, 4);
  await again.close();
});

test("a snapshot the engine writes by itself in the middle of grouped writes loses none of them", async (t) => {
  const { name, store, c } = await persistent(t);
  const big = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`s${i}`, "y".repeat(30000)]));
  // 20 writes of about 360 KB issued together: several per transaction, and the log
  // outgrows the snapshot by 4 MiB in the middle of them.
  await Promise.all(Array.from({ length: 20 }, (_, i) => c.upsertEntity({ partitionKey: "p", rowKey: String(i).padStart(2, "0"), v: i, ...big })));
  await store.close();
  const again = await openStore(name);
  const rows = await collect(new TableClient(again, "things").listEntities({ queryOptions: { select: ["v"] } }));
  await again.close();
  assert.deepEqual(rows.map((e) => e.v), Array.from({ length: 20 }, (_, i) => i));
});

test("writes that free space and fail for the quota are tried again once the ballast is released", async (t) => {
  const { store, c } = await persistent(t);
  await c.createEntity({ partitionKey: "p", rowKey: "1" });
  await c.createEntity({ partitionKey: "p", rowKey: "2" });
  const transact = store._storage.transact;
  let failures = 0;
  // The first transaction runs the writes in the engine, stores nothing, and fails.
  store._storage.transact = ((inner) => async (seq, run) => {
    if (failures === 0) {
      failures++;
      await inner(seq, (caught) => (run(caught), { sets: [] }));
      throw Object.assign(new Error("no room"), { code: "QuotaExceeded", statusCode: 507 });
    }
    return inner(seq, run);
  })(transact);
  await Promise.all([c.deleteEntity("p", "1"), c.deleteEntity("p", "2")]);
  assert.equal(failures, 1);
  assert.deepEqual(await collect(c.listEntities()), []);
  failures = 0;
  await assert.rejects(c.createEntity({ partitionKey: "p", rowKey: "3" }), { code: "QuotaExceeded" }); // not a write that frees space
  await rejects(c.getEntity("p", "3"), "ResourceNotFound", 404);
});
