import { test } from "node:test";
import assert from "node:assert/strict";
import { fresh, rejects, collect } from "./helpers.js";
import { openStore, closeStores, TableServiceClient, TableClient } from "../tabletop.js";

test("TableServiceClient", async (t) => {
  const store = await openStore(fresh(), { inMemory: true });
  const svc = new TableServiceClient(store);
  t.after(() => store.close());

  await t.test("createTable OK, twice is not an error", async () => {
    for (const name of ["alpha", "beta", "gamma", "delta"]) await svc.createTable(name);
    await svc.createTable("alpha");
    const names = (await collect(svc.listTables())).map((x) => x.name);
    assert.deepEqual(names, ["alpha", "beta", "delta", "gamma"]);
  });

  await t.test("createTable ErrTableNameInvalid", async () => {
    await rejects(svc.createTable("1bad"), "InvalidResourceName", 400);
    await rejects(svc.createTable("tables"), "InvalidResourceName", 400);
  });

  await t.test("listTables filter", async () => {
    const it = svc.listTables({ queryOptions: { filter: "TableName ge 'beta' and TableName lt 'delta'" } });
    assert.deepEqual((await collect(it)).map((x) => x.name), ["beta"]);
  });

  await t.test("listTables byPage", async () => {
    const pages = await collect(svc.listTables().byPage({ maxPageSize: 3 }));
    assert.deepEqual(pages.map((p) => p.length), [3, 1]);
    assert.ok(pages[0].continuationToken);
    assert.equal(pages[1].continuationToken, undefined);
    const rest = await collect(svc.listTables().byPage({ maxPageSize: 3, continuationToken: pages[0].continuationToken }));
    assert.deepEqual(rest[0].map((x) => x.name), ["gamma"]);
  });

  await t.test("listTables ErrFilterSyntax", async () => {
    await rejects(collect(svc.listTables({ queryOptions: { filter: "TableName eq" } })), "InvalidInput", 400);
  });

  await t.test("deleteTable OK, missing is not an error", async () => {
    await svc.deleteTable("gamma");
    await svc.deleteTable("gamma");
    const names = (await collect(svc.listTables())).map((x) => x.name);
    assert.deepEqual(names, ["alpha", "beta", "delta"]);
  });

  await t.test("TableClient createTable and deleteTable", async () => {
    const c = new TableClient(store, "omega");
    await c.createTable();
    await c.createTable();
    await c.createEntity({ partitionKey: "p", rowKey: "r" });
    await c.deleteTable();
    await c.deleteTable();
    await rejects(c.getEntity("p", "r"), "TableNotFound", 404);
  });
});

test("clients from a store name share one store", async () => {
  const name = `memory:${fresh()}`;
  await new TableServiceClient(name).createTable("shared");
  const c = TableClient.fromConnectionString(name, "shared");
  await c.createEntity({ partitionKey: "a", rowKey: "b", x: 1 });
  assert.equal((await new TableClient(name, "shared").getEntity("a", "b")).x, 1);
  await closeStores();
});
