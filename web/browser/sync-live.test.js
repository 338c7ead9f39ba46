// Live sync between two browser profiles through the native server and through the edge
// worker in local workerd: each runs TableSync.start() with a poll interval of a minute,
// and a write in one appears in the other within seconds, both ways, through the change
// feed request each holds open (native) or the subscriber socket each keeps (the edge).
import { test } from "node:test";
import assert from "node:assert/strict";
import { TableClient } from "@azure/data-tables";
import { serve } from "./serve.js";
import { startNative, startEdgeWorker } from "../test/servers.js";
import { live, arrives, allowCORS, cred, web } from "./live-profile.js";

test("two browsers see each other's writes live through the native server", async (t) => {
  const server = await startNative();
  t.after(() => server.stop());
  await scenario(t, server);
});

test("two browsers see each other's writes live through the edge worker, on sockets", async (t) => {
  const server = await startEdgeWorker({ TABLETOP_DEBUG: "1" });
  if (!server) {
    assert.ok(!process.env.TABLETOP_SYNC_EDGE, "TABLETOP_SYNC_EDGE is set: the edge must be built (make worker)");
    return t.skip("worker/edge/build missing: run make worker");
  }
  t.after(() => server.stop());
  await scenario(t, server);
  const feed = async () => (await (await fetch(`${server.origin}/__tabletop/stats/devstoreaccount1/live`)).json()).feed;
  assert.deepEqual(await feed(), { held: 0, subscribers: 2 }, "each profile waits on a socket, and no request is held");
});

/** scenario writes three times in each of two live profiles and waits for the other to see it. */
async function scenario(t, server) {
  const site = await serve(web);
  t.after(() => site.close());
  await allowCORS(server);
  await new TableClient(server.url, "live", cred, { allowInsecureConnection: true }).createTable();
  const a = await live(t, site, server.url, "live");
  const b = await live(t, site, server.url, "live");
  for (let i = 0; i < 3; i++) {
    await a.write("fromA", i);
    await arrives(b, "fromA", i);
    await b.write("fromB", i);
    await arrives(a, "fromB", i);
  }
  assert.deepEqual([...a.errors, ...b.errors], []);
}
