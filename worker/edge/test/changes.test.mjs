// The change feed at the edge (worker/rest/README.md, "Sync protocol"): GET /{table}()?comp=changes
// reaches the table's object through the glue, authorized by a table SAS; deletion
// records survive a restart of the runtime; TABLETOP_DELETION_RETENTION=0 keeps none, so a
// checkpoint is then answered 410 CheckpointExpired; a fresh storage answers 409
// CheckpointFromAnotherStore.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { generateTableSas } from "@azure/data-tables";
import { startEdge } from "../runtime.mjs";
import { clients, credential, tempDir, accountName } from "./helpers.mjs";

const tmp = tempDir();
const afresh = tempDir(); // another runtime's storage
after(() => (tmp.cleanup(), afresh.cleanup()));

/** changes reads one page of table's change feed with a query-only table SAS. */
async function changes(url, table, since = "", top = 1000) {
  const sas = generateTableSas(table, credential, { permissions: { query: true }, expiresOn: new Date(Date.now() + 3600e3) });
  const res = await fetch(`${url}/${accountName}/${table}()?comp=changes&since=${encodeURIComponent(since)}&$top=${top}&${sas}`, {
    headers: { Accept: "application/json;odata=minimalmetadata", "x-ms-version": "2019-02-02" },
  });
  const body = await res.json();
  if (res.ok) assert.equal(body["tabletop.checkpoint"], res.headers.get("x-tabletop-checkpoint"), "the body repeats the checkpoint");
  return {
    status: res.status,
    code: res.headers.get("x-ms-error-code"),
    checkpoint: res.headers.get("x-tabletop-checkpoint"),
    more: res.headers.get("x-tabletop-more"),
    keys: res.ok ? [...body.value.map((e) => e.RowKey), ...body["tabletop.deleted"].map((d) => `-${d.RowKey}`)] : [],
  };
}

test("the change feed reports deletions across a restart, and expires without retention", async () => {
  let edge = await startEdge({ persistDir: tmp.dir, vars: { TABLETOP_DELETION_RETENTION: "1h" } });
  let checkpoint;
  try {
    const { service, table } = clients(edge.url);
    await service.createTable("Synced");
    const t = table("Synced");
    for (const rk of ["a", "b", "c"]) await t.createEntity({ partitionKey: "p", rowKey: rk });
    const first = await changes(edge.url, "Synced");
    assert.deepEqual([first.status, first.more, first.keys], [200, "false", ["a", "b", "c"]]);
    checkpoint = first.checkpoint;
    await t.deleteEntity("p", "b");
    await t.submitTransaction([["delete", { partitionKey: "p", rowKey: "c" }], ["upsert", { partitionKey: "p", rowKey: "d" }]]);
    const names = [];
    for await (const e of t.listEntities()) names.push(e.rowKey);
    assert.deepEqual(names, ["a", "d"], "ordinary queries do not see deletion records");
  } finally {
    await edge.stop();
  }
  edge = await startEdge({ persistDir: tmp.dir, vars: { TABLETOP_DELETION_RETENTION: "1h" } });
  try {
    const next = await changes(edge.url, "Synced", checkpoint);
    assert.deepEqual([next.status, next.keys], [200, ["d", "-b", "-c"]]);
  } finally {
    await edge.stop();
  }
  edge = await startEdge({ persistDir: tmp.dir, vars: { TABLETOP_DELETION_RETENTION: "0" } });
  try {
    const expired = await changes(edge.url, "Synced", checkpoint);
    assert.deepEqual([expired.status, expired.code], [410, "CheckpointExpired"]);
    const fresh = await changes(edge.url, "Synced");
    assert.deepEqual([fresh.status, fresh.keys], [200, ["a", "d"]]);
  } finally {
    await edge.stop();
  }
  // A fresh storage is another store: its table of the same name is no evidence.
  edge = await startEdge({ persistDir: afresh.dir, vars: { TABLETOP_DELETION_RETENTION: "1h" } });
  try {
    const { service, table } = clients(edge.url);
    await service.createTable("Synced");
    await table("Synced").createEntity({ partitionKey: "p", rowKey: "a" });
    const other = await changes(edge.url, "Synced", checkpoint);
    assert.deepEqual([other.status, other.code], [409, "CheckpointFromAnotherStore"]);
  } finally {
    await edge.stop();
  }
});

test("a read from the start pages past entities older than the purged deletion records", async () => {
  // A retention of one second: the record of x's deletion is purged when y's is made
  // later, and the deletion horizon is then after a, b and c.
  const edge = await startEdge({ persistDir: tmp.dir, vars: { TABLETOP_DELETION_RETENTION: "1s" } });
  try {
    const { service, table } = clients(edge.url);
    await service.createTable("Aged");
    const t = table("Aged");
    for (const rk of ["a", "b", "c", "x"]) await t.createEntity({ partitionKey: "p", rowKey: rk });
    await t.deleteEntity("p", "x");
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await t.createEntity({ partitionKey: "p", rowKey: "y" });
    await t.deleteEntity("p", "y");
    const keys = [];
    let since = "";
    for (let more = "true"; more === "true"; ) {
      const page = await changes(edge.url, "Aged", since, 1);
      assert.equal(page.status, 200, `page after ${JSON.stringify(keys)}: ${page.status} ${page.code}`);
      keys.push(...page.keys);
      [since, more] = [page.checkpoint, page.more];
    }
    assert.deepEqual(keys, ["a", "b", "c", "-y"]);
  } finally {
    await edge.stop();
  }
});
