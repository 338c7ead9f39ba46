// A read that needs many pages of a persistent store loads them a slice at a time, each
// slice its own call into the engine, and lets other tasks run between slices: no call of
// the module holds the thread for a whole read of pages. A write that needs them loads
// them the same way inside its IndexedDB transaction. The reads and the writes stay exact.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fresh } from "./helpers.js";
import { openStore, deleteStore, TableClient, TableServiceClient } from "../tabletop.js";

const ROWS = 4000;

/** filled makes a compacted persistent store of ROWS entities (tens of pages) and returns its name. */
async function filled(t) {
  const name = fresh("sliced");
  t.after(() => deleteStore(name));
  const filler = await openStore(name);
  const c = new TableClient(filler, "things");
  await c.createTable();
  const v = "v".repeat(400); // about 1.6 MB in all: tens of 64 KiB pages
  for (let i = 0; i < ROWS; i += 100) {
    await c.submitTransaction(Array.from({ length: 100 }, (_, j) => ["create", { partitionKey: "p", rowKey: String(i + j).padStart(5, "0"), v, n: i + j }]));
  }
  await filler.compact();
  await filler.close();
  return name;
}

/**
 * watchLoads records each load into store's engine: its pages, and whether another task
 * ran since the load before (a timer set after each load has fired).
 */
function watchLoads(store) {
  const loads = [];
  let ran = true;
  const load = store._load.bind(store);
  store._load = (loaded, ...rest) => {
    loads.push({ pages: loaded.pages.length, after: ran });
    ran = false;
    setTimeout(() => (ran = true), 0);
    return load(loaded, ...rest);
  };
  return loads;
}

test("a read of many pages loads them in slices, other tasks running between", async (t) => {
  const store = await openStore(await filled(t));
  t.after(() => store.close());
  const loads = watchLoads(store);
  let n = 0;
  for await (const e of new TableClient(store, "things").listEntities()) assert.equal(e.n, n++);
  assert.equal(n, ROWS);
  assert.ok(loads.length > 4, `${loads.length} loads`);
  assert.ok(loads.every((l) => l.pages <= 2), `pages per load: ${loads.map((l) => l.pages)}`);
  assert.ok(loads.every((l) => l.after), "a load ran right after another, no task between");
});

test("a write that needs many pages loads them in slices inside its transaction, other tasks running between", async (t) => {
  const name = await filled(t);
  const store = await openStore(name);
  t.after(() => store.close());
  const loads = watchLoads(store);
  await new TableClient(store, "things").deleteTable(); // it needs the whole table: every page
  assert.ok(loads.length > 4, `${loads.length} loads`);
  assert.ok(loads.every((l) => l.pages <= 2), `pages per load: ${loads.map((l) => l.pages)}`);
  assert.ok(loads.slice(1).some((l) => l.after), "every load ran in the write's first task");
  await store.close();
  const again = await openStore(name);
  t.after(() => again.close());
  const tables = [];
  for await (const tbl of new TableServiceClient(again).listTables()) tables.push(tbl.name);
  assert.deepEqual(tables, []);
  await assert.rejects(new TableClient(again, "things").getEntity("p", "00000"), { statusCode: 404 });
});
