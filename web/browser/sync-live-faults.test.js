// Live sync off the happy path, in Chromium: through the native server (a held request)
// and through the edge worker (a subscriber socket), a subscriber whose SAS covers one key
// range hears that range only, and a server restarted in the middle of a stream of writes
// (the held request or the socket cut) costs the subscriber no write and applies none
// twice; through the edge worker, two browsers sync both ways, live (they poll once a
// minute), on a table that splits under them (its sockets closed, requests held again).
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TableClient, generateTableSas } from "@azure/data-tables";
import { serve } from "./serve.js";
import { startNative, startEdgeWorker } from "../test/servers.js";
import { mapOf } from "../../worker/edge/test/split-helpers.mjs";
import { live, arrives, allowCORS, cred, web } from "./live-profile.js";

/** servers are the two a live subscriber is tested against: the native server (held requests) and the edge (sockets). */
const servers = [
  ["the native server", async (data, addr) => startNative(data ? ["-data", data, ...(addr ? ["-addr", addr] : [])] : [])],
  ["the edge", async (data, addr) => startEdgeWorker({ TABLETOP_DEBUG: "1" }, data ? { persistDir: data, port: addr && Number(addr.split(":")[1]) } : {})],
];

/** builtOr skips t when the edge is not built (start resolved to null). */
function builtOr(t, server) {
  if (server) return true;
  assert.ok(!process.env.TABLETOP_SYNC_EDGE, "TABLETOP_SYNC_EDGE is set: the edge must be built (make worker)");
  t.skip("worker/edge/build missing: run make worker");
  return false;
}

/** feedStats is the edge table object's change feed counters: { held, subscribers }. */
async function feedStats(server, table) {
  const res = await fetch(`${server.origin}/__tabletop/stats/devstoreaccount1/${table}`);
  return (await res.json()).feed;
}

for (const [where, start] of servers) {
  test(`a live subscriber whose SAS covers one key range hears that range only, through ${where}`, async (t) => {
    const server = await start();
    if (!builtOr(t, server)) return;
    t.after(() => server.stop());
    const site = await serve(web);
    t.after(() => site.close());
    await allowCORS(server);
    const table = new TableClient(server.url, "ranged", cred, { allowInsecureConnection: true });
    await table.createTable();
    const sas = generateTableSas("ranged", cred, {
      permissions: { query: true },
      expiresOn: new Date(Date.now() + 3600_000),
      startPartitionKey: "in",
      endPartitionKey: "in",
    });
    const sub = await live(t, site, server.url, "ranged", { sas });
    for (let i = 0; i < 5; i++) {
      await table.upsertEntity({ partitionKey: "out", rowKey: `r${i}`, v: i });
      await table.upsertEntity({ partitionKey: "in", rowKey: `r${i}`, v: i });
      await arrives(sub, `r${i}`, i, { pk: "in" });
    }
    await new Promise((r) => setTimeout(r, 500)); // time for anything else to arrive
    const events = await sub.events();
    assert.deepEqual(events.filter((e) => !e.startsWith("in/")), [], "changes outside the SAS's range reached the subscriber");
    assert.equal(await sub.value("r0", "out"), null);
    assert.deepEqual(sub.errors, []);
    if (where === "the edge") assert.deepEqual(await feedStats(server, "ranged"), { held: 0, subscribers: 1 }, "the subscriber waits on a socket, not a held request");
  });

  test(`a server restarted in the middle of a stream: the live subscriber misses and repeats nothing, through ${where}`, async (t) => {
    const data = await mkdtemp(join(tmpdir(), "tabletop-restart-"));
    let server = await start(data);
    if (!builtOr(t, server)) return;
    const addr = new URL(server.origin).host;
    t.after(() => server.stop());
    const site = await serve(web);
    t.after(() => site.close());
    await allowCORS(server);
    const table = new TableClient(server.url, "stream", cred, { allowInsecureConnection: true });
    await table.createTable();
    const sub = await live(t, site, server.url, "stream");
    const writes = 40;
    for (let i = 0; i < writes; i++) {
      if (i === writes / 2) {
        await server.stop(); // the subscriber's held request, or its socket, is cut
        server = await start(data, addr);
      }
      await table.upsertEntity({ partitionKey: "p", rowKey: `k${i}`, v: i });
      if (i % 10 === 9) await arrives(sub, `k${i}`, i, { within: 30_000 }); // past the restart's backoff
    }
    for (let i = 0; i < writes; i++) assert.equal(await sub.value(`k${i}`), i, `k${i}`);
    const events = await sub.events();
    const seen = new Map();
    for (const e of events) seen.set(e, (seen.get(e) ?? 0) + 1);
    assert.deepEqual([...seen].filter(([, n]) => n > 1), [], "a change applied twice");
    assert.equal(seen.size, writes);
    if (where === "the edge") {
      await arrives(sub, "k39", 39);
      let feed = await feedStats(server, "stream");
      for (let tries = 0; feed.subscribers !== 1 && tries < 50; tries++) await new Promise((r) => setTimeout(r, 100)), (feed = await feedStats(server, "stream"));
      assert.deepEqual(feed, { held: 0, subscribers: 1 }, "the subscriber's socket was opened again after the restart");
    }
  });
}

test("two browsers sync both ways through an edge table that splits under them", async (t) => {
  const server = await startEdgeWorker({ TABLETOP_DEBUG: "1", TABLETOP_SPLIT_ENTITIES: "15" });
  if (!server) {
    assert.ok(!process.env.TABLETOP_SYNC_EDGE, "TABLETOP_SYNC_EDGE is set: the edge must be built (make worker)");
    return t.skip("worker/edge/build missing: run make worker");
  }
  t.after(() => server.stop());
  const site = await serve(web);
  t.after(() => site.close());
  await allowCORS(server);
  await new TableClient(server.url, "Shared", cred, { allowInsecureConnection: true }).createTable();
  const [a, b] = [await live(t, site, server.url, "Shared"), await live(t, site, server.url, "Shared")];
  for (let i = 0; i < 30; i++) {
    await a.write(`a${i}`, i, `p${String(i % 10).padStart(2, "0")}`);
    await b.write(`b${i}`, i, `p${String((i + 5) % 10).padStart(2, "0")}`);
  }
  await arrives(b, "a29", 29, { pk: "p09", within: 30_000 });
  await arrives(a, "b29", 29, { pk: "p04", within: 30_000 });
  const { map } = await mapOf(server.origin, "Shared");
  assert.ok(map.ranges.length >= 2, `the table did not split: ${map.ranges.length} range`);
  const remote = {};
  for await (const e of new TableClient(server.url, "Shared", cred, { allowInsecureConnection: true }).listEntities()) remote[`${e.partitionKey}/${e.rowKey}`] = e.v;
  assert.equal(Object.keys(remote).length, 60);
  for (const [name, p] of [["a", a], ["b", b]]) {
    let got = await p.contents();
    for (let tries = 0; Object.keys(got).length < 60 && tries < 100; tries++) {
      await new Promise((r) => setTimeout(r, 100));
      got = await p.contents();
    }
    assert.deepEqual(got, remote, `profile ${name} holds the table`);
  }
  assert.deepEqual([...a.errors, ...b.errors], []);
  t.diagnostic(`60 entities in ${map.ranges.length} ranges`);
});
