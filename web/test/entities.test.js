import { test } from "node:test";
import assert from "node:assert/strict";
import { fresh, rejects, collect } from "./helpers.js";
import { openStore, TableClient, odata } from "../tabletop.js";

async function tableIn(t, name = "people") {
  const store = await openStore(fresh(), { inMemory: true });
  t.after(() => store.close());
  const c = new TableClient(store, name);
  await c.createTable();
  return c;
}

test("TableClient.createEntity and getEntity", async (t) => {
  const c = await tableIn(t);

  await t.test("OK", async () => {
    const { etag } = await c.createEntity({ partitionKey: "p", rowKey: "1", name: "Ann", age: 41, ok: true });
    assert.match(etag, /^W\/"datetime'.*'"$/);
    const e = await c.getEntity("p", "1");
    assert.equal(e.etag, etag);
    assert.match(e.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$/);
    assert.deepEqual({ ...e, etag: 0, timestamp: 0 }, { etag: 0, timestamp: 0, partitionKey: "p", rowKey: "1", name: "Ann", age: 41, ok: true });
  });

  await t.test("select", async () => {
    const e = await c.getEntity("p", "1", { queryOptions: { select: ["name", "rowKey", "missing", "etag"] } });
    assert.deepEqual(e, { etag: e.etag, rowKey: "1", name: "Ann", missing: null });
  });

  await t.test("ErrEntityExists", () => rejects(c.createEntity({ partitionKey: "p", rowKey: "1" }), "EntityAlreadyExists", 409));
  await t.test("ErrEntityNotFound", () => rejects(c.getEntity("p", "nope"), "ResourceNotFound", 404));
  await t.test("ErrTableNotFound", () => rejects(new TableClient(c._target, "nothere").createEntity({ partitionKey: "p", rowKey: "1" }), "TableNotFound", 404));
  await t.test("ErrKeyMissing", () => rejects(c.createEntity({ partitionKey: "p" }), "PropertiesNeedValue", 400));
  await t.test("ErrKeyInvalid", () => rejects(c.createEntity({ partitionKey: "a/b", rowKey: "1" }), "OutOfRangeInput", 400));
  await t.test("ErrPropertyNameInvalid", () => rejects(c.createEntity({ partitionKey: "p", rowKey: "2", "bad name": 1 }), "PropertyNameInvalid", 400));
  await t.test("ErrValueTooLarge", () => rejects(c.createEntity({ partitionKey: "p", rowKey: "2", s: "x".repeat(40000) }), "PropertyValueTooLarge", 400));
  await t.test("unsupported value", () => rejects(c.createEntity({ partitionKey: "p", rowKey: "2", f: () => 1 }), "InvalidInput", 400));
});

test("text of every kind crosses into the engine and back", async (t) => {
  // The request frame copies ASCII by a loop and hands text from its first non-ASCII
  // character on, or long text, to TextEncoder; the answer reads short ASCII by a loop.
  const c = await tableIn(t);
  const keys = ["ab✓", "𝄞x", "ascii then é", "a".repeat(400) + "é", "é".repeat(300), "b".repeat(500), "it's \"q\" % + ü"];
  for (const k of keys) await c.createEntity({ partitionKey: k, rowKey: k, s: `${k}|${k}`, long: k.repeat(4), ctl: "tab\tnew\nline" });
  for (const k of keys) {
    const e = await c.getEntity(k, k);
    assert.deepEqual([e.partitionKey, e.rowKey, e.s, e.long, e.ctl], [k, k, `${k}|${k}`, k.repeat(4), "tab\tnew\nline"], k.slice(0, 20));
    const [q] = await collect(c.listEntities({ queryOptions: { filter: odata`PartitionKey eq ${k} and s eq ${`${k}|${k}`}` } }));
    assert.equal(q?.rowKey, k, k.slice(0, 20));
  }
});

test("getEntity answers the keys stored, which are the keys asked for only when ASCII", async (t) => {
  // A point read's answer takes its keys from the call when they are the same ASCII text.
  // A read's lone surrogate crosses into the engine as U+FFFD (TextEncoder's), and so
  // finds the entity stored with U+FFFD, whose keys it answers.
  const c = await tableIn(t);
  for (const [k, stored] of [["plain", "plain"], ["p\uD800", "p\uFFFD"], ["\uDC00x", "\uFFFDx"]]) {
    await c.createEntity({ partitionKey: stored, rowKey: stored });
    const e = await c.getEntity(k, k);
    assert.deepEqual([e.partitionKey, e.rowKey], [stored, stored], JSON.stringify(k));
  }
});

test("reads stay right while Go's memory grows between calls", async (t) => {
  // Growing the wasm memory detaches the views JavaScript reads and writes through;
  // Engine remakes them when it finds them detached.
  const c = await tableIn(t);
  const mem = c._target._engine._x.mem;
  const before = mem.buffer.byteLength;
  const big = "x".repeat(30000);
  for (let i = 0; mem.buffer.byteLength < before + (16 << 20); i++) {
    const rk = String(i).padStart(6, "0");
    await c.createEntity({ partitionKey: "p", rowKey: rk, big, i });
    const e = await c.getEntity("p", rk);
    assert.ok(e.big === big && e.i === i, `entity ${i}`);
  }
});

test("typed values round-trip exactly", async (t) => {
  const c = await tableIn(t);
  const guid = "0d391d16-97f1-4b9a-be68-4cc871f90001";
  const when = "2021-08-31T15:40:49.6724407Z";
  const bytes = new Uint8Array([0, 1, 2, 253, 254, 255]);
  await c.createEntity({
    partitionKey: "p", rowKey: "typed",
    big: { value: "9007199254740993", type: "Int64" }, neg: -(2n ** 63n),
    when: { value: when, type: "DateTime" }, bytes,
    id: { value: guid, type: "Guid" },
    nan: NaN, inf: Infinity, ninf: -Infinity, half: 0.5, dbl: { value: 5, type: "Double" },
    i32: 7, s: "héllo ✓ 𝄞", f: false,
  });

  await t.test("as the SDK converts them", async () => {
    const e = await c.getEntity("p", "typed");
    assert.equal(e.big, 9007199254740993n);
    assert.equal(e.neg, -(2n ** 63n));
    assert.ok(e.when instanceof Date);
    assert.equal(e.when.toISOString(), "2021-08-31T15:40:49.672Z");
    assert.deepEqual(e.bytes, bytes);
    assert.deepEqual(e.id, { value: guid, type: "Guid" });
    assert.ok(Number.isNaN(e.nan));
    assert.equal(e.inf, Infinity);
    assert.equal(e.ninf, -Infinity);
    assert.equal(e.half, 0.5);
    assert.equal(e.i32, 7);
    assert.equal(e.s, "héllo ✓ 𝄞");
    assert.equal(e.f, false);
  });

  await t.test("with disableTypeConversion", async () => {
    const e = await c.getEntity("p", "typed", { disableTypeConversion: true });
    assert.deepEqual(e.big, { value: "9007199254740993", type: "Int64" });
    assert.deepEqual(e.when, { value: when, type: "DateTime" });
    assert.deepEqual(e.bytes, { value: "AAEC/f7/", type: "Binary" });
    assert.deepEqual(e.nan, { value: "NaN", type: "Double" });
    assert.deepEqual(e.ninf, { value: "-Infinity", type: "Double" });
    assert.deepEqual(e.i32, { value: "7", type: "Int32" });
  });

  await t.test("read, written back, read again", async () => {
    const e = await c.getEntity("p", "typed");
    await c.updateEntity(e, "Replace", { etag: e.etag });
    const again = await c.getEntity("p", "typed", { disableTypeConversion: true });
    assert.equal(again.when.value, when, "a Date read from the store keeps its 7 digits");
    assert.equal(again.big.value, "9007199254740993");
    assert.equal(again.bytes.value, "AAEC/f7/");
    assert.equal(again.id.value, guid);
    assert.equal(again.nan.value, "NaN");
    assert.equal(again.inf.value, "Infinity");
  });

  await t.test("a changed Date is written as it now is", async () => {
    const e = await c.getEntity("p", "typed");
    e.when.setUTCFullYear(2022);
    await c.updateEntity({ partitionKey: "p", rowKey: "typed", when: e.when });
    const again = await c.getEntity("p", "typed", { disableTypeConversion: true });
    assert.equal(again.when.value, "2022-08-31T15:40:49.6720000Z");
  });

  await t.test("ErrValueInvalid", () => rejects(c.createEntity({ partitionKey: "p", rowKey: "x", g: { value: "nope", type: "Guid" } }), "InvalidInput", 400));
});

test("TableClient writes", async (t) => {
  const c = await tableIn(t);
  const base = { partitionKey: "p", rowKey: "1" };

  await t.test("upsertEntity Merge and Replace", async () => {
    await c.upsertEntity({ ...base, a: 1, b: 2 });
    await c.upsertEntity({ ...base, c: 3 }, "Merge");
    assert.deepEqual(props(await c.getEntity("p", "1")), { a: 1, b: 2, c: 3 });
    await c.upsertEntity({ ...base, d: 4 }, "Replace");
    assert.deepEqual(props(await c.getEntity("p", "1")), { d: 4 });
  });

  await t.test("updateEntity with etag", async () => {
    const { etag } = await c.updateEntity({ ...base, e: 5 }, "Merge");
    const { etag: next } = await c.updateEntity({ ...base, f: 6 }, "Replace", { etag });
    assert.notEqual(next, etag);
    assert.deepEqual(props(await c.getEntity("p", "1")), { f: 6 });
    await rejects(c.updateEntity({ ...base, g: 7 }, "Merge", { etag }), "UpdateConditionNotSatisfied", 412);
  });

  await t.test("updateEntity ErrEntityNotFound", () => rejects(c.updateEntity({ partitionKey: "p", rowKey: "none", a: 1 }), "ResourceNotFound", 404));
  await t.test("updateEntity bad mode", () => rejects(c.updateEntity(base, "Bogus"), "InvalidInput", 400));

  await t.test("deleteEntity with etag", async () => {
    const { etag } = await c.upsertEntity({ ...base, h: 8 });
    await rejects(c.deleteEntity("p", "1", { etag: `W/"datetime'2001-01-01T00%3A00%3A00.0000000Z'"` }), "UpdateConditionNotSatisfied", 412);
    await rejects(c.deleteEntity("p", "1", { etag: "garbage" }), "InvalidInput", 400);
    await c.deleteEntity("p", "1", { etag });
    await rejects(c.getEntity("p", "1"), "ResourceNotFound", 404);
    await rejects(c.deleteEntity("p", "1"), "ResourceNotFound", 404);
  });
});

test("TableClient.listEntities", async (t) => {
  const c = await tableIn(t);
  const actions = [];
  for (let i = 0; i < 2500; i++) {
    const pk = `p${Math.floor(i / 100)}`;
    actions.push({ partitionKey: pk, rowKey: String(i).padStart(5, "0"), n: i, name: i % 2 ? "odd" : "even's" });
  }
  for (let i = 0; i < actions.length; i += 100) await c.submitTransaction(actions.slice(i, i + 100).map((e) => ["create", e]));

  await t.test("all, across pages", async () => {
    const all = await collect(c.listEntities());
    assert.equal(all.length, 2500);
    const byKey = (a, b) => (a.partitionKey < b.partitionKey ? -1 : a.partitionKey > b.partitionKey ? 1 : a.rowKey < b.rowKey ? -1 : 1);
    assert.deepEqual(all.map((e) => e.n), actions.slice().sort(byKey).map((e) => e.n));
  });

  await t.test("filter with odata and select", async () => {
    const name = "even's";
    const it = c.listEntities({ queryOptions: { filter: odata`PartitionKey eq ${"p3"} and name eq ${name} and n lt ${310}`, select: ["rowKey", "n"] } });
    const got = await collect(it);
    assert.deepEqual(got.map((e) => e.n), [300, 302, 304, 306, 308]);
    assert.deepEqual(Object.keys(got[0]).sort(), ["etag", "n", "rowKey"]);
  });

  await t.test("byPage maxPageSize and continuationToken", async () => {
    const it = c.listEntities({ queryOptions: { filter: "n ge 10 and n lt 30" } }).byPage({ maxPageSize: 7 });
    const first = (await it.next()).value;
    assert.deepEqual(first.map((e) => e.n), [10, 11, 12, 13, 14, 15, 16]);
    const rest = await collect(c.listEntities({ queryOptions: { filter: "n ge 10 and n lt 30" } }).byPage({ maxPageSize: 7, continuationToken: first.continuationToken }));
    assert.deepEqual(rest.flat().map((e) => e.n), Array.from({ length: 13 }, (_, i) => 17 + i));
    assert.equal(rest.at(-1).continuationToken, undefined);
  });

  await t.test("ErrFilterSyntax", () => rejects(collect(c.listEntities({ queryOptions: { filter: "n eq" } })), "InvalidInput", 400));
  await t.test("ErrTopInvalid", () => rejects(collect(c.listEntities().byPage({ maxPageSize: 5000 })), "InvalidQueryParameterValue", 400));
  await t.test("ErrTokenInvalid", () => rejects(collect(c.listEntities().byPage({ continuationToken: "bogus" })), "InvalidInput", 400));
});

test("TableClient.submitTransaction", async (t) => {
  const c = await tableIn(t);
  await c.createEntity({ partitionKey: "b", rowKey: "old", v: 1 });
  const { etag } = await c.createEntity({ partitionKey: "b", rowKey: "upd", v: 1 });

  await t.test("OK", async () => {
    const res = await c.submitTransaction([
      ["create", { partitionKey: "b", rowKey: "new", v: 2 }],
      ["upsert", { partitionKey: "b", rowKey: "ups", v: 3 }, "Replace"],
      ["update", { partitionKey: "b", rowKey: "upd", w: 4 }, "Merge", { etag }],
      ["delete", { partitionKey: "b", rowKey: "old" }],
    ]);
    assert.equal(res.status, 202);
    assert.equal(res.subResponses.length, 4);
    assert.match(res.getResponseForEntity("new").etag, /^W\//);
    assert.equal(res.getResponseForEntity("old").etag, undefined);
    const all = await collect(c.listEntities());
    assert.deepEqual(all.map((e) => [e.rowKey, e.v, e.w]), [["new", 2, undefined], ["upd", 1, 4], ["ups", 3, undefined]]);
  });

  await t.test("ErrEntityExists is atomic and names the action", async () => {
    await assert.rejects(
      c.submitTransaction([["create", { partitionKey: "b", rowKey: "x1" }], ["create", { partitionKey: "b", rowKey: "new" }]]),
      (e) => e.code === "EntityAlreadyExists" && e.statusCode === 409 && e.index === 1 && e.message.startsWith("1:"),
    );
    await rejects(c.getEntity("b", "x1"), "ResourceNotFound", 404);
  });

  await t.test("ErrBatchPartitionMismatch", () =>
    rejects(c.submitTransaction([["create", { partitionKey: "b", rowKey: "y" }], ["create", { partitionKey: "c", rowKey: "y" }]]), "CommandsInBatchActOnDifferentPartitions", 400));
  await t.test("ErrBatchDuplicateRow", () =>
    rejects(c.submitTransaction([["upsert", { partitionKey: "b", rowKey: "y" }], ["delete", { partitionKey: "b", rowKey: "y" }]]), "InvalidDuplicateRow", 400));
  await t.test("ErrBatchEmpty", () => rejects(c.submitTransaction([]), "InvalidInput", 400));
  await t.test("ErrBatchTooManyOperations", () =>
    rejects(c.submitTransaction(Array.from({ length: 101 }, (_, i) => ["create", { partitionKey: "b", rowKey: `z${i}` }])), "InvalidInput", 400));
});

function props(e) {
  const { etag, timestamp, partitionKey, rowKey, ...rest } = e;
  return rest;
}
