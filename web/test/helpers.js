// Shared set-up of the Node tests: fake IndexedDB, and a fresh store name per test.
import "fake-indexeddb/auto";
import assert from "node:assert/strict";

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
