// A scan of a persistent store reads its next pages from IndexedDB while the engine loads
// the ones before (store.js _readAhead), and never loads pages read ahead once the replica
// has moved on in the log since they were read: those are read again (a load's pages must
// hold no change set before the ones the replica applied while their range was loaded,
// which a range loaded, changed and dropped again in between would break).
import { test } from "node:test";
import assert from "node:assert/strict";
import { fresh } from "./helpers.js";
import { openStore, deleteStore, TableClient } from "../tabletop.js";

const ROWS = 4000;

/** filled makes a compacted persistent store of ROWS entities (tens of pages) and returns its name. */
async function filled(t) {
  const name = fresh("ahead");
  t.after(() => deleteStore(name));
  const filler = await openStore(name);
  const c = new TableClient(filler, "things");
  await c.createTable();
  const v = "v".repeat(400); // about 1.6 MB in all: more pages than one read brings
  for (let i = 0; i < ROWS; i += 100) {
    await c.submitTransaction(Array.from({ length: 100 }, (_, j) => ["create", { partitionKey: "p", rowKey: rk(i + j), v, n: i + j }]));
  }
  await filler.compact();
  await filler.close();
  return name;
}

/** rk is the RowKey of entity i. */
const rk = (i) => String(i).padStart(5, "0");

/** watch records, in order, each read of pages from IndexedDB ("read") and each load into the engine ("load"). */
function watch(store) {
  const events = [];
  const readPages = store._storage.readPages.bind(store._storage);
  store._storage.readPages = (...args) => (events.push("read"), readPages(...args));
  const load = store._load.bind(store);
  store._load = (...args) => (events.push("load"), load(...args));
  return events;
}

test("a scan reads its next pages while the engine loads the ones before", async (t) => {
  const store = await openStore(await filled(t));
  t.after(() => store.close());
  const events = watch(store);
  let n = 0;
  for await (const e of new TableClient(store, "things").listEntities()) assert.equal(e.n, n++);
  assert.equal(n, ROWS);
  assert.match(events.join(" "), /read read/, "every read of pages waited for the loads of the one before");
});

test("pages read ahead are read again once the replica has moved on since", async (t) => {
  const name = await filled(t);
  const store = await openStore(name);
  t.after(() => store.close());
  const other = await openStore(name); // another tab of the store
  t.after(() => other.close());
  const events = watch(store);
  const pages = new TableClient(store, "things").listEntities().byPage({ maxPageSize: 500 });
  const first = (await pages.next()).value;
  assert.equal(first.length, 500);
  assert.match(events.join(" "), /read read/, "the pages after the first read were not read ahead");
  // Another tab changes an entity in the pages read ahead; this tab takes the change.
  await new TableClient(other, "things").updateEntity({ partitionKey: "p", rowKey: rk(ROWS - 1), v: "changed" }, "Merge");
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
