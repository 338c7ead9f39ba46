import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import {
  TableClient,
  TableServiceClient,
  AzureNamedKeyCredential,
  AzureSASCredential,
  generateTableSas,
  generateAccountSas,
} from "@azure/data-tables";
import { startServer, expectCode, accountName, accountKey } from "./server.mjs";

let server, owner;
const opts = { allowInsecureConnection: true, retryOptions: { maxRetries: 0 } };
const cred = new AzureNamedKeyCredential(accountName, accountKey);

before(async () => {
  server = await startServer();
  owner = new TableServiceClient(server.endpoint, cred, opts);
  await owner.createTable("Secured");
  await owner.createTable("Ranged");
  const ranged = new TableClient(server.endpoint, "Ranged", cred, opts);
  for (const pk of ["a", "b", "c"]) await ranged.createEntity({ partitionKey: pk, rowKey: "1" });
});
after(async () => server?.stop());

function sasClient(table, sasOptions) {
  const sas = generateTableSas(table, cred, { expiresOn: new Date(Date.now() + 3600e3), ...sasOptions });
  return new TableClient(server.endpoint, table, new AzureSASCredential(sas), opts);
}

test("table SAS allows what it grants", async () => {
  const client = sasClient("Secured", { permissions: { query: true, add: true } });
  await client.createEntity({ partitionKey: "p", rowKey: "r", a: 1 });
  assert.equal((await client.getEntity("p", "r")).a, 1);
  let n = 0;
  for await (const _ of client.listEntities()) n++;
  assert.equal(n, 1);
});

test("table SAS denies what it does not grant", async () => {
  const client = sasClient("Secured", { permissions: { query: true, add: true } });
  await expectCode(assert, client.updateEntity({ partitionKey: "p", rowKey: "r", a: 2 }), 403, "AuthorizationPermissionMismatch");
  await expectCode(assert, client.deleteEntity("p", "r"), 403, "AuthorizationPermissionMismatch");
  const other = sasClient("Secured", { permissions: { query: true } });
  const wrongTable = new TableClient(server.endpoint, "Ranged", new AzureSASCredential(generateTableSas("Secured", cred, { permissions: { query: true } })), opts);
  await expectCode(assert, wrongTable.getEntity("a", "1"), 403, "AuthorizationFailure");
  await expectCode(assert, other.createEntity({ partitionKey: "p", rowKey: "x" }), 403, "AuthorizationPermissionMismatch");
  const expired = sasClient("Secured", { permissions: { query: true }, expiresOn: new Date(Date.now() - 60e3) });
  await expectCode(assert, expired.getEntity("p", "r"), 403, "AuthenticationFailed");
});

test("table SAS key ranges bound reads and writes", async () => {
  const client = sasClient("Ranged", { permissions: { query: true, add: true }, startPartitionKey: "b", endPartitionKey: "b" });
  const seen = [];
  for await (const e of client.listEntities()) seen.push(e.partitionKey);
  assert.deepEqual(seen, ["b"]);
  await client.createEntity({ partitionKey: "b", rowKey: "2" });
  await expectCode(assert, client.createEntity({ partitionKey: "c", rowKey: "2" }), 403, "AuthenticationFailed");
  await expectCode(assert, client.getEntity("a", "1"), 403, "AuthenticationFailed");
});

test("account SAS allows and denies by resource type and permission", async () => {
  const full = generateAccountSas(cred, {
    permissions: { query: true, write: true, delete: true, list: true, add: true, update: true },
    resourceTypes: "sco",
  });
  const service = new TableServiceClient(server.endpoint, new AzureSASCredential(full), opts);
  await service.createTable("ViaAccountSas");
  const table = new TableClient(server.endpoint, "ViaAccountSas", new AzureSASCredential(full), opts);
  await table.createEntity({ partitionKey: "p", rowKey: "r" });
  await table.upsertEntity({ partitionKey: "p", rowKey: "r", b: true });
  assert.equal((await table.getEntity("p", "r")).b, true);

  const readOnly = generateAccountSas(cred, { permissions: { query: true }, resourceTypes: "o" });
  const reader = new TableClient(server.endpoint, "ViaAccountSas", new AzureSASCredential(readOnly), opts);
  assert.equal((await reader.getEntity("p", "r")).b, true);
  await expectCode(assert, reader.createEntity({ partitionKey: "p", rowKey: "x" }), 403, "AuthorizationPermissionMismatch");
  const readerService = new TableServiceClient(server.endpoint, new AzureSASCredential(readOnly), opts);
  await expectCode(assert, readerService.listTables().next(), 403, "AuthorizationResourceTypeMismatch");
});

test("requests without valid credentials are AuthenticationFailed", async () => {
  const anonymous = new TableServiceClient(server.endpoint, opts);
  await expectCode(assert, anonymous.listTables().next(), 403, "AuthenticationFailed");
  const wrong = new TableServiceClient(server.endpoint, new AzureNamedKeyCredential(accountName, Buffer.alloc(64).toString("base64")), opts);
  await expectCode(assert, wrong.listTables().next(), 403, "AuthenticationFailed");
});

test("TableClient.fromConnectionString with the development connection string", async () => {
  const dev = server.connectionString;
  assert.match(dev, /^DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=Eby8.*;TableEndpoint=http:\/\/127\.0\.0\.1:\d+\/devstoreaccount1;$/);
  const client = TableClient.fromConnectionString(dev, "FromConnStr", opts);
  await client.createTable();
  await client.createEntity({ partitionKey: "p", rowKey: "r" });
  assert.equal((await client.getEntity("p", "r")).rowKey, "r");
});
