// Live sync between two browser profiles through the native server and through the edge
// worker in local workerd: each runs TableSync.start() with a poll interval of a minute,
// and a write in one appears in the other within seconds, both ways, through the change
// feed request each holds open.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { TableServiceClient, TableClient, AzureNamedKeyCredential } from "@azure/data-tables";
import { serve } from "./serve.js";
import { launch } from "./chromium.js";
import { startNative, startEdgeWorker, DEV_KEY } from "../test/servers.js";

const web = join(dirname(fileURLToPath(import.meta.url)), "..");
const cred = new AzureNamedKeyCredential("devstoreaccount1", DEV_KEY);

/** live opens a profile whose page syncs table with url live, and reports what it holds. */
async function live(t, site, url, table) {
  const b = await launch(await mkdtemp(join(tmpdir(), "tabletop-live-")));
  t.after(() => b.close());
  const page = await b.ctx.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`${site.url}browser/blank.html`);
  await page.evaluate(
    async ([url, table, key]) => {
      const T = await import("/tabletop.js");
      const client = new T.TableClient(await T.openStore("app"), "items");
      const sync = new T.TableSync(client, { url, table, credential: new T.AzureNamedKeyCredential("devstoreaccount1", key) });
      sync.start({ interval: 60_000 });
      window.app = { client, sync };
    },
    [url, table, DEV_KEY],
  );
  const value = (rk) => page.evaluate((rk) => window.app.client.getEntity("p", rk).then((e) => e.v, () => null), rk);
  const write = (rk, v) => page.evaluate(([rk, v]) => window.app.client.upsertEntity({ partitionKey: "p", rowKey: rk, v }), [rk, v]);
  return { value, write, errors };
}

/** arrives waits until profile holds v at rk, and returns how long that took. */
async function arrives(profile, rk, v) {
  const start = performance.now();
  while ((await profile.value(rk)) !== v) {
    assert.ok(performance.now() - start < 5000, `${rk}=${v} not seen live after 5 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return performance.now() - start;
}

test("two browsers see each other's writes live through the native server", async (t) => {
  const server = await startNative();
  t.after(() => server.stop());
  await scenario(t, server);
});

test("two browsers see each other's writes live through the edge worker", async (t) => {
  const server = await startEdgeWorker();
  if (!server) {
    assert.ok(!process.env.TABLETOP_SYNC_EDGE, "TABLETOP_SYNC_EDGE is set: the edge must be built (make worker)");
    return t.skip("worker/edge/build missing: run make worker");
  }
  t.after(() => server.stop());
  await scenario(t, server);
});

/** scenario writes three times in each of two live profiles and waits for the other to see it. */
async function scenario(t, server) {
  const site = await serve(web);
  t.after(() => site.close());
  await new TableServiceClient(server.url, cred, { allowInsecureConnection: true }).setProperties({
    cors: [{ allowedOrigins: "*", allowedMethods: "GET,PUT,POST,DELETE,MERGE,PATCH,OPTIONS", allowedHeaders: "*", exposedHeaders: "*", maxAgeInSeconds: 60 }],
  });
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
