// Opening a persistent store in slices (src/load.js): whole commands per engine call, the
// event loop turning between them, and the same store as one replay would give.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fresh, collect } from "./helpers.js";
import { openStore, deleteStore, TableClient } from "../tabletop.js";
import { commandsEnd, openSliced } from "../src/load.js";

const enc = new TextEncoder();
const resp = (...args) => `*${args.length}\r\n${args.map((a) => `$${enc.encode(a).length}\r\n${a}\r\n`).join("")}`;

/** commands splits a RESP stream into its commands' texts (the test's own reading). */
function commands(text) {
  const out = [];
  const b = enc.encode(text);
  for (let pos = 0; pos < b.length; ) {
    const end = commandsEnd(b, pos, 1);
    out.push(new TextDecoder().decode(b.subarray(pos, end)));
    pos = end;
  }
  return out;
}

test("commandsEnd", async (t) => {
  await t.test("OK", () => {
    const tricky = resp("set", "k1", "a\r\n*3\r\n$3\r\nset\r\n"); // a value that looks like a command
    const text = tricky + resp("del", "k2") + resp("set", "ü", "é".repeat(10));
    assert.deepEqual(commands(text), [tricky, resp("del", "k2"), resp("set", "ü", "é".repeat(10))]);
    const b = enc.encode(text);
    assert.equal(commandsEnd(b, 0, b.length), b.length);
    assert.equal(commandsEnd(b, 0, 0), 0);
  });
  await t.test("ErrCorrupt", () => {
    assert.throws(() => commandsEnd(enc.encode("x" + resp("del", "k")), 0, 10), /corrupt/);
    assert.throws(() => commandsEnd(enc.encode(resp("set", "k", "value")).subarray(0, 20), 0, 100), /corrupt/);
  });
});

test("openSliced replays whole commands per call, letting the event loop run", async () => {
  const snapshot = enc.encode(Array.from({ length: 4000 }, (_, i) => resp("set", `key${i}`, "v".repeat(200 + (i % 50)))).join(""));
  const sets = Array.from({ length: 30 }, (_, i) => enc.encode(resp("set", `log${i}`, "w".repeat(20000))));
  const calls = [];
  const engine = {
    call(args) {
      calls.push(args);
      const until = performance.now() + 2;
      while (performance.now() < until); // each call takes a while, as a real replay does
      return { json: "7", records: [] };
    },
  };
  let turned = false;
  setTimeout(() => (turned = true), 0);
  const handle = await openSliced(engine, snapshot, sets);
  assert.equal(handle, "7");
  assert.ok(turned, "the event loop did not run while the store opened");
  assert.deepEqual(calls[0].slice(0, 3), ["open", "", "outbox"]);
  const pieces = calls.filter((c) => c[0] === "apply");
  const compacted = calls.findIndex((c) => c[0] === "compacted");
  assert.deepEqual(calls[compacted], ["compacted", "7", String(snapshot.length)]);
  const snapPieces = calls.slice(1, compacted).map((c) => c[2]);
  assert.ok(snapPieces.length > 1, "the snapshot went in one call");
  const joined = new Uint8Array(snapshot.length);
  let pos = 0;
  for (const p of snapPieces) joined.set(p, pos), (pos += p.length), assert.equal(commandsEnd(p, 0, p.length), p.length);
  assert.deepEqual(joined, snapshot);
  const logArgs = calls.slice(compacted + 1).flatMap((c) => c.slice(2));
  assert.deepEqual(logArgs, sets);
  assert.ok(pieces.length > snapPieces.length + 1, "the change sets went in one call");
});

test("a store larger than a slice reopens whole, and counts its log from its snapshot", async () => {
  const name = fresh();
  let store = await openStore(name);
  const c = new TableClient(store, "big");
  await c.createTable();
  const blob = "z".repeat(30000);
  for (let i = 0; i < 40; i += 10) await c.submitTransaction(Array.from({ length: 10 }, (_, k) => ["create", { partitionKey: "p", rowKey: String(i + k).padStart(3, "0"), blob, n: i + k }]));
  await store.compact();
  for (let i = 0; i < 110; i++) await c.upsertEntity({ partitionKey: "q", rowKey: String(i % 20), blob, n: i });
  const before = await collect(c.listEntities());
  await store.close();

  store = await openStore(name);
  const again = new TableClient(store, "big");
  const after = await collect(again.listEntities());
  assert.deepEqual(after.map((e) => [e.partitionKey, e.rowKey, e.n, e.etag, e.blob.length]), before.map((e) => [e.partitionKey, e.rowKey, e.n, e.etag, e.blob.length]));
  // 3.3 MB of log over a 1.2 MB snapshot: one more small write must not write a snapshot
  // (it would if the snapshot counted as log).
  let records;
  const off = store._subscribe((commit) => (records = commit.records));
  await again.createEntity({ partitionKey: "r", rowKey: "1" });
  off();
  assert.deepEqual(records.map((r) => r.kind), [1]);
  await store.close();
  await deleteStore(name);
});
