// What spans objects: Create/Delete Table keep the account's catalog and the table's own
// object in step, and the account's CORS rules reach entity answers from table objects
// within CORS_TTL_MS.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { generateTableSas } from "@azure/data-tables";
import { startEdge } from "../runtime.mjs";
import { clients, tempDir, credential, listAll, signedFetch } from "./helpers.mjs";

const CORS_TTL_MS = 5000; // src/objects.mjs, which imports cloudflare:workers and so only loads in workerd

let tmp, edge, c;
before(async () => {
  tmp = tempDir();
  edge = await startEdge({ persistDir: tmp.dir });
  c = clients(edge.url);
});
after(async () => {
  await edge?.stop();
  tmp?.cleanup();
});

test("a deleted table's object drops it: entities are gone, and a new table of that name starts empty", async () => {
  await c.service.createTable("Phoenix");
  await c.table("Phoenix").createEntity({ partitionKey: "p", rowKey: "r" });
  await c.service.deleteTable("PHOENIX");
  await assert.rejects(c.table("Phoenix").createEntity({ partitionKey: "p", rowKey: "r2" }), (err) => {
    assert.equal(err.statusCode, 404);
    assert.equal(err.details?.errorCode, "TableNotFound");
    return true;
  });
  await c.service.createTable("Phoenix");
  assert.deepEqual(await listAll(c.table("Phoenix")), []);
  const names = [];
  for await (const t of c.service.listTables()) names.push(t.name);
  assert.deepEqual(names, ["Phoenix"]);
});

test("an unauthenticated Delete Table deletes nothing", async () => {
  await c.service.createTable("Keep");
  await c.table("Keep").createEntity({ partitionKey: "p", rowKey: "r" });
  const res = await fetch(`${c.endpoint}/Tables('Keep')`, { method: "DELETE" });
  assert.equal(res.status, 403);
  assert.equal((await listAll(c.table("Keep"))).length, 1);
});

test("GET /Tables('t') answers the table, as Azure does, and 404 for one that does not exist", async () => {
  await c.service.createTable("Shown");
  const res = await signedFetch(edge.url, { method: "GET", path: "/Tables('Shown')", headers: { accept: "application/json;odata=nometadata" } });
  assert.equal(res.status, 200);
  assert.equal((await res.json()).TableName, "Shown");
  const missing = await signedFetch(edge.url, { method: "GET", path: "/Tables('Absent')", headers: { accept: "application/json;odata=nometadata" } });
  assert.equal(missing.status, 404);
  assert.equal(missing.headers.get("x-ms-error-code"), "TableNotFound");
});

test("the account's CORS rules apply to entity answers, and a change arrives within CORS_TTL_MS", async () => {
  await c.service.createTable("Cors");
  await c.table("Cors").createEntity({ partitionKey: "p", rowKey: "r" });
  const sas = generateTableSas("Cors", credential, { permissions: { query: true }, expiresOn: new Date(Date.now() + 3600e3) });
  const url = `${c.endpoint}/Cors(PartitionKey='p',RowKey='r')?${sas}`;
  const allowed = async () => (await fetch(url, { headers: { origin: "http://app.example" } })).headers.get("access-control-allow-origin");
  assert.equal(await allowed(), null, "no rules, no CORS headers");
  await c.service.setProperties({ cors: [{ allowedOrigins: "http://app.example", allowedMethods: "GET", allowedHeaders: "*", exposedHeaders: "*", maxAgeInSeconds: 5 }] });
  const t0 = Date.now();
  while ((await allowed()) !== "http://app.example") {
    assert.ok(Date.now() - t0 < CORS_TTL_MS + 1000, `rules not applied after ${Date.now() - t0} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
});
