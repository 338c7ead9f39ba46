import { test } from "node:test";
import assert from "node:assert/strict";
import { fresh, rejects, collect } from "./helpers.js";
import { openStore, deleteStore, TableClient, TableServiceClient } from "../tabletop.js";

/** usage returns the keys and total bytes of a store's IndexedDB database. */
async function usage(name) {
  const db = await new Promise((resolve, reject) => {
    const req = indexedDB.open(`tabletop:${name}`);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  // The log and head ("kv") and the pages; a log record is bytes or { cs, changes }.
  const tx = db.transaction(["kv", "pages"]);
  const s = tx.objectStore("kv");
  const p = tx.objectStore("pages");
  const [keys, values, pages] = await Promise.all([s.getAllKeys(), s.getAll(), p.getAll()].map((r) => new Promise((res) => (r.onsuccess = () => res(r.result)))));
  db.close();
  return { keys, bytes: [...values, ...pages].reduce((n, v) => n + (v.length ?? v.cs.length), 0) };
}

test("a persistent store keeps every resolved write", async () => {
  const name = fresh();
  let store = await openStore(name);
  const c = new TableClient(store, "notes");
  await c.createTable();
  await c.createEntity({ partitionKey: "p", rowKey: "1", text: "first", n: 2n ** 62n });
  await c.submitTransaction([["create", { partitionKey: "p", rowKey: "2" }], ["upsert", { partitionKey: "p", rowKey: "1", more: true }]]);
  await c.deleteEntity("p", "2");
  await store.close();

  store = await openStore(name);
  const again = new TableClient(store, "notes");
  const all = await collect(again.listEntities());
  assert.deepEqual(all.map((e) => [e.rowKey, e.text, e.n, e.more]), [["1", "first", 2n ** 62n, true]]);
  assert.deepEqual((await collect(new TableServiceClient(store).listTables())).map((t) => t.name), ["notes"]);
  await store.close();
  await deleteStore(name);
});

test("compaction keeps storage proportional to the data", async () => {
  const name = fresh();
  const store = await openStore(name);
  const c = new TableClient(store, "churn");
  await c.createTable();
  const blob = "x".repeat(20000);
  for (let i = 0; i < 260; i++) await c.upsertEntity({ partitionKey: "p", rowKey: String(i % 5), blob, i });
  const auto = await usage(name);
  assert.ok(auto.bytes < 3_000_000, `written 10 MB, stored ${auto.bytes} bytes`);
  await store.compact();
  const after = await usage(name);
  assert.ok(after.bytes < 150_000, `5 entities of 20 KB, stored ${after.bytes} bytes`);
  assert.equal(after.keys.filter((k) => k.startsWith("log/")).length, 0);
  await store.close();

  const reopened = await openStore(name);
  const all = await collect(new TableClient(reopened, "churn").listEntities());
  assert.deepEqual(all.map((e) => e.i), [255, 256, 257, 258, 259]);
  await reopened.close();
});

test("a store taken over by a second opener refuses to write", async () => {
  const name = fresh();
  const first = await openStore(name);
  const c1 = new TableClient(first, "things");
  await c1.createTable();
  const second = await openStore(name, { lock: "steal" }); // no Web Locks under Node: only the lease protects
  await rejects(c1.createEntity({ partitionKey: "p", rowKey: "lost" }), "StoreLocked", 409);
  await rejects(c1.getEntity("p", "lost"), "ResourceNotFound", 404);
  const c2 = new TableClient(second, "things");
  await c2.createEntity({ partitionKey: "p", rowKey: "kept" });
  await first.close();
  await second.close();

  const third = await openStore(name);
  const all = await collect(new TableClient(third, "things").listEntities());
  assert.deepEqual(all.map((e) => e.rowKey), ["kept"]);
  await third.close();
});

test("an in-memory store leaves nothing behind", async () => {
  const name = fresh();
  let store = await openStore(name, { inMemory: true });
  await new TableServiceClient(store).createTable("gone");
  await store.close();
  store = await openStore(name, { inMemory: true });
  assert.deepEqual(await collect(new TableServiceClient(store).listTables()), []);
  await store.close();
  await rejects(new TableServiceClient(store).createTable("closed"), "ServerBusy", 503);
});

test("reads issued while writes wait for IndexedDB neither block nor see half a write", async () => {
  const name = fresh();
  const store = await openStore(name);
  const c = new TableClient(store, "busy");
  await c.createTable();
  await c.createEntity({ partitionKey: "p", rowKey: "0", n: 0 });
  // Start many writes without awaiting them, and read in between: reads run at once when
  // no write is in flight and wait in Go otherwise; either way every read completes.
  const writes = [];
  const reads = [];
  for (let i = 1; i <= 50; i++) {
    writes.push(c.upsertEntity({ partitionKey: "p", rowKey: "0", n: i }, "Replace"));
    reads.push(c.getEntity("p", "0"));
  }
  await Promise.all(writes);
  const seen = (await Promise.all(reads)).map((e) => e.n);
  for (const n of seen) assert.ok(n >= 0 && n <= 50, `read saw n=${n}`);
  assert.equal((await c.getEntity("p", "0")).n, 50);
  await store.close();
  await deleteStore(name);
});
