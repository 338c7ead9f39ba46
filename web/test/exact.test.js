// Exact types across the boundary, and export and import in the Tabletop dump format.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fresh, rejects, collect } from "./helpers.js";
import { openStore, TableClient, TableServiceClient } from "../tabletop.js";
import { allTypes, checkAllTypes, assertAllTypes } from "./alltypes.js";

async function tableIn(t, name = "typed") {
  const store = await openStore(fresh(), { inMemory: true });
  t.after(() => store.close());
  const c = new TableClient(store, name);
  await c.createTable();
  return c;
}

test("Doubles read back as Doubles", async (t) => {
  const c = await tableIn(t);
  await c.createEntity({ partitionKey: "p", rowKey: "1", five: { value: 5, type: "Double" }, big: 3e9, str: { value: "5.0", type: "Double" }, i: 5 });
  const e = await c.getEntity("p", "1", { disableTypeConversion: true });
  assert.deepEqual(e.five, { value: "5", type: "Double" });
  assert.deepEqual(e.big, { value: "3000000000", type: "Double" });
  assert.deepEqual(e.str, { value: "5", type: "Double" });
  assert.deepEqual(e.i, { value: "5", type: "Int32" });
  const [listed] = await collect(c.listEntities({ disableTypeConversion: true }));
  assert.deepEqual(listed.five, { value: "5", type: "Double" });
  // Written back as read, the types stay.
  await c.updateEntity(e, "Replace");
  assert.deepEqual((await c.getEntity("p", "1", { disableTypeConversion: true })).five, { value: "5", type: "Double" });
});

test("getEntity and listEntities (binary answers) read every type exactly, and alike", async (t) => {
  const c = await tableIn(t);
  await c.createEntity(allTypes("p", "é\u2028"));
  for (const disableTypeConversion of [false, true]) {
    const got = await c.getEntity("p", "é\u2028", { disableTypeConversion });
    const [listed] = await collect(c.listEntities({ disableTypeConversion }));
    assert.deepEqual(got, listed);
    assert.deepEqual(Object.keys(got), Object.keys(listed));
    assert.equal(got.when instanceof Date || disableTypeConversion, true);
    if (disableTypeConversion) assertAllTypes(listed, assert);
    const select = ["max64", "rowKey", "missing", "bytes", "etag"];
    const projected = await c.getEntity("p", "é\u2028", { disableTypeConversion, queryOptions: { select } });
    const [listedProjected] = await collect(c.listEntities({ disableTypeConversion, queryOptions: { select } }));
    assert.deepEqual(projected, listedProjected);
    assert.equal(projected.missing, null);
    assert.equal(projected.partitionKey, undefined);
  }
});

test("a typed value that is not of its type is an error, never coerced", async (t) => {
  const c = await tableIn(t);
  const cases = [
    ["Int32 text", { value: "fifteen", type: "Int32" }],
    ["Int32 fraction", { value: 1.5, type: "Int32" }],
    ["Int32 range", { value: 2 ** 31, type: "Int32" }],
    ["Int32 NaN", { value: NaN, type: "Int32" }],
    ["Int64 range", { value: "9223372036854775808", type: "Int64" }],
    ["Int64 text", { value: "12abc", type: "Int64" }],
    ["Int64 unsafe number", { value: 2 ** 60, type: "Int64" }],
    ["Double text", { value: "five", type: "Double" }],
    ["Boolean yes", { value: "yes", type: "Boolean" }],
    ["Boolean 1", { value: 1, type: "Boolean" }],
    ["DateTime text", { value: "yesterday", type: "DateTime" }],
    ["DateTime invalid Date", { value: new Date("nope"), type: "DateTime" }],
    ["Guid", { value: "not-a-guid", type: "Guid" }],
    ["Binary", { value: "!!not base64", type: "Binary" }],
    ["String number", { value: 5, type: "String" }],
    ["unknown type", { value: "x", type: "Decimal" }],
    ["invalid Date", new Date(NaN)],
  ];
  for (const [name, v] of cases) {
    await t.test(name, async () => {
      await rejects(c.createEntity({ partitionKey: "p", rowKey: name, v }), "InvalidInput", 400);
      await rejects(c.getEntity("p", name), "ResourceNotFound", 404);
    });
  }
  await t.test("the message names the property", () =>
    assert.rejects(c.createEntity({ partitionKey: "p", rowKey: "x", Age: { value: "fifteen", type: "Int32" } }), /Age/));
});

test("exportTable and importTable round-trip every type exactly", async (t) => {
  const c = await tableIn(t, "people");
  await c.createEntity(allTypes("p", "1"));
  await c.createEntity({ partitionKey: "p", rowKey: "2" });
  const dump = await c.exportTable();
  const lines = dump.trimEnd().split("\n");
  assert.equal(lines[0], '{"format":"tabletop-dump","version":1,"table":"people"}');
  assert.match(lines[1], /^\{"PartitionKey":"p","RowKey":"1","Timestamp@odata.type":"Edm.DateTime","Timestamp":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z",/);
  assert.match(lines[1], /"whole@odata.type":"Edm.Double","whole":5.0,/);
  assert.match(lines[1], /"min64@odata.type":"Edm.Int64","min64":"-9223372036854775808",/);

  const other = await tableIn(t, "copy");
  assert.deepEqual(await other.importTable(dump), { tables: ["copy"], entities: 2 });
  await checkAllTypes(other, "p", "1", assert);
  const again = await other.exportTable();
  assert.equal(stripTimestamps(again).replace('"table":"copy"', '"table":"people"'), stripTimestamps(dump));
});

test("exportStore and importStore, gzip included", async (t) => {
  const store = await openStore(fresh(), { inMemory: true });
  t.after(() => store.close());
  const svc = new TableServiceClient(store);
  for (const name of ["alpha", "empty"]) await svc.createTable(name);
  await new TableClient(store, "alpha").createEntity(allTypes("p", "1"));
  const text = await svc.exportStore();
  const gz = await svc.exportStore({ gzip: true });
  assert.ok(gz instanceof Uint8Array && gz[0] === 0x1f && gz[1] === 0x8b);

  const target = await openStore(fresh(), { inMemory: true });
  t.after(() => target.close());
  assert.deepEqual(await new TableServiceClient(target).importStore(gz), { tables: ["alpha", "empty"], entities: 1 });
  assert.equal(stripTimestamps(await new TableServiceClient(target).exportStore()), stripTimestamps(text));
  await checkAllTypes(new TableClient(target, "alpha"), "p", "1", assert);
});

test("import refuses what it cannot read exactly, and applies nothing", async (t) => {
  const store = await openStore(fresh(), { inMemory: true });
  t.after(() => store.close());
  const svc = new TableServiceClient(store);
  const header = '{"format":"tabletop-dump","version":1,"table":"people"}';
  const cases = [
    ["ErrValueInvalid", `${header}\n{"PartitionKey":"p","RowKey":"1"}\n{"PartitionKey":"p","RowKey":"2","Age@odata.type":"Edm.Int32","Age":"fifteen"}\n`, /line 3/],
    ["ErrBoolean", `${header}\n{"PartitionKey":"p","RowKey":"2","B@odata.type":"Edm.Boolean","B":"yes"}\n`, /line 2/],
    ["ErrDumpVersion", '{"format":"tabletop-dump","version":2,"table":"people"}\n', /line 1.*version|version.*line 1/s],
    ["ErrNotGzip", new Uint8Array([0x1f, 0x8b, 1, 2, 3]), /gzip/],
  ];
  for (const [name, dump, says] of cases) {
    await t.test(name, async () => {
      await assert.rejects(svc.importStore(dump), (e) => e.code === "InvalidInput" && e.statusCode === 400 && says.test(e.message));
      assert.deepEqual(await collect(svc.listTables()), []);
    });
  }
});

function stripTimestamps(dump) {
  return dump.replace(/"Timestamp":"[^"]*"/g, '"Timestamp":""');
}
