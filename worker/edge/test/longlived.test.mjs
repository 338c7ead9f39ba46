// One Go instance serves many requests in an object without panics or leaks: after a
// warm-up, a thousand more requests leave the goroutine count where it was and the heap
// (after a collection) within a small bound, and the instance served every one of them.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { generateTableSas } from "@azure/data-tables";
import { startEdge } from "../runtime.mjs";
import { clients, tempDir, stats, credential } from "./helpers.mjs";

const tmp = tempDir();
let edge;
after(async () => {
  await edge?.stop();
  tmp.cleanup();
});

// round sends n requests, 8 at a time: upserts of 20 entities, point reads and queries.
async function round(base, sas, n) {
  let next = 0;
  const one = async () => {
    for (let i = next++; i < n; i = next++) {
      const key = `(PartitionKey='p',RowKey='r${i % 20}')`;
      const res = i % 3 === 0
        ? await fetch(`${base}${key}?${sas}`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ n: i, s: "x".repeat(200) }) })
        : await fetch(`${base}${i % 3 === 1 ? key : "()"}?${sas}`, { headers: { accept: "application/json;odata=nometadata" } });
      const body = await res.text();
      assert.ok(res.status < 300, `request ${i}: ${res.status} ${body}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, one));
}

test("a thousand requests through one Go instance: no panic, no leak", async (t) => {
  edge = await startEdge({ persistDir: tmp.dir });
  const { service, endpoint } = clients(edge.url);
  await service.createTable("Busy");
  const sas = generateTableSas("Busy", credential, { permissions: { query: true, add: true, update: true }, expiresOn: new Date(Date.now() + 3600e3) });
  const base = `${endpoint}/Busy`;
  for (let i = 0; i < 20; i++) await fetch(`${base}(PartitionKey='p',RowKey='r${i}')?${sas}`, { method: "PUT", headers: { "content-type": "application/json" }, body: "{}" });
  await round(base, sas, 200);
  const s1 = await stats(edge.url, "busy");
  await round(base, sas, 1000);
  const s2 = await stats(edge.url, "busy");
  t.diagnostic(`after warm-up ${JSON.stringify(s1)}; after 1000 more ${JSON.stringify(s2)}`);
  assert.equal(s2.served - s1.served, 1000, "the same instance served every request");
  assert.equal(s2.panics, 0);
  assert.ok(s2.goroutines <= s1.goroutines, `goroutines ${s1.goroutines} → ${s2.goroutines}`);
  assert.ok(s2.heapAlloc - s1.heapAlloc < 2 << 20, `heap ${s1.heapAlloc} → ${s2.heapAlloc}`);
});

test("an object whose Go instance ends starts a new one from its storage", async () => {
  const { service, table } = clients(edge.url);
  await service.createTable("Phoenix2");
  await table("Phoenix2").createEntity({ partitionKey: "p", rowKey: "r", n: 42 });
  for (let i = 0; i < 3; i++) await table("Phoenix2").getEntity("p", "r");
  const before = await stats(edge.url, "phoenix2");
  const res = await fetch(`${edge.url}/__tabletop/exit/devstoreaccount1/phoenix2`);
  assert.deepEqual(await res.json(), { exited: true });
  const e = await table("Phoenix2").getEntity("p", "r");
  assert.equal(e.n, 42);
  const after = await stats(edge.url, "phoenix2");
  assert.equal(before.served, 5, "the first insert is served twice: before and after its object is given the table");
  assert.equal(after.served, 1, "a new instance serves");
});
