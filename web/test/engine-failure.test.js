// A failed engine (its Go program panicked or ran out of memory) answers the call that met
// the failure with RestError code EngineFailed, and a persistent store then reloads on a
// new engine from IndexedDB: every acknowledged write is read again, and writes go on.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fresh, rejects } from "./helpers.js";
import { openStore, deleteStore, TableClient, loadEngine } from "../tabletop.js";

/** crash makes the current engine's Go program panic, as a bug or a trap in it would. */
async function crash() {
  const engine = await loadEngine();
  const warn = console.warn, error = console.error;
  console.warn = console.error = () => {}; // Go's panic text and exit code
  try {
    engine._x.tabletop_call(0x7fffffff); // a request longer than its buffer: Go panics
  } finally {
    console.warn = warn;
    console.error = error;
  }
  return engine;
}

test("a failed engine answers EngineFailed, then a stored store reloads on a new one", async (t) => {
  const name = fresh("crash");
  const store = await openStore(name);
  t.after(async () => (await store.close(), await deleteStore(name)));
  const c = new TableClient(store, "things");
  await c.createTable();
  for (let i = 0; i < 20; i++) await c.createEntity({ partitionKey: "p", rowKey: String(i), n: i });
  const failed = await crash();
  await rejects(c.getEntity("p", "1"), "EngineFailed", 500);
  assert.equal((await c.getEntity("p", "7")).n, 7, "a read after the failure");
  assert.notEqual(await loadEngine(), failed, "a new engine");
  await c.createEntity({ partitionKey: "p", rowKey: "after", n: 99 });
  let count = 0;
  for await (const e of c.listEntities()) count += e.n >= 0 ? 1 : 0;
  assert.equal(count, 21);
});

test("an in-memory store on a failed engine answers EngineFailed from then on", async () => {
  const store = await openStore(fresh("mem"), { inMemory: true });
  const c = new TableClient(store, "things");
  await c.createTable();
  await crash();
  await rejects(c.getEntity("p", "1"), "EngineFailed", 500);
  await rejects(c.createEntity({ partitionKey: "p", rowKey: "1" }), "EngineFailed", 500);
  await store.close();
});
