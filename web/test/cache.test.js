// A persistent store keeps about cacheBytes of stored records loaded in its engine: a full
// read of a store several times larger leaves the engine's memory far below what the same
// read takes with the default budget, and every read and write stays exact across the
// ranges dropped and loaded again. In Node over fake IndexedDB.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fresh, taskRuns } from "./helpers.js";
import { openStore, deleteStore, TableClient } from "../tabletop.js";

const ROWS = 6000;
const VALUE = "v".repeat(1000);

/** filled makes a closed store of ROWS entities of about 1 KB, compacted into pages. */
async function filled(t) {
  const name = fresh("cache");
  t.after(() => deleteStore(name));
  const store = await openStore(name);
  const c = new TableClient(store, "things");
  await c.createTable();
  for (let i = 0; i < ROWS; i += 100) {
    await c.submitTransaction(Array.from({ length: 100 }, (_, j) => ["create", { partitionKey: `p${(i / 1000) | 0}`, rowKey: String(i + j).padStart(5, "0"), v: VALUE, n: i + j }]));
  }
  await store.compact();
  await store.close();
  return name;
}

/** readAll reads every entity of the store's table and checks each. */
async function readAll(c) {
  let n = 0;
  for await (const e of c.listEntities()) {
    assert.equal(e.n, Number(e.rowKey));
    n++;
  }
  assert.equal(n, ROWS);
}

test("cacheBytes bounds what a store keeps loaded", async (t) => {
  const name = await filled(t);
  const heap = (store) => Number(store._exec("heapBytes", []).json);
  const store = await openStore(name, { cacheBytes: 512 << 10 });
  const c = new TableClient(store, "things");
  for (let pass = 0; pass < 2; pass++) await readAll(c);
  assert.ok(store._loadedBytes <= 512 << 10, `${store._loadedBytes} bytes loaded after the reads`);
  // Writes to ranges dropped and loaded again land, and read back exact.
  for (let i = 0; i < ROWS; i += 997) await c.updateEntity({ partitionKey: `p${(i / 1000) | 0}`, rowKey: String(i).padStart(5, "0"), v: "changed", n: i }, "Merge");
  await readAll(c);
  assert.equal((await c.getEntity("p0", "00000")).v, "changed");
  const bounded = heap(store);
  await store.close();

  const whole = await openStore(name);
  await readAll(new TableClient(whole, "things"));
  const unbounded = heap(whole);
  await whole.close();
  console.log(`engine heap after a full read: ${(bounded / 1e6).toFixed(1)} MB with cacheBytes 512 KiB, ${(unbounded / 1e6).toFixed(1)} MB with the default`);
  assert.ok(unbounded > bounded + 3e6, `bounded ${bounded}, default ${unbounded}`);
});

test("cacheBytes must be a number of bytes", async () => {
  await assert.rejects(openStore(fresh("cache"), { cacheBytes: -1 }), TypeError);
  await assert.rejects(openStore(fresh("cache"), { cacheBytes: "1MB" }), TypeError);
});

test("what a tab writes counts against cacheBytes too", async (t) => {
  const name = fresh("cachew");
  t.after(() => deleteStore(name));
  const heap = (store) => Number(store._exec("heapBytes", []).json);
  const write = async (store) => {
    const c = new TableClient(store, "things");
    await c.createTable();
    for (let i = 0; i < 3000; i += 100) {
      await c.submitTransaction(Array.from({ length: 100 }, (_, j) => ["create", { partitionKey: `p${i % 7}`, rowKey: String(i + j).padStart(5, "0"), v: VALUE }]));
    }
    return c;
  };
  const small = await openStore(name, { cacheBytes: 256 << 10 });
  const c = await write(small);
  // What the writes grew is dropped SLICE_MS a task (Store._trim): on a busy machine the
  // last write resolves before the last slice has run.
  while (small._trimLater) await small._trimLater;
  assert.ok(small._loadedBytes <= 256 << 10, `${small._loadedBytes} bytes counted after the writes`);
  let n = 0;
  for await (const _ of c.listEntities()) n++;
  assert.equal(n, 3000, "every write reads back");
  const bounded = heap(small);
  await small.close();
  const other = fresh("cachew");
  t.after(() => deleteStore(other));
  const whole = await openStore(other);
  await write(whole);
  const unbounded = heap(whole);
  await whole.close();
  console.log(`engine heap after 3,000 writes of 1 KB: ${(bounded / 1e6).toFixed(1)} MB with cacheBytes 256 KiB, ${(unbounded / 1e6).toFixed(1)} MB with the default`);
  assert.ok(unbounded > bounded + 1e6, `bounded ${bounded}, default ${unbounded}`);
});

test("an import into ranges not loaded loads every partition it writes at once", async (t) => {
  const name = fresh("cache");
  t.after(() => deleteStore(name));
  const dump = (from) => {
    const lines = [JSON.stringify({ format: "tabletop-dump", version: 1, table: "things" })];
    for (let p = 0; p < 10; p++) for (let i = from; i < from + 50; i++) lines.push(JSON.stringify({ PartitionKey: `p${p}`, RowKey: String(i).padStart(5, "0"), v: VALUE }));
    return lines.join("\n") + "\n";
  };
  const store = await openStore(name);
  const c = new TableClient(store, "things");
  await c.createTable();
  await c.importTable(dump(0));
  await store.compact();
  await store.close();
  const again = await openStore(name); // nothing loaded
  let calls = 0;
  const exec = again._exec.bind(again);
  again._exec = (op, ...rest) => ((calls += op === "import"), exec(op, ...rest));
  await new TableClient(again, "things").importTable(dump(50));
  assert.ok(calls <= 3, `the import ran ${calls} times for 10 partitions`);
  assert.equal((await new TableClient(again, "things").getEntity("p9", "00099")).v, VALUE);
  await again.close();
});

test("what one call loads past cacheBytes is dropped a slice at a time, before more loads", async (t) => {
  const name = await filled(t);
  const budget = 512 << 10;
  const store = await openStore(name, { cacheBytes: budget });
  t.after(() => store.close());
  const c = new TableClient(store, "things");
  await c.createIndex("n");
  const runs = taskRuns(store, "evictRange");
  // An index scan needs its whole table loaded at once: about 12 times the budget.
  const found = [];
  for await (const e of c.listEntities({ queryOptions: { filter: "n lt 3" } })) found.push(e.n);
  assert.deepEqual(found, [0, 1, 2]);
  for (let i = 0; i < 200 && store._loadedBytes > (budget * 3) / 4; i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(store._loadedBytes <= (budget * 3) / 4, `${store._loadedBytes} bytes still loaded`);
  assert.ok(runs.length > 1, `every eviction ran in one task: ${runs}`);
  // The next call loads what it needs again, within the budget.
  assert.equal((await c.getEntity("p5", "05999")).n, 5999);
  assert.ok(store._loadedBytes <= budget, `${store._loadedBytes} bytes loaded after a point read`);
});

test("a range that this tab's writes grew is dropped a few records per call", async (t) => {
  // The first write loads the range between its two keys, empty; the writes after it fall
  // inside, so that range ends up holding far more records than it was loaded with (as a
  // pull's does), and dropping it whole took one call for them all.
  const name = fresh("cache");
  t.after(() => deleteStore(name));
  const budget = 2 << 20;
  const store = await openStore(name, { cacheBytes: budget });
  t.after(() => store.close());
  const calls = [];
  const exec = store._exec.bind(store);
  store._exec = (op, args, ...rest) => {
    const out = exec(op, args, ...rest);
    if (op === "evictRange") calls.push(out.json.length > 0 ? "part" : "end");
    return out;
  };
  const c = new TableClient(store, "things");
  await c.createTable();
  await c.submitTransaction([["create", { partitionKey: "p", rowKey: "00000" }], ["create", { partitionKey: "p", rowKey: "99999" }]]);
  for (let i = 1; i < 3000; i += 100) {
    await c.submitTransaction(Array.from({ length: 100 }, (_, j) => ["create", { partitionKey: "p", rowKey: String(i + j).padStart(5, "0"), v: VALUE }]).slice(0, 3000 - i));
  }
  for (let i = 0; i < 200 && store._loadedBytes > (budget * 3) / 4; i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(store._loadedBytes <= (budget * 3) / 4, `${store._loadedBytes} bytes still loaded`);
  assert.ok(calls.filter((c) => c === "part").length >= 3, `evictRange calls: ${calls}`);
  // Every entity is still there, loaded again as the reads need it.
  let n = 0;
  for await (const e of c.listEntities({ queryOptions: { filter: "RowKey lt '99999'" } })) assert.equal(e.rowKey, String(n++).padStart(5, "0"));
  assert.equal(n, 3000);
});
