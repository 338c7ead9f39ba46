import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { TableClient, TableTransaction } from "@azure/data-tables";
import { startServer, uniqueName, errorCode } from "./server.mjs";

let server;
const opts = { allowInsecureConnection: true, retryOptions: { maxRetries: 0 } };

before(async () => {
  server = await startServer();
});
after(async () => server?.stop());

async function newTable() {
  const client = TableClient.fromConnectionString(server.connectionString, uniqueName("batch"), opts);
  await client.createTable();
  return client;
}

async function count(client) {
  let n = 0;
  for await (const _ of client.listEntities()) n++;
  return n;
}

test("submitTransaction applies every kind of operation", async () => {
  const client = await newTable();
  for (const rowKey of ["upd", "mrg", "del"]) await client.createEntity({ partitionKey: "p", rowKey, old: "x" });
  const tx = new TableTransaction();
  tx.createEntity({ partitionKey: "p", rowKey: "new", a: "a" });
  tx.updateEntity({ partitionKey: "p", rowKey: "upd", a: "u" }, "Replace");
  tx.updateEntity({ partitionKey: "p", rowKey: "mrg", a: "m" }, "Merge");
  tx.upsertEntity({ partitionKey: "p", rowKey: "ir", a: "ir" }, "Replace");
  tx.upsertEntity({ partitionKey: "p", rowKey: "im", a: "im" }, "Merge");
  tx.deleteEntity("p", "del");
  const res = await client.submitTransaction(tx.actions);
  assert.equal(res.status, 202);
  assert.deepEqual(res.subResponses.map((r) => r.status), [204, 204, 204, 204, 204, 204]);
  const created = res.getResponseForEntity("new");
  assert.ok(created, "the insert's sub-response names its RowKey");
  assert.match(created.etag, /^W\/"datetime'/);
  assert.equal((await client.getEntity("p", "new")).etag, created.etag.trim());
  assert.equal((await client.getEntity("p", "mrg")).old, "x");
  assert.equal((await client.getEntity("p", "upd")).old, undefined);
  assert.equal(await count(client), 5);
});

test("a failing transaction reports the operation index and applies nothing", async () => {
  const client = await newTable();
  await client.createEntity({ partitionKey: "p", rowKey: "exists" });
  await client.createEntity({ partitionKey: "p", rowKey: "other" });
  const actions = [
    ["create", { partitionKey: "p", rowKey: "a" }],
    ["update", { partitionKey: "p", rowKey: "other", touched: true }, "Merge"],
    ["create", { partitionKey: "p", rowKey: "exists" }],
    ["create", { partitionKey: "p", rowKey: "b" }],
  ];
  await assert.rejects(client.submitTransaction(actions), (err) => {
    assert.equal(err.statusCode, 409);
    assert.equal(errorCode(err), "EntityAlreadyExists");
    assert.match(err.message, /^2:The specified entity already exists\.\nRequestId:[0-9a-f-]{36}\nTime:\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$/);
    return true;
  });
  assert.equal(await count(client), 2);
  assert.equal((await client.getEntity("p", "other")).touched, undefined);
});

test("a transaction naming one row twice is InvalidDuplicateRow", async () => {
  const client = await newTable();
  const actions = [
    ["create", { partitionKey: "p", rowKey: "a" }],
    ["upsert", { partitionKey: "p", rowKey: "a" }],
  ];
  await assert.rejects(client.submitTransaction(actions), (err) => {
    assert.equal(err.statusCode, 400);
    assert.equal(errorCode(err), "InvalidDuplicateRow");
    assert.match(err.message, /^1:A command with RowKey 'a' is already present in the batch/);
    return true;
  });
  assert.equal(await count(client), 0);
});
