import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { TableClient } from "@azure/data-tables";
import { startServer, expectCode, uniqueName } from "./server.mjs";

let server;
const opts = { allowInsecureConnection: true, retryOptions: { maxRetries: 0 } };

before(async () => {
  server = await startServer();
});
after(async () => server?.stop());

async function newTable() {
  const client = TableClient.fromConnectionString(server.connectionString, uniqueName("ent"), opts);
  await client.createTable();
  return client;
}

test("createEntity and getEntity with keys that need escaping", async () => {
  const client = await newTable();
  const keys = [
    ["p", "r"],
    ["it's", "quote'd ''twice''"],
    ["spaces and ümlauts 😀", "50% off & more +=,;:@!$()*"],
    ["", ""],
  ];
  for (const [partitionKey, rowKey] of keys) {
    await client.createEntity({ partitionKey, rowKey, name: `${partitionKey}/${rowKey}`.replace("/", "|") });
  }
  for (const [partitionKey, rowKey] of keys) {
    const e = await client.getEntity(partitionKey, rowKey);
    assert.equal(e.partitionKey, partitionKey);
    assert.equal(e.rowKey, rowKey);
    assert.equal(e.name, `${partitionKey}/${rowKey}`.replace("/", "|"));
    assert.match(e.etag, /^W\/"datetime'\d{4}-\d\d-\d\dT\d\d%3A\d\d%3A\d\d\.\d{7}Z'"$/);
    assert.ok(e.timestamp);
  }
  await expectCode(assert, client.createEntity({ partitionKey: "p", rowKey: "r" }), 409, "EntityAlreadyExists");
  await expectCode(assert, client.getEntity("p", "missing"), 404, "ResourceNotFound");
});

test("all eight property types round-trip", async () => {
  const client = await newTable();
  const when = new Date("2021-08-31T15:40:49.672Z");
  const entity = {
    partitionKey: "types",
    rowKey: "1",
    str: "héllo \"wörld\"\n",
    bin: new Uint8Array([0, 1, 2, 254, 255]),
    bool: false,
    date: when,
    dbl: { value: "5", type: "Double" },
    frac: 0.25,
    nan: { value: "NaN", type: "Double" },
    inf: { value: "-Infinity", type: "Double" },
    guid: { value: "0d391d16-97f1-4b9a-be68-4cc871f90001", type: "Guid" },
    i32: -2147483648,
    i64: { value: "-9223372036854775808", type: "Int64" },
  };
  await client.createEntity(entity);
  const got = await client.getEntity("types", "1");
  assert.equal(got.str, entity.str);
  assert.deepEqual(Array.from(got.bin), [0, 1, 2, 254, 255]);
  assert.equal(got.bool, false);
  assert.equal(got.date.toISOString(), when.toISOString());
  assert.equal(got.dbl, 5);
  assert.equal(got.frac, 0.25);
  assert.equal(got.nan, "NaN"); // the JS client leaves annotated Doubles' text as it is
  assert.equal(got.inf, "-Infinity");
  assert.deepEqual(got.guid, entity.guid);
  assert.equal(got.i32, -2147483648);
  assert.equal(got.i64, -9223372036854775808n); // the JS client reads Int64 as a BigInt

  // Without type conversion, the annotations show the stored types.
  const raw = await client.getEntity("types", "1", { disableTypeConversion: true });
  assert.deepEqual(raw.bin, { value: "AAEC/v8=", type: "Binary" });
  assert.deepEqual(raw.date, { value: "2021-08-31T15:40:49.6720000Z", type: "DateTime" });
  assert.deepEqual(raw.nan, { value: "NaN", type: "Double" });
  assert.deepEqual(raw.i64, { value: "-9223372036854775808", type: "Int64" });
});

test("updateEntity, merge and replace, with and without etags", async () => {
  const client = await newTable();
  const created = await client.createEntity({ partitionKey: "p", rowKey: "r", a: "a", b: "b" });
  await expectCode(assert, client.updateEntity({ partitionKey: "p", rowKey: "r", a: "x" }, "Replace", { etag: `W/"datetime'2001-01-01T00%3A00%3A00.0000000Z'"` }), 412, "UpdateConditionNotSatisfied");
  const replaced = await client.updateEntity({ partitionKey: "p", rowKey: "r", a: "x" }, "Replace", { etag: created.etag });
  assert.notEqual(replaced.etag, created.etag);
  assert.deepEqual(pick(await client.getEntity("p", "r"), "a", "b"), { a: "x", b: undefined });
  await client.updateEntity({ partitionKey: "p", rowKey: "r", c: "c" }, "Merge", { etag: replaced.etag });
  await client.updateEntity({ partitionKey: "p", rowKey: "r", d: 4 }, "Merge"); // etag "*"
  assert.deepEqual(pick(await client.getEntity("p", "r"), "a", "c", "d"), { a: "x", c: "c", d: 4 });
  await expectCode(assert, client.updateEntity({ partitionKey: "p", rowKey: "none" }, "Merge"), 404, "ResourceNotFound");
});

test("upsertEntity inserts and then replaces or merges", async () => {
  const client = await newTable();
  for (const mode of ["Replace", "Merge"]) {
    await client.upsertEntity({ partitionKey: mode, rowKey: "r", a: "a" }, mode);
    await client.upsertEntity({ partitionKey: mode, rowKey: "r", b: "b" }, mode);
    const got = pick(await client.getEntity(mode, "r"), "a", "b");
    assert.deepEqual(got, { a: mode === "Merge" ? "a" : undefined, b: "b" });
  }
});

test("deleteEntity with and without etag", async () => {
  const client = await newTable();
  const one = await client.createEntity({ partitionKey: "p", rowKey: "1" });
  await client.createEntity({ partitionKey: "p", rowKey: "2" });
  await expectCode(assert, client.deleteEntity("p", "1", { etag: `W/"datetime'2001-01-01T00%3A00%3A00.0000000Z'"` }), 412, "UpdateConditionNotSatisfied");
  await client.deleteEntity("p", "1", { etag: one.etag });
  await client.deleteEntity("p", "2");
  await expectCode(assert, client.deleteEntity("p", "2"), 404, "ResourceNotFound");
});

test("entity errors", async () => {
  const client = await newTable();
  const missing = TableClient.fromConnectionString(server.connectionString, "NoSuchTable", opts);
  await expectCode(assert, missing.createEntity({ partitionKey: "p", rowKey: "r" }), 404, "TableNotFound");
  await expectCode(assert, client.createEntity({ partitionKey: "a#b", rowKey: "r" }), 400, "OutOfRangeInput");
  await expectCode(assert, client.createEntity({ partitionKey: "p", rowKey: "r", "bad-name": 1 }), 400, "PropertyNameInvalid");
  await expectCode(assert, client.createEntity({ partitionKey: "p", rowKey: "r", big: "x".repeat(40000) }), 400, "PropertyValueTooLarge");
  const many = { partitionKey: "p", rowKey: "r" };
  for (let i = 0; i < 253; i++) many[`p${i}`] = i;
  await expectCode(assert, client.createEntity(many), 400, "TooManyProperties");
  const huge = { partitionKey: "p", rowKey: "r" };
  for (let i = 0; i < 20; i++) huge[`b${i}`] = new Uint8Array(60000);
  await expectCode(assert, client.createEntity(huge), 400, "EntityTooLarge");
});

function pick(o, ...names) {
  return Object.fromEntries(names.map((n) => [n, o[n]]));
}
