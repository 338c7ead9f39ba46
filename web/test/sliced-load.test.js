// A read that needs many pages of a persistent store loads them a slice at a time, each
// slice its own call into the engine, and lets other tasks run between slices: no call of
// the module holds the thread for a whole read of pages. The reads stay exact.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fresh } from "./helpers.js";
import { openStore, deleteStore, TableClient } from "../tabletop.js";

const ROWS = 4000;

test("a read of many pages loads them in slices, other tasks running between", async (t) => {
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

  const store = await openStore(name);
  t.after(() => store.close());
  const loads = []; // pages per load, and whether another task ran since the one before
  let ran = true;
  const load = store._load.bind(store);
  store._load = (loaded, ...rest) => {
    loads.push({ pages: loaded.pages.length, after: ran });
    ran = false;
    setTimeout(() => (ran = true), 0);
    return load(loaded, ...rest);
  };
  let n = 0;
  for await (const e of new TableClient(store, "things").listEntities()) assert.equal(e.n, n++);
  assert.equal(n, ROWS);
  assert.ok(loads.length > 4, `${loads.length} loads`);
  assert.ok(loads.every((l) => l.pages <= 2), `pages per load: ${loads.map((l) => l.pages)}`);
  assert.ok(loads.every((l) => l.after), "a load ran right after another, no task between");
});
