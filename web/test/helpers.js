// Shared set-up of the Node tests: fake IndexedDB, and a fresh store name per test.
import "fake-indexeddb/auto";
import assert from "node:assert/strict";
import { openStore, deleteStore, TableClient } from "../tabletop.js";

let n = 0;

/** fresh returns a store name no other test uses. */
export function fresh(prefix = "t") {
  return `${prefix}${process.pid}x${++n}`;
}

/** rejects asserts that p fails with a RestError of that code and status. */
export async function rejects(p, code, statusCode) {
  await assert.rejects(p, (e) => {
    assert.equal(e.name, "RestError", e.stack);
    assert.equal(e.code, code, e.message);
    assert.equal(e.statusCode, statusCode);
    return true;
  });
}

/** collect gathers an async iterable into an array. */
export async function collect(iter) {
  const out = [];
  for await (const x of iter) out.push(x);
  return out;
}

/**
 * alone opens a fresh store (its name starting with prefix), creates the table "things"
 * and waits until the store writes as the only tab; the store is closed and deleted after
 * the test.
 */
export async function alone(t, prefix) {
  const name = fresh(prefix);
  const store = await openStore(name);
  t.after(async () => (await store.close().catch(() => {}), await deleteStore(name)));
  const c = new TableClient(store, "things");
  await c.createTable();
  await new Promise((r) => setTimeout(r, 150));
  assert.equal(store._alone, true);
  return { name, store, c };
}

/**
 * taskRuns counts store's engine calls of op, per run of calls with no other task of the
 * event loop between them (a timer set after each call has not fired yet): it returns the
 * array of counts, which grows as the calls are made.
 */
export function taskRuns(store, op) {
  const runs = [];
  let ran = true;
  const exec = store._exec.bind(store);
  store._exec = (name, ...rest) => {
    if (name === op) {
      if (ran) runs.push(0);
      runs[runs.length - 1]++;
      ran = false;
      setTimeout(() => (ran = true), 0);
    }
    return exec(name, ...rest);
  };
  return runs;
}
