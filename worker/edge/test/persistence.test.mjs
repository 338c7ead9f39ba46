// A write acknowledged by the edge is in the Durable Object's storage: stop the runtime,
// start it again on the same storage, and every acknowledged write is there, with its
// types and ETag; deleted entities stay deleted; table ACLs and service properties too.
// Over 4 MiB of change sets make the store compact (snapshot plus log), and one batch's
// change set exceeds the storage's 2 MiB value limit (stored in parts).
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { startEdge } from "../runtime.mjs";
import { clients, tempDir, listAll, stats } from "./helpers.mjs";

const tmp = tempDir();
after(() => tmp.cleanup());

const g = "0d391d16-97f1-4b9a-be68-4cc871f90001";
function typed(i) {
  return {
    partitionKey: `p${i % 3}`,
    rowKey: `r${String(i).padStart(4, "0")}`,
    Str: `héllo ${i} \u{1F600}`,
    I32: i - 100,
    I64: { value: String(2n ** 62n + BigInt(i)), type: "Int64" },
    Dbl: { value: i + 0.5, type: "Double" },
    Bool: i % 2 === 0,
    When: { value: `2021-08-31T15:40:49.${String(1000000 + i).slice(1)}7Z`, type: "DateTime" },
    Id: { value: g, type: "Guid" },
    Bin: new Uint8Array([0, 1, 255, i % 256]),
  };
}

// acked records, per key, the ETag of the last acknowledged write (null: deleted).
const acked = new Map();
const keyOf = (e) => `${e.partitionKey}/${e.rowKey}`;

async function writeEverything(table, service) {
  for (let i = 0; i < 60; i++) {
    const e = typed(i);
    acked.set(keyOf(e), (await table.createEntity(e)).etag);
  }
  for (let i = 0; i < 60; i += 4) {
    const e = { partitionKey: `p${i % 3}`, rowKey: `r${String(i).padStart(4, "0")}`, Extra: `merged ${i}` };
    acked.set(keyOf(e), (await table.updateEntity(e, "Merge")).etag);
  }
  for (let i = 1; i < 60; i += 10) {
    const e = typed(i);
    await table.deleteEntity(e.partitionKey, e.rowKey);
    acked.set(keyOf(e), null);
  }
  // Two batches of 100 entities with ~30 KB each: change sets over 2 MiB, and over 4 MiB in all.
  for (const part of ["big1", "big2"]) {
    const actions = [];
    for (let i = 0; i < 100; i++) actions.push(["create", { partitionKey: part, rowKey: `r${i}`, Blob: "x".repeat(30000) + i }]);
    const res = await table.submitTransaction(actions);
    assert.equal(res.status, 202);
    res.subResponses.forEach((sr, i) => acked.set(`${part}/r${i}`, sr.headers?.etag ?? sr.etag));
  }
  const expiry = new Date(Math.floor(Date.now() / 1000) * 1000 + 3600e3);
  await table.setAccessPolicy([{ id: "reader", accessPolicy: { permission: "r", expiry } }]);
  await service.setProperties({ cors: [{ allowedOrigins: "http://app.example", allowedMethods: "GET", allowedHeaders: "*", exposedHeaders: "*", maxAgeInSeconds: 5 }] });
}

test("every acknowledged write survives a restart of the runtime", async () => {
  let edge = await startEdge({ persistDir: tmp.dir });
  let before;
  try {
    const { service, table } = clients(edge.url);
    await service.createTable("Persisted");
    await service.createTable("Second");
    await table("Second").createEntity({ partitionKey: "a", rowKey: "b", N: 1 });
    await writeEverything(table("Persisted"), service);
    before = await listAll(table("Persisted"));
    const st = await stats(edge.url, "persisted");
    assert.ok(st.pageKeys > 0, `the store compacted into pages: ${JSON.stringify(st)}`);
  } finally {
    await edge.stop();
  }
  edge = await startEdge({ persistDir: tmp.dir });
  try {
    const { service, table } = clients(edge.url);
    const afterRestart = await listAll(table("Persisted"));
    assert.deepEqual(afterRestart, before, "entities, types and ETags after the restart");
    const got = new Map(afterRestart.map((e) => [keyOf(e), e.etag]));
    for (const [key, etag] of acked) {
      if (etag === null) assert.ok(!got.has(key), `${key} was deleted and stays deleted`);
      else if (etag) assert.equal(got.get(key), etag, `ETag of ${key}`);
      else assert.ok(got.has(key), `${key} is there`);
    }
    const one = afterRestart.find((e) => e.rowKey === "r0004");
    assert.deepEqual(one.I64, { value: String(2n ** 62n + 4n), type: "Int64" });
    assert.deepEqual(one.When, { value: "2021-08-31T15:40:49.0000047Z", type: "DateTime" });
    assert.deepEqual(one.Id, { value: g, type: "Guid" });
    assert.deepEqual(one.Extra, { value: "merged 4", type: "String" });
    const names = [];
    for await (const t of service.listTables()) names.push(t.name);
    assert.deepEqual(names.sort(), ["Persisted", "Second"]);
    assert.equal((await table("Second").getEntity("a", "b")).N, 1);
    const acl = await table("Persisted").getAccessPolicy();
    assert.equal(acl[0].id, "reader");
    const props = await service.getProperties();
    assert.equal(props.cors[0].allowedOrigins, "http://app.example");
  } finally {
    await edge.stop();
  }
});
