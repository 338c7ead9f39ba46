// Opening a persistent store (src/load.js): the log after the pages handed to a partial
// store in slices of whole commands per engine call, the event loop turning between them,
// and the same store as one replay would give; reading keys and cutting pages.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fresh, collect } from "./helpers.js";
import { openStore, deleteStore, TableClient } from "../tabletop.js";
import { commandsEnd, cutPage, eachKey, openPartial, splitPage } from "../src/load.js";

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

test("eachKey and splitPage", async (t) => {
  const dec = new TextDecoder();
  const text = resp("set", "a\x00b", "v\r\n$1\r\nx") + resp("del", "ü") + Array.from({ length: 50 }, (_, i) => resp("set", `k${String(i).padStart(2, "0")}`, "w".repeat(100))).join("");
  const b = enc.encode(text);
  await t.test("OK", () => {
    const keys = [];
    eachKey(b, (k) => keys.push(dec.decode(k)));
    assert.deepEqual(keys.slice(0, 3), ["a\x00b", "ü", "k00"]);
    assert.equal(keys.length, 52);
    const pages = splitPage(b, 1000);
    assert.ok(pages.length > 4, `${pages.length} pages`);
    assert.deepEqual(dec.decode(pages[0].first), "a\x00b");
    const joined = new Uint8Array(b.length);
    let pos = 0;
    for (const p of pages) {
      joined.set(p.data, pos), (pos += p.data.length);
      const first = [];
      eachKey(p.data, (k) => first.push(dec.decode(k)));
      assert.equal(first[0], dec.decode(p.first));
    }
    assert.deepEqual(joined, b);
  });
  await t.test("ErrCorrupt", () => {
    assert.throws(() => eachKey(b.subarray(0, b.length - 3), () => {}), /corrupt/);
  });
});

test("cutPage cuts at each change of record kind, and runs past twice the size", () => {
  const cmds = [
    ...Array.from({ length: 30 }, (_, i) => resp("set", `e\u0000t\u0000${String(i).padStart(2, "0")}`, "v".repeat(100))),
    resp("set", "m\u0000clock", "5"),
    resp("set", "m\u0000store-id", "x"),
    resp("set", "t\u0000t", "{}"),
  ];
  const b = enc.encode(cmds.join(""));
  const parts = cutPage(b, 1000);
  const firsts = parts.map((p) => new TextDecoder().decode(p.first));
  assert.equal(firsts.at(-2), "m\u0000clock");
  assert.equal(firsts.at(-1), "t\u0000t");
  const entities = parts.slice(0, -2);
  assert.ok(entities.length >= 2 && entities.every((p) => p.data.length < 2 * 1000), `${entities.length} pieces of entities`);
  assert.deepEqual(Buffer.concat(parts.map((p) => p.data)), Buffer.from(b));
  assert.equal(cutPage(enc.encode(cmds.slice(0, 3).join("")), 1000).length, 1);
});

test("openPartial hands the log to a partial store in whole change sets per call, letting the event loop run", async () => {
  const sets = Array.from({ length: 60 }, (_, i) => enc.encode(resp("set", `log${i}`, "w".repeat(20000))));
  const calls = [];
  const engine = {
    call(args) {
      calls.push(args);
      const until = performance.now() + 6;
      while (performance.now() < until); // each call takes a while, as a real replay does
      return { json: "7", records: [] };
    },
  };
  let turned = false;
  setTimeout(() => (turned = true), 0);
  const handle = await openPartial(engine, sets);
  assert.equal(handle, "7");
  assert.ok(turned, "the event loop did not run while the store opened");
  assert.deepEqual(calls[0], ["open", "", "partial"]);
  const pieces = calls.slice(1);
  assert.ok(pieces.every((c) => c[0] === "apply" && c[1] === "7"));
  assert.ok(pieces.length > 1, "the log went in one call");
  assert.deepEqual(pieces.flatMap((c) => c.slice(2)), sets);
});

test("a store larger than a slice reopens whole, and counts its log from its pages", async () => {
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
  // One more small write leaves a change set only.
  let records;
  const off = store._subscribe((commit) => (records = commit.records));
  await again.createEntity({ partitionKey: "r", rowKey: "1" });
  off();
  assert.deepEqual(records.map((r) => r.kind), [1]);
  await store.close();
  await deleteStore(name);
});
