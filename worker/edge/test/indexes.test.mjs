// Secondary indexes at the edge (worker/rest/README.md, "Secondary indexes"): PUT
// /{table}?comp=indexes reaches the table's object through the glue, authorized by an
// account SAS with write (the JS SDK cannot sign c); Query Entities then answers the
// index plan in x-tabletop-plan, and again after a restart of the runtime, which
// rebuilds the index from the entities.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { generateAccountSas, generateTableSas } from "@azure/data-tables";
import { startEdge } from "../runtime.mjs";
import { clients, credential, tempDir, accountName } from "./helpers.mjs";

const tmp = tempDir();
after(() => tmp.cleanup());
const hour = () => new Date(Date.now() + 3600e3);
const headers = { Accept: "application/json;odata=minimalmetadata", "x-ms-version": "2019-02-02" };

/** declare sends method to table's index extension for property with an account SAS. */
async function declare(url, method, table, property, permissions) {
  const sas = generateAccountSas(credential, { expiresOn: hour(), permissions, resourceTypes: "co" });
  const res = await fetch(`${url}/${accountName}/${table}?comp=indexes&property=${property}&${sas}`, { method, headers });
  return { status: res.status, code: res.headers.get("x-ms-error-code") };
}

/** query runs one page of filter with a query-only table SAS: the plan and the row keys. */
async function query(url, table, filter) {
  const sas = generateTableSas(table, credential, { permissions: { query: true }, expiresOn: hour() });
  const res = await fetch(`${url}/${accountName}/${table}()?$filter=${encodeURIComponent(filter)}&${sas}`, { headers });
  assert.equal(res.status, 200, await res.clone().text());
  return { plan: res.headers.get("x-tabletop-plan"), keys: (await res.json()).value.map((e) => e.RowKey) };
}

test("an index declared at the edge answers queries, across a restart", async () => {
  let edge = await startEdge({ persistDir: tmp.dir });
  try {
    const { service, table } = clients(edge.url);
    await service.createTable("Shop");
    const t = table("Shop");
    for (let i = 0; i < 20; i++) await t.createEntity({ partitionKey: `p${i % 2}`, rowKey: `r${String(i).padStart(2, "0")}`, Price: i % 4 });
    assert.deepEqual(await query(edge.url, "Shop", "Price eq 1"), { plan: "table scan", keys: ["r01", "r05", "r09", "r13", "r17"] });
    assert.deepEqual(await declare(edge.url, "PUT", "Shop", "Price", { query: true, list: true }), { status: 403, code: "AuthorizationPermissionMismatch" });
    assert.deepEqual(await declare(edge.url, "PUT", "Shop", "Price", { write: true }), { status: 204, code: null });
    assert.deepEqual(await query(edge.url, "Shop", "Price eq 1"), { plan: "index(Price) eq", keys: ["r01", "r05", "r09", "r13", "r17"] });
    await t.deleteEntity("p1", "r05");
    await edge.stop();
    edge = await startEdge({ persistDir: tmp.dir });
    assert.deepEqual(await query(edge.url, "Shop", "Price eq 1"), { plan: "index(Price) eq", keys: ["r01", "r09", "r13", "r17"] });
    assert.deepEqual(await declare(edge.url, "DELETE", "Shop", "Price", { delete: true }), { status: 204, code: null });
    assert.equal((await query(edge.url, "Shop", "Price eq 1")).plan, "table scan");
  } finally {
    await edge.stop();
  }
});
