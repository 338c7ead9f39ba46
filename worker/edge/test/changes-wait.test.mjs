// A change feed request that waits (wait=seconds) at the edge: the table's object holds a
// page with no change until it serves a write, and answers with it at once; a write to
// another table does not answer it; a table split across objects answers at once, stating
// a wait of 0, so clients poll it.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { startEdge } from "../runtime.mjs";
import { generateTableSas } from "@azure/data-tables";
import { clients, credential, tempDir, accountName } from "./helpers.mjs";

const tmp = tempDir();
after(() => tmp.cleanup());

/** feed reads a page of table's change feed after since, waiting up to wait seconds. */
async function feed(url, table, since, wait) {
  const sas = generateTableSas(table, credential, { permissions: { query: true }, expiresOn: new Date(Date.now() + 3600e3) });
  const path = `/${accountName}/${table}()?comp=changes&since=${encodeURIComponent(since)}${wait === undefined ? "" : `&wait=${wait}`}&${sas}`;
  const start = performance.now();
  const res = await fetch(url + path, { headers: { Accept: "application/json;odata=minimalmetadata", "x-ms-version": "2019-02-02" } });
  const body = await res.json();
  return { status: res.status, body, took: performance.now() - start, keys: res.ok ? body.value.map((e) => e.RowKey) : [] };
}

test("a waiting change feed request is answered by the next write to its table", async () => {
  const edge = await startEdge({ persistDir: tmp.dir, vars: { TABLETOP_DEBUG: "1", TABLETOP_SPLIT_ENTITIES: "6" } });
  try {
    const { service, table } = clients(edge.url);
    await service.createTable("Live");
    await service.createTable("Other");
    const end = (await feed(edge.url, "Live", "")).body["tabletop.checkpoint"];

    const waiting = feed(edge.url, "Live", end, 10);
    await new Promise((r) => setTimeout(r, 300));
    await table("Other").createEntity({ partitionKey: "p", rowKey: "elsewhere" });
    await new Promise((r) => setTimeout(r, 300));
    await table("Live").createEntity({ partitionKey: "p", rowKey: "1" });
    const got = await waiting;
    assert.equal(got.status, 200);
    assert.deepEqual(got.keys, ["1"]);
    assert.equal(got.body["tabletop.wait"], 10, "the wait honoured");
    assert.ok(got.took >= 550 && got.took < 3000, `answered after ${Math.round(got.took)} ms`);

    const quiet = await feed(edge.url, "Live", got.body["tabletop.checkpoint"], 1);
    assert.deepEqual([quiet.status, quiet.keys], [200, []]);
    assert.ok(quiet.took >= 900, `an empty page waited ${Math.round(quiet.took)} ms, want the 1 s asked`);

    for (let i = 0; i < 20; i++) await table("Live").createEntity({ partitionKey: `p${i}`, rowKey: "x" }); // past the split limit
    let split;
    for (let i = 0; i < 100 && (split = await feed(edge.url, "Live", "", 10)).body["tabletop.wait"] !== 0; i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(split.body["tabletop.wait"], 0, "a split table states a wait of 0");
    assert.ok(split.took < 3000, `a split table's page took ${Math.round(split.took)} ms`);
  } finally {
    await edge.stop();
  }
});
