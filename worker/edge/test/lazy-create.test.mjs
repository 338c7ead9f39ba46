// Create Table writes the catalog entry and nothing else: the table's object is given the
// table when it first needs it (it asks the account object), so Create Table starts no
// second Go instance, wakes no table object, and a table listed after a crash of the
// runtime is usable.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { startEdge } from "../runtime.mjs";
import { clients, tempDir } from "./helpers.mjs";

const tmp = tempDir();
after(() => tmp.cleanup());

const startedCount = async (edge) => (await (await fetch(`${edge.url}/__tabletop/started`)).json()).started;

async function listed(c) {
  const names = [];
  for await (const t of c.service.listTables()) names.push(t.name);
  return names;
}

test("Create Table starts only the account object's Go instance; the table object is given the table on its first request", async () => {
  let edge = await startEdge({ persistDir: tmp.dir });
  try {
    let c = clients(edge.url);
    const before = await startedCount(edge);
    await c.service.createTable("LazyOne");
    await c.service.createTable("LazyTwo");
    assert.equal(await startedCount(edge), before + 1, "only the account object started Go");

    await c.table("LazyOne").createEntity({ partitionKey: "p", rowKey: "r", n: 1 });
    assert.equal((await c.table("LazyOne").getEntity("p", "r")).n, 1);
    assert.equal(await startedCount(edge), before + 2, "the table object started on its first request");

    // Killed with LazyTwo only in the catalog: its object is given it on its first request, a batch.
    await edge.kill();
    edge = await startEdge({ persistDir: tmp.dir });
    c = clients(edge.url);
    await c.table("LazyTwo").submitTransaction([["create", { partitionKey: "p", rowKey: "r", n: 2 }]]);
    assert.equal((await c.table("LazyTwo").getEntity("p", "r")).n, 2);
    assert.deepEqual((await listed(c)).filter((n) => n.startsWith("Lazy")).sort(), ["LazyOne", "LazyTwo"]);
  } finally {
    await edge.stop();
  }
});

test("a table written down and never used is deleted, and created again, like any other", async () => {
  const edge = await startEdge({ persistDir: tmp.dir });
  try {
    const c = clients(edge.url);
    await c.service.createTable("LazyGone");
    await c.service.deleteTable("LazyGone");
    assert.ok(!(await listed(c)).includes("LazyGone"));
    await assert.rejects(c.table("LazyGone").createEntity({ partitionKey: "p", rowKey: "r" }), (err) => err.details?.errorCode === "TableNotFound");
    await c.service.createTable("LazyGone");
    await c.table("LazyGone").createEntity({ partitionKey: "p", rowKey: "r" });
    assert.equal((await c.table("LazyGone").getEntity("p", "r")).rowKey, "r");
  } finally {
    await edge.stop();
  }
});
