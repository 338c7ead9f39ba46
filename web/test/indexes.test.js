import { test } from "node:test";
import assert from "node:assert/strict";
import { fresh, rejects, collect } from "./helpers.js";
import { openStore, TableClient } from "../tabletop.js";

test("TableClient secondary indexes", async (t) => {
  const name = fresh();
  let store = await openStore(name);
  t.after(() => store.close());
  let tc = new TableClient(store, "Shop");
  await tc.createTable();
  for (let i = 0; i < 30; i++) await tc.createEntity({ partitionKey: `p${i % 3}`, rowKey: `r${String(i).padStart(2, "0")}`, Price: i % 5 });

  const firstPage = async (filter) => (await collect(tc.listEntities({ queryOptions: { filter } }).byPage()))[0];

  await t.test("a query without an index is a table scan", async () => {
    const page = await firstPage("Price eq 2");
    assert.equal(page.plan, "table scan");
    assert.equal(page.length, 6);
  });

  await t.test("createIndex OK: the query reads the index, with the same answer", async () => {
    await tc.createIndex("Price");
    await tc.createIndex("Price"); // declaring again does nothing
    const page = await firstPage("Price eq 2");
    assert.equal(page.plan, "index(Price) eq");
    assert.deepEqual(page.map((e) => e.rowKey), ["r12", "r27", "r07", "r22", "r02", "r17"]); // in key order, p0 first
    assert.deepEqual(await tc.listIndexes(), ["Price"]);
  });

  await t.test("the index is kept through writes and a reopen", async () => {
    await tc.upsertEntity({ partitionKey: "p0", rowKey: "r00", Price: 2 }, "Replace");
    await tc.deleteEntity("p2", "r02");
    store.close();
    store = await openStore(name);
    tc = new TableClient(store, "Shop");
    const page = await firstPage("Price ge 2 and Price lt 3");
    assert.equal(page.plan, "index(Price) range and index(Price) range");
    assert.equal(page.length, 6);
    assert.ok(page.some((e) => e.rowKey === "r00") && !page.some((e) => e.rowKey === "r02"));
  });

  await t.test("dropIndex OK", async () => {
    await tc.dropIndex("Price");
    assert.deepEqual(await tc.listIndexes(), []);
    assert.equal((await firstPage("Price eq 2")).plan, "table scan");
  });

  await t.test("dropIndex ErrIndexNotFound", async () => {
    await rejects(tc.dropIndex("Price"), "ResourceNotFound", 404);
  });

  await t.test("createIndex ErrPropertyNameInvalid", async () => {
    await rejects(tc.createIndex("PartitionKey"), "PropertyNameInvalid", 400);
  });

  await t.test("createIndex ErrTableNotFound", async () => {
    await rejects(new TableClient(store, "Nope").createIndex("Price"), "TableNotFound", 404);
  });
});
