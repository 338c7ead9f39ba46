// Writes queued together commit together, in one IndexedDB transaction, but run in the
// engine a task's worth at a time: other tasks of the page run between them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fresh, taskRuns } from "./helpers.js";
import { openStore, deleteStore, TableClient } from "../tabletop.js";

const WRITES = 1000;

test("writes queued together run in several tasks of one commit", async (t) => {
  const name = fresh("sliced-write");
  t.after(() => deleteStore(name));
  const store = await openStore(name);
  t.after(() => store.close());
  const c = new TableClient(store, "things");
  await c.createTable();
  await c.createEntity({ partitionKey: "p", rowKey: "first" }); // the store's first commit, alone

  const runs = taskRuns(store, "write"); // engine writes per run of calls with no other task between
  let commits = 0;
  const transact = store._storage.transact.bind(store._storage);
  store._storage.transact = (...args) => (commits++, transact(...args));

  const props = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`p${i}`, `value ${i}`]));
  await Promise.all(Array.from({ length: WRITES }, (_, i) => c.upsertEntity({ partitionKey: "p", rowKey: String(i).padStart(4, "0"), ...props })));
  assert.equal(runs.reduce((a, b) => a + b, 0), WRITES);
  assert.ok(Math.max(...runs) < WRITES / 2, `writes per task: ${runs}`);
  assert.ok(commits <= 2, `${commits} commits`); // the first write alone, then the rest (under GROUP_BYTES)

  await store.close();
  const again = await openStore(name);
  t.after(() => again.close());
  let n = 0;
  for await (const e of new TableClient(again, "things").listEntities()) if (e.p39 === "value 39") n++;
  assert.equal(n, WRITES);
});
