import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { TableServiceClient, TableClient, odata } from "@azure/data-tables";
import { startServer, expectCode, statusOf } from "./server.mjs";

let server, service;
const opts = { allowInsecureConnection: true, retryOptions: { maxRetries: 0 } };

before(async () => {
  server = await startServer();
  service = TableServiceClient.fromConnectionString(server.connectionString, opts);
});
after(async () => server?.stop());

async function names(iter) {
  const out = [];
  for await (const t of iter) out.push(t.name);
  return out;
}

test("createTable, then TableAlreadyExists case-insensitively", async () => {
  const box = {};
  await service.createTable("People", statusOf(box));
  assert.equal(box.status, 201);
  // The JS client swallows TableAlreadyExists; the raw answer shows it.
  await service.createTable("PEOPLE", statusOf(box));
  assert.equal(box.status, 409);
  assert.equal(box.headers.get("x-ms-error-code"), "TableAlreadyExists");
});

test("createTable with an invalid name is InvalidResourceName", async () => {
  await expectCode(assert, service.createTable("9lives"), 400, "InvalidResourceName");
  await expectCode(assert, service.createTable("ab"), 400, "InvalidResourceName");
});

test("listTables with an odata filter and byPage", async () => {
  const want = [];
  for (let i = 0; i < 12; i++) {
    const name = `list${String(i).padStart(2, "0")}`;
    await service.createTable(name);
    want.push(name);
  }
  const filtered = await names(service.listTables({ queryOptions: { filter: odata`TableName ge ${"list03"} and TableName lt ${"list06"}` } }));
  assert.deepEqual(filtered, ["list03", "list04", "list05"]);

  const sizes = [];
  const paged = [];
  for await (const page of service.listTables({ queryOptions: { filter: odata`TableName ge ${"list"} and TableName lt ${"lisu"}` } }).byPage({ maxPageSize: 5 })) {
    sizes.push(page.length);
    paged.push(...page.map((t) => t.name));
  }
  assert.deepEqual(sizes, [5, 5, 2]);
  assert.deepEqual(paged, want);
});

test("deleteTable, then ResourceNotFound", async () => {
  await service.createTable("Doomed");
  await service.deleteTable("doomed");
  const all = await names(service.listTables());
  assert.ok(!all.includes("Doomed"));
  // The JS client swallows 404 on deleteTable; the raw answer shows it.
  const box = {};
  const client = TableClient.fromConnectionString(server.connectionString, "Doomed", opts);
  await client.deleteTable(statusOf(box));
  assert.equal(box.status, 404);
  assert.equal(box.headers.get("x-ms-error-code"), "ResourceNotFound");
});
