// The SDK's shape: a program written for @azure/data-tables runs with only its import and
// constructors changed (test/types/sdk-sample.ts, type-checked by tsc in make test), and
// each piece of the shape it relies on.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { createHmac } from "node:crypto";
import ts from "typescript";
import { fresh, rejects } from "./helpers.js";
import * as T from "../tabletop.js";
import * as SDK from "@azure/data-tables";

const { openStore, TableClient, TableServiceClient, TableTransaction, AzureNamedKeyCredential, generateTableSas, generateAccountSas, closeStores } = T;

test("the SDK sample runs", async () => {
  const src = new URL("./types/sdk-sample.ts", import.meta.url);
  const out = new URL("./types/sdk-sample.js", import.meta.url);
  const js = ts.transpileModule(await readFile(src, "utf8"), { compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 } }).outputText;
  await writeFile(out, js);
  const { main } = await import(out.href);
  const log = await main(`memory:${fresh()}`);
  await closeStores();
  const want = [
    /^url tabletop:memory:\S+ tabletop:memory:\S+$/,
    /^table products\d+$/,
    /^page of 1 tables$/,
    /^created etag=true date=true version=2019-02-02 requestId=true$/,
    /^fetched Marker 5 etag$/,
    /^listed Marker 5$/,
    /^transaction 202 4$/,
    /^acl read-only:r$/,
    /^cors 1$/,
    /^stats live$/,
    /^sas true true true$/,
    /^aborted AbortError$/,
    /^error 409 EntityAlreadyExists 409$/,
  ];
  assert.equal(log.length, want.length, log.join("\n"));
  want.forEach((re, i) => assert.match(log[i], re));
});

test("a connection string or URL where a store name goes is an error", () => {
  const conn = "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=abc==;EndpointSuffix=core.windows.net";
  assert.throws(() => TableClient.fromConnectionString(conn, "t"), TypeError);
  assert.throws(() => new TableServiceClient("UseDevelopmentStorage=true"), TypeError);
  assert.throws(() => new TableClient("https://acct.table.core.windows.net", "t"), TypeError);
  assert.rejects(openStore("AccountName=a;AccountKey=b"), TypeError);
  assert.doesNotThrow(() => new TableClient("my-app.db", "t"));
});

test("TableTransaction.updateEntity(entity, { etag }) and deleteEntity(pk, rk, { etag })", async () => {
  const store = await openStore(fresh(), { inMemory: true });
  const c = new TableClient(store, "things");
  await c.createTable();
  const { etag } = await c.createEntity({ partitionKey: "p", rowKey: "1", v: 1 });
  const tx = new TableTransaction();
  tx.updateEntity({ partitionKey: "p", rowKey: "1", v: 2 }, { etag });
  await c.submitTransaction(tx.actions);
  assert.equal((await c.getEntity("p", "1")).v, 2);
  const stale = new TableTransaction();
  stale.updateEntity({ partitionKey: "p", rowKey: "1", v: 3 }, { etag });
  await rejects(c.submitTransaction(stale.actions), "UpdateConditionNotSatisfied", 412);
  const del = new TableTransaction();
  del.deleteEntity("p", "1", { etag });
  await rejects(c.submitTransaction(del.actions), "UpdateConditionNotSatisfied", 412);
  await store.close();
});

test("RestError carries the SDK's fields", async () => {
  const store = await openStore(fresh(), { inMemory: true });
  const c = new TableClient(store, "things");
  await assert.rejects(c.getEntity("p", "1"), (e) => {
    assert.ok(T.isRestError(e));
    assert.equal(e.details.errorCode, "TableNotFound");
    assert.equal(e.response.status, 404);
    assert.equal(e.response.headers.get("x-ms-error-code"), "TableNotFound");
    assert.equal(JSON.parse(e.response.bodyAsText)["odata.error"].code, "TableNotFound");
    return true;
  });
  await store.close();
});

test("abortSignal", async (t) => {
  const store = await openStore(fresh(), { inMemory: true });
  const c = new TableClient(store, "things");
  await c.createTable();
  const aborted = AbortSignal.abort();
  for (const [name, call] of [
    ["createEntity", () => c.createEntity({ partitionKey: "p", rowKey: "1" }, { abortSignal: aborted })],
    ["deleteEntity", () => c.deleteEntity("p", "1", { abortSignal: aborted })],
    ["listEntities", async () => { for await (const _ of c.listEntities({ abortSignal: aborted })); }],
    ["createTable", () => new TableServiceClient(store).createTable("other", { abortSignal: aborted })],
  ]) {
    await t.test(name, () => assert.rejects(call(), { name: "AbortError" }));
  }
  await assert.rejects(c.getEntity("p", "1"), { code: "ResourceNotFound" }, "the aborted create did not happen");
  await store.close();
});

test("service properties are kept with the store", async () => {
  const name = fresh();
  let store = await openStore(name);
  const svc = new TableServiceClient(store);
  const before = await svc.getProperties();
  assert.deepEqual(before.cors, []);
  await svc.setProperties({ cors: [{ allowedOrigins: "*", allowedMethods: "GET", allowedHeaders: "", exposedHeaders: "", maxAgeInSeconds: 5 }] });
  await store.close();
  store = await openStore(name);
  const after = await new TableServiceClient(store).getProperties();
  assert.equal(after.cors[0].maxAgeInSeconds, 5);
  assert.equal(after.logging.version, "1.0");
  await store.close();
});

test("generateTableSas and generateAccountSas sign as the SDK does", () => {
  const key = Buffer.from("a key of the account").toString("base64");
  const ours = new AzureNamedKeyCredential("acct", key);
  const theirs = new SDK.AzureNamedKeyCredential("acct", key);
  const table = {
    permissions: { query: true, add: true, update: true, delete: true },
    startsOn: new Date("2021-01-01T00:00:00Z"), expiresOn: new Date("2031-01-01T00:00:00Z"),
    startPartitionKey: "a", endRowKey: "z", protocol: "https", ipRange: { start: "10.0.0.1", end: "10.0.0.9" },
  };
  assert.equal(sorted(generateTableSas("People", ours, table)), sorted(SDK.generateTableSas("People", theirs, table)));
  const account = { permissions: { query: true, write: true, list: true }, expiresOn: new Date("2031-01-01T00:00:00Z"), resourceTypes: "sco", services: { table: true } };
  assert.equal(sorted(generateAccountSas(ours, account)), sorted(SDK.generateAccountSas(theirs, account)));
  const sig = new URLSearchParams(generateAccountSas(ours, account)).get("sig");
  const toSign = `acct\nrwl\nt\nsco\n\n2031-01-01T00:00:00Z\n\n\n2019-02-02\n`;
  assert.equal(sig, createHmac("sha256", Buffer.from(key, "base64")).update(toSign).digest("base64"));
});

/** sorted puts a query string's parameters in order, to compare two SAS tokens. */
function sorted(q) {
  return [...new URLSearchParams(q)].sort().map(([k, v]) => `${k}=${v}`).join("&");
}
