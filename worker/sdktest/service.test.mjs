import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { TableClient, TableServiceClient, AzureNamedKeyCredential, AzureSASCredential, generateTableSas } from "@azure/data-tables";
import { startServer, expectCode, accountName, accountKey } from "./server.mjs";

let server, service;
const opts = { allowInsecureConnection: true, retryOptions: { maxRetries: 0 } };
const cred = new AzureNamedKeyCredential(accountName, accountKey);

before(async () => {
  server = await startServer();
  service = new TableServiceClient(server.endpoint, cred, opts);
});
after(async () => server?.stop());

test("table access policies, and a SAS naming one", async () => {
  await service.createTable("Acl");
  const client = new TableClient(server.endpoint, "Acl", cred, opts);
  const expiry = new Date(Math.floor(Date.now() / 1000) * 1000 + 3600e3); // the JS client sends whole seconds
  await client.setAccessPolicy([
    { id: "reader", accessPolicy: { permission: "r", expiry } },
    { id: "empty" },
  ]);
  const got = await client.getAccessPolicy(); // an array of signed identifiers
  assert.equal(got.length, 2);
  assert.equal(got[0].id, "reader");
  assert.equal(got[0].accessPolicy.permission, "r");
  assert.equal(new Date(got[0].accessPolicy.expiry).getTime(), expiry.getTime());
  assert.equal(got[1].id, "empty");

  const sas = generateTableSas("Acl", cred, { identifier: "reader" });
  const reader = new TableClient(server.endpoint, "Acl", new AzureSASCredential(sas), opts);
  for await (const _ of reader.listEntities()) break;
  await expectCode(assert, reader.createEntity({ partitionKey: "p", rowKey: "r" }), 403, "AuthorizationPermissionMismatch");
});

test("service properties keep what a set leaves out, and CORS rules apply", async () => {
  const before = await service.getProperties();
  assert.equal(before.logging.version, "1.0");
  await service.setProperties({
    cors: [{ allowedOrigins: "http://localhost:5173", allowedMethods: "GET,PUT,POST,MERGE,DELETE,OPTIONS", allowedHeaders: "*", exposedHeaders: "*", maxAgeInSeconds: 60 }],
  });
  const after = await service.getProperties();
  assert.equal(after.cors.length, 1);
  assert.equal(after.cors[0].allowedOrigins, "http://localhost:5173");
  assert.equal(after.logging.version, "1.0");

  const preflight = await fetch(`${server.endpoint}/Tables`, {
    method: "OPTIONS",
    headers: { Origin: "http://localhost:5173", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization,x-ms-date" },
  });
  assert.equal(preflight.status, 200);
  assert.equal(preflight.headers.get("access-control-allow-origin"), "http://localhost:5173");
  assert.equal(preflight.headers.get("access-control-max-age"), "60");

  const denied = await fetch(`${server.endpoint}/Tables`, {
    method: "OPTIONS",
    headers: { Origin: "http://elsewhere.example", "Access-Control-Request-Method": "POST" },
  });
  assert.equal(denied.status, 403);
  assert.equal(denied.headers.get("x-ms-error-code"), "CorsPreflightFailure");
});

test("service statistics, on the secondary location only, as Azure serves them", async () => {
  const secondary = new TableServiceClient(`${server.endpoint}-secondary`, cred, opts);
  const stats = await secondary.getStatistics();
  assert.equal(stats.geoReplication.status, "live");
  assert.ok(stats.geoReplication.lastSyncTime instanceof Date);
  await assert.rejects(service.getStatistics(), (e) => e.statusCode === 400 && /InvalidQueryParameterValue/.test(e.message));
});
