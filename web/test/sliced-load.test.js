// A read that needs many pages of a persistent store loads them a slice at a time, each
// slice its own call into the engine, and lets other tasks run between slices: no call of
// the module holds the thread for a whole read of pages. A write that needs them loads
// them the same way inside its IndexedDB transaction. The reads and the writes stay exact.
// A scan reads its next pages from IndexedDB while the engine loads the ones before
// (store.js _readAhead), and never loads pages read ahead once the replica has moved on in
// the log since they were read: those are read again (a load's pages must hold no change
// set before the ones the replica applied while their range was loaded, which a range
// loaded, changed and dropped again in between would break).
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
 * ran since the load before (a timer set after each load has fired); and, in events, the
 * order of the reads of pages and the loads.
 */
function watchLoads(store) {
  const loads = [];
  loads.events = []; // in order, each read of pages from IndexedDB ("read") and each load ("load")
  const readPages = store._storage.readPages.bind(store._storage);
  store._storage.readPages = (...args) => (loads.events.push("read"), readPages(...args));
  let ran = true;
  const load = store._load.bind(store);
  store._load = (loaded, ...rest) => {
    loads.push({ pages: loaded.pages.length, after: ran });
    loads.events.push("load");
    ran = false;
    setTimeout(() => (ran = true), 0);
    return load(loaded, ...rest);
  };
  return loads;
}

test("a read of many pages loads them in slices, other tasks running between, and reads the next pages meanwhile", async (t) => {
  const store = await openStore(await filled(t));
  t.after(() => store.close());
  const loads = watchLoads(store);
  let n = 0;
  for await (const e of new TableClient(store, "things").listEntities()) assert.equal(e.n, n++);
  assert.equal(n, ROWS);
  assert.ok(loads.length > 4, `${loads.length} loads`);
  assert.ok(loads.every((l) => l.pages <= 2), `pages per load: ${loads.map((l) => l.pages)}`);
  assert.ok(loads.every((l) => l.after), "a load ran right after another, no task between");
  assert.match(loads.events.join(" "), /read read/, "every read of pages waited for the loads of the one before");
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

test("pages read ahead are read again once the replica has moved on since", async (t) => {
  const name = await filled(t);
  const store = await openStore(name);
  t.after(() => store.close());
  const other = await openStore(name); // another tab of the store
  t.after(() => other.close());
  const { events } = watchLoads(store);
  const pages = new TableClient(store, "things").listEntities().byPage({ maxPageSize: 500 });
  const first = (await pages.next()).value;
  assert.equal(first.length, 500);
  assert.match(events.join(" "), /read read/, "the pages after the first read were not read ahead");
  // Another tab changes an entity in the pages read ahead; this tab takes the change.
  await new TableClient(other, "things").updateEntity({ partitionKey: "p", rowKey: String(ROWS - 1).padStart(5, "0"), v: "changed" }, "Merge");
  await store.sync();
  const since = events.length;
  const seen = [...first];
  for (let page = await pages.next(); !page.done; page = await pages.next()) seen.push(...page.value);
  assert.equal(seen.length, ROWS);
  assert.deepEqual(
    seen.map((e) => e.n),
    Array.from({ length: ROWS }, (_, i) => i),
  );
  assert.equal(seen.at(-1).v, "changed");
  assert.equal(events[since], "read", `the pages read before the change were loaded: ${events.slice(since).join(" ")}`);
});
