// The writer lock (idb.js): with Web Locks (test/locks.js here, as in a browser), a tab
// writing alone holds the store's writer lock and, once a commit has checked the lease
// under it, commits without reading the lease; only the lock's holder compacts, and an
// exclusive opener that steals the store stops the lone writer all the same.
import { test } from "node:test";
import assert from "node:assert/strict";
import { alone, rejects, collect } from "./helpers.js";
import { install } from "./locks.js";
import { openStore, deleteStore, TableClient } from "../tabletop.js";

const locks = install();

/** leaseReads counts the lease reads of every store while fn runs. */
async function leaseReads(fn) {
  const get = IDBObjectStore.prototype.get;
  let n = 0;
  IDBObjectStore.prototype.get = function (key) {
    if (key === "lease") n++;
    return get.call(this, key);
  };
  try {
    await fn();
  } finally {
    IDBObjectStore.prototype.get = get;
  }
  return n;
}

const writerHeld = (name) => (locks.held.get(`tabletop:${name}:writer`) ?? []).length > 0;

test("a tab writing alone reads the lease once under the writer lock, then no more", async (t) => {
  const { name, store, c } = await alone(t, "writer");
  const first = await leaseReads(() => c.createEntity({ partitionKey: "p", rowKey: "0" }));
  assert.equal(writerHeld(name), true);
  const later = await leaseReads(async () => {
    for (let i = 1; i <= 5; i++) await c.createEntity({ partitionKey: "p", rowKey: String(i) });
  });
  assert.equal(first, 1, "the first commit under the lock checks the lease");
  assert.equal(later, 0, "the next commits read no lease");
  await store.close();
  await new Promise((r) => setTimeout(r, 0)); // a lock is released in a later task
  assert.equal(writerHeld(name), false, "closing releases the writer lock");
  const again = await openStore(name);
  const rows = await collect(new TableClient(again, "things").listEntities());
  await again.close();
  assert.deepEqual(rows.map((e) => e.rowKey), ["0", "1", "2", "3", "4", "5"]);
});

test("a tab that hears another tab releases the writer lock and reads the lease again", async (t) => {
  const { name, c } = await alone(t, "writer");
  await c.createEntity({ partitionKey: "p", rowKey: "0" });
  assert.equal(writerHeld(name), true);
  const other = await openStore(name);
  t.after(() => other.close());
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(writerHeld(name), false);
  assert.equal(await leaseReads(() => c.createEntity({ partitionKey: "p", rowKey: "1" })), 1);
});

test("a store stolen from a tab writing alone without the lease refuses its writes", async (t) => {
  const { name, store, c } = await alone(t, "writer");
  for (let i = 0; i < 3; i++) await c.createEntity({ partitionKey: "p", rowKey: `before${i}` });
  store._channel.onmessage = null; // it does not hear the new owner: only the locks tell it
  const owner = await openStore(name, { lock: "steal" });
  await rejects(c.createEntity({ partitionKey: "p", rowKey: "lost" }), "StoreLocked", 409);
  await new TableClient(owner, "things").createEntity({ partitionKey: "p", rowKey: "kept" });
  await owner.close();
  const again = await openStore(name);
  const rows = await collect(new TableClient(again, "things").listEntities());
  await again.close();
  assert.deepEqual(rows.map((e) => e.rowKey), ["before0", "before1", "before2", "kept"]);
});

test("another tab compacts only once the lone writer released the writer lock", async (t) => {
  const { name, store, c } = await alone(t, "writer");
  for (let i = 0; i < 3; i++) await c.createEntity({ partitionKey: "p", rowKey: String(i) });
  store._channel.onmessage = null; // deaf: it keeps writing alone, holding the lock
  const other = await openStore(name);
  t.after(() => other.close().catch(() => {}));
  let compacted = false;
  const compaction = other.compact().then(() => (compacted = true));
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(compacted, false, "it compacted under the lone writer");
  await c.createEntity({ partitionKey: "p", rowKey: "3" });
  await store.close();
  await compaction;
  const rows = await collect(new TableClient(other, "things").listEntities());
  assert.deepEqual(rows.map((e) => e.rowKey), ["0", "1", "2", "3"]);
});

test("a tab that writes on beside another takes the writer lock, and lets it go when asked or idle", async (t) => {
  const { name, store, c } = await alone(t, "writer");
  const other = await openStore(name);
  t.after(() => other.close().catch(() => {}));
  await other.sync();
  await new Promise((r) => setTimeout(r, 20)); // the greeting heard: it no longer writes alone
  assert.equal(store._alone, false);
  assert.equal(writerHeld(name), false);
  const reads = await leaseReads(async () => {
    for (let i = 0; i < 10; i++) await c.createEntity({ partitionKey: "p", rowKey: String(i) });
  });
  assert.equal(writerHeld(name), true, "it speculates, holding the lock");
  assert.ok(reads <= 5, `${reads} of 10 commits read the lease`);
  assert.equal(await leaseReads(() => c.createEntity({ partitionKey: "p", rowKey: "10" })), 0);
  // A compaction asked for in the other tab asks for the lock, and gets it while it writes on.
  let compacted = false, n = 0;
  const compaction = other.compact().then(() => (compacted = true));
  while (!compacted && n < 300) await c.createEntity({ partitionKey: "q", rowKey: String(n++) });
  await compaction;
  assert.ok(n < 300, "the compaction waited for the writes to stop");
  await c.createEntity({ partitionKey: "p", rowKey: "11" });
  await new Promise((r) => setTimeout(r, 250)); // its writes pause past WRITER_LINGER_MS
  assert.equal(writerHeld(name), false, "an idle tab that shares the store keeps the lock");
  await other.sync();
  const rows = await collect(new TableClient(other, "things").listEntities());
  assert.equal(rows.length, 12 + n);
});

test("a tab writing alone without the lease loads the pages a write needs", async (t) => {
  const { name, store, c } = await alone(t, "writer");
  const blob = "x".repeat(2000);
  for (let p = 0; p < 4; p++) await c.submitTransaction(Array.from({ length: 50 }, (_, r) => ["create", { partitionKey: `p${p}`, rowKey: String(r), blob }]));
  await store.compact(); // 400 KB: several pages
  await store.close();
  const again = await openStore(name); // nothing resident
  t.after(() => again.close());
  const d = new TableClient(again, "things");
  await new Promise((r) => setTimeout(r, 150));
  assert.equal(again._alone, true);
  await d.createEntity({ partitionKey: "p0", rowKey: "new" }); // checks the lease, loading p0's page
  const reads = await leaseReads(() => d.createEntity({ partitionKey: "p3", rowKey: "new" })); // needs p3's page
  assert.equal(reads, 0);
  await assert.rejects(d.createEntity({ partitionKey: "p2", rowKey: "0" }), (e) => e.code === "EntityAlreadyExists");
  await again.close();
  const last = await openStore(name);
  const rows = await collect(new TableClient(last, "things").listEntities());
  await last.close();
  assert.equal(rows.length, 202);
  assert.deepEqual(rows.filter((e) => e.rowKey === "new").map((e) => e.partitionKey), ["p0", "p3"]);
});
