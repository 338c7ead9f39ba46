// A change feed request that waits (wait=seconds) at the edge: the table's object holds a
// page with no change until it serves a write, and answers with it at once; a write to
// another table does not answer it; a table split across objects holds it on each range's
// object, and a write to any range answers it.
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

    const rangesOf = async () => (await (await fetch(`${edge.url}/__tabletop/map/${accountName}/Live`)).json()).map.ranges.length;
    const splitTo = async (want) => {
      let n = await rangesOf();
      for (let i = 0; i < 100 && n < want; i++) await new Promise((r) => setTimeout(r, 100)), (n = await rangesOf());
      return n;
    };
    for (let i = 0; i < 8; i++) await table("Live").createEntity({ partitionKey: `p${i}`, rowKey: "x" }); // past the split limit
    const ranges = await splitTo(2);
    assert.ok(ranges >= 2 && ranges <= 8, `the table split into ${ranges} ranges, want 2 to 8`);

    // Split: the request is held on every range's object; a write to any answers it.
    let since = "";
    for (let more = true; more; ) ({ "tabletop.checkpoint": since, "tabletop.more": more } = (await feed(edge.url, "Live", since)).body);
    const split = feed(edge.url, "Live", since, 10);
    await new Promise((r) => setTimeout(r, 300));
    await table("Live").createEntity({ partitionKey: "p9", rowKey: "late" });
    const woke = await split;
    assert.deepEqual([woke.status, woke.keys], [200, ["late"]]);
    assert.equal(woke.body["tabletop.wait"], 10, "a split table honours the wait");
    assert.ok(woke.took >= 250 && woke.took < 3000, `answered after ${Math.round(woke.took)} ms`);
    const splitQuiet = await feed(edge.url, "Live", woke.body["tabletop.checkpoint"], 1);
    assert.deepEqual([splitQuiet.status, splitQuiet.keys, splitQuiet.body["tabletop.wait"]], [200, [], 1]);
    assert.ok(splitQuiet.took >= 900, `an empty split page waited ${Math.round(splitQuiet.took)} ms, want the 1 s asked`);
    assert.equal((await feed(edge.url, "Live", since, "x")).status, 400, "a wait that is no number");

    // Past 8 ranges a waiting page is answered at once, stating a wait of 0: clients poll.
    for (let i = 0; i < 60; i++) await table("Live").createEntity({ partitionKey: `q${String(i).padStart(2, "0")}`, rowKey: "x" });
    assert.ok((await splitTo(9)) > 8, "the table split into more than 8 ranges");
    for (let more = true; more; ) ({ "tabletop.checkpoint": since, "tabletop.more": more } = (await feed(edge.url, "Live", since)).body);
    const wide = await feed(edge.url, "Live", since, 10);
    assert.deepEqual([wide.status, wide.keys, wide.body["tabletop.wait"]], [200, [], 0]);
    assert.ok(wide.took < 3000, `a widely split table's page took ${Math.round(wide.took)} ms`);
  } finally {
    await edge.stop();
  }
});
