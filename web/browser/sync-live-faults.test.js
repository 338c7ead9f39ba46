// Live sync off the happy path, in Chromium through the native server: a subscriber whose
// SAS covers one key range hears that range only, and a server restarted in the middle of
// a stream of writes costs the subscriber no write and applies none twice.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TableClient, generateTableSas } from "@azure/data-tables";
import { serve } from "./serve.js";
import { startNative } from "../test/servers.js";
import { live, arrives, allowCORS, cred, web } from "./live-profile.js";

test("a live subscriber whose SAS covers one key range hears that range only", async (t) => {
  const server = await startNative();
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
});

test("a server restarted in the middle of a stream: the live subscriber misses and repeats nothing", async (t) => {
  const data = await mkdtemp(join(tmpdir(), "tabletop-restart-"));
  let server = await startNative(["-data", data]);
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
      await server.stop(); // the subscriber's held request is cut
      server = await startNative(["-data", data, "-addr", addr]);
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
});
