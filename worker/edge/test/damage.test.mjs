// A Durable Object whose stored store is damaged does not start: the start's error names
// the damaged key, the storage is left as it was, and a second start refuses the same way
// (the glue answers a request to such an object 500 InternalError with that message). On
// the built worker wasm in Node over the fake storage; needs make worker.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { startGo, stopGo, serveSigned } from "./nodego.mjs";

const { fakeStorage } = createRequire(import.meta.url)("./fakestorage.cjs");

/** contents is every key of storage with its value, as text. */
const contents = (storage) => storage.keys().map((k) => [k, Buffer.from(storage.kv.get(k)).toString("latin1")]);

test("a log record missing from the middle of the log stops the object's start, named, and nothing is written", async () => {
  const storage = fakeStorage();
  const first = await startGo("Damaged", undefined, storage);
  for (const row of ["a", "b", "c"]) {
    const [status] = await serveSigned(first.exports, "PUT", `/Damaged(PartitionKey='p',RowKey='${row}')`, { body: "{}" });
    assert.equal(status, 204);
  }
  await stopGo(first);
  const logs = storage.keys().filter((k) => k.startsWith("log/"));
  assert.ok(logs.length >= 4, `log keys ${logs}`);
  storage.kv.delete(logs[2]);
  const before = contents(storage);
  for (let start = 0; start < 2; start++) {
    await assert.rejects(startGo("Damaged", undefined, storage), (e) => {
      assert.match(e.message, new RegExp(`stored data is damaged at ${logs[2]}: missing.*nothing was changed`));
      return true;
    });
    assert.deepEqual(contents(storage), before, "the start wrote to the storage");
  }
});
