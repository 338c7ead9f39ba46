import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { TableClient, odata } from "@azure/data-tables";
import { startServer, expectCode } from "./server.mjs";

let server, client;
const opts = { allowInsecureConnection: true, retryOptions: { maxRetries: 0 } };

// 2,500 entities in 5 partitions of 500: entity i is p{i/500} / r{i%500, 4 digits}, with
// num i (Int32), big i*2^32 (Int64), even, and name.
before(async () => {
  server = await startServer();
  client = TableClient.fromConnectionString(server.connectionString, "Many", opts);
  await client.createTable();
  for (let b = 0; b < 25; b++) {
    const actions = [];
    for (let i = b * 100; i < (b + 1) * 100; i++) {
      const entity = {
        partitionKey: `p${Math.floor(i / 500)}`,
        rowKey: `r${String(i % 500).padStart(4, "0")}`,
        num: i,
        big: { value: (BigInt(i) << 32n).toString(), type: "Int64" },
        even: i % 2 === 0,
        name: `n${i}`,
      };
      actions.push(["create", entity]);
    }
    await client.submitTransaction(actions);
  }
});
after(async () => server?.stop());

async function all(iter) {
  const out = [];
  for await (const e of iter) out.push(e);
  return out;
}

test("listEntities returns all 2,500 in key order", async () => {
  const got = await all(client.listEntities());
  assert.equal(got.length, 2500);
  got.forEach((e, i) => assert.equal(e.num, i));
});

test("byPage pages of 1,000 and of maxPageSize, with continuation tokens", async () => {
  const sizes = [];
  for await (const page of client.listEntities().byPage()) sizes.push(page.length);
  assert.deepEqual(sizes, [1000, 1000, 500]);

  const pager = client.listEntities().byPage({ maxPageSize: 300 });
  const first = (await pager.next()).value;
  assert.equal(first.length, 300);
  assert.ok(first.continuationToken);
  // Resume from the token with a fresh iterator.
  const resumed = client.listEntities().byPage({ maxPageSize: 300, continuationToken: first.continuationToken });
  const second = (await resumed.next()).value;
  assert.equal(second[0].num, 300);
});

test("odata tagged filters on keys and typed properties", async () => {
  const pk = "p3";
  const keys = await all(client.listEntities({ queryOptions: { filter: odata`PartitionKey eq ${pk} and RowKey ge ${"r0100"} and RowKey lt ${"r0110"}` } }));
  assert.deepEqual(keys.map((e) => e.num), [1600, 1601, 1602, 1603, 1604, 1605, 1606, 1607, 1608, 1609]);

  const typed = await all(client.listEntities({ queryOptions: { filter: odata`num ge ${2490} and even eq ${true}` } }));
  assert.deepEqual(typed.map((e) => e.num), [2490, 2492, 2494, 2496, 2498]);

  const big = await all(client.listEntities({ queryOptions: { filter: `big gt ${(2497n << 32n).toString()}L` } }));
  assert.deepEqual(big.map((e) => e.num), [2498, 2499]);

  const none = await all(client.listEntities({ queryOptions: { filter: odata`name eq ${"n1'"}` } }));
  assert.equal(none.length, 0);
});

test("select returns only the selected properties", async () => {
  const got = await all(client.listEntities({ queryOptions: { filter: odata`num lt 2`, select: ["name", "num"] } }));
  assert.equal(got.length, 2);
  assert.equal(got[1].name, "n1");
  assert.equal(got[1].partitionKey, undefined);
  assert.equal(got[1].even, undefined);
  assert.ok(got[1].etag);
});

test("query errors", async () => {
  await expectCode(assert, all(client.listEntities({ queryOptions: { filter: "num gt" } })), 400, "InvalidInput");
  await expectCode(assert, all(client.listEntities({ queryOptions: { filter: "num gt 99999999999" } })), 400, "InvalidInput");
  const missing = TableClient.fromConnectionString(server.connectionString, "Missing", opts);
  await expectCode(assert, all(missing.listEntities()), 404, "TableNotFound");
});
