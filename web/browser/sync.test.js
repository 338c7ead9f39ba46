// Sync between two browser profiles through a server: both edit offline (the same entity
// included), reconnect and converge, the conflict reported per the default policy
// (server wins); deletes go both ways; a browser killed in the middle of a sync loses no
// acknowledged write and duplicates nothing. The pages come from another origin than the
// server, which allows them by a CORS rule (Set Service Properties).
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { TableServiceClient, TableClient, AzureNamedKeyCredential } from "@azure/data-tables";
import { serve } from "./serve.js";
import { launch } from "./chromium.js";
import { startNative, startAzurite, startEdgeWorker, DEV_KEY } from "../test/servers.js";

const web = join(dirname(fileURLToPath(import.meta.url)), "..");
const cred = new AzureNamedKeyCredential("devstoreaccount1", DEV_KEY);

/** allowAll lets any origin use the endpoint, with every response header readable. */
async function allowAll(url) {
  const svc = new TableServiceClient(url, cred, { allowInsecureConnection: true });
  await svc.setProperties({
    cors: [{ allowedOrigins: "*", allowedMethods: "GET,PUT,POST,DELETE,MERGE,PATCH,OPTIONS", allowedHeaders: "*", exposedHeaders: "*", maxAgeInSeconds: 60 }],
  });
}

/** profile is one browser profile with a page that holds a store and a TableSync. */
async function profile(dir, site, remote, table) {
  const b = await launch(dir);
  const page = await b.ctx.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`${site.url}browser/blank.html`);
  await page.evaluate(
    async ([url, table, key]) => {
      const T = await import("/tabletop.js");
      const store = await T.openStore("app");
      const client = new T.TableClient(store, "items");
      const sync = new T.TableSync(client, { url, table, credential: new T.AzureNamedKeyCredential("devstoreaccount1", key) });
      await sync.track();
      const conflicts = [];
      sync.on("conflict", (c) => conflicts.push({ rk: c.rowKey, code: c.code, resolution: c.resolution, local: c.local?.v ?? null, remote: c.remote?.v ?? null }));
      const contents = async () => {
        const out = {};
        for await (const e of client.listEntities()) out[e.rowKey] = e.v;
        return out;
      };
      window.app = { T, client, sync, conflicts, contents };
    },
    [remote, table, DEV_KEY],
  );
  const run = (fn, arg) => page.evaluate(fn, arg);
  return { b, page, run, errors };
}

const contents = () => window.app.contents();
const sync = () => window.app.sync.sync().then((r) => r, (e) => ({ failed: e.code }));

test("two browsers sync through the native server", async (t) => {
  const server = await startNative();
  t.after(() => server.stop());
  await scenario(t, server, "changes");
});

test("two browsers sync through the edge worker in local workerd", async (t) => {
  const server = await startEdgeWorker();
  if (!server) {
    assert.ok(!process.env.TABLETOP_SYNC_EDGE, "TABLETOP_SYNC_EDGE is set: the edge must be built (make worker)");
    return t.skip("worker/edge/build missing: run make worker");
  }
  t.after(() => server.stop());
  await scenario(t, server, "changes");
});

test("two browsers sync through Azurite (no change feed: Timestamp pulls and key reconciliation)", async (t) => {
  const server = await startAzurite();
  t.after(() => server.stop());
  await scenario(t, server, "timestamp");
});

/** scenario runs the whole story against a server ({ url }), whose pulls go by pullMode. */
async function scenario(t, server, pullMode) {
  const site = await serve(web);
  t.after(() => site.close());
  await allowAll(server.url);
  const table = "synced";
  await new TableClient(server.url, table, cred, { allowInsecureConnection: true }).createTable();

  const dirA = await mkdtemp(join(tmpdir(), "tabletop-sync-a-"));
  const dirB = await mkdtemp(join(tmpdir(), "tabletop-sync-b-"));
  const a = await profile(dirA, site, server.url, table);
  let b = await profile(dirB, site, server.url, table);
  t.after(async () => (await a.b.close(), await b.b.close()));

  await a.run(async () => {
    for (const rk of ["shared", "onlyA", "doomedByB"]) await window.app.client.createEntity({ partitionKey: "p", rowKey: rk, v: `${rk} v1` });
  });
  assert.equal((await a.run(sync)).pushed, 3);
  await b.run(sync);
  assert.deepEqual(await b.run(contents), { shared: "shared v1", onlyA: "onlyA v1", doomedByB: "doomedByB v1" });
  assert.equal(await b.run(() => window.app.sync.status.pull), pullMode);

  // Both go offline and edit, the same entity included; each deletes one.
  await a.b.ctx.setOffline(true);
  await b.b.ctx.setOffline(true);
  await a.run(async () => {
    await window.app.client.updateEntity({ partitionKey: "p", rowKey: "shared", v: "from A" });
    await window.app.client.deleteEntity("p", "onlyA");
    await window.app.client.createEntity({ partitionKey: "p", rowKey: "newA", v: "newA" });
  });
  await b.run(async () => {
    await window.app.client.updateEntity({ partitionKey: "p", rowKey: "shared", v: "from B" });
    await window.app.client.deleteEntity("p", "doomedByB");
    await window.app.client.createEntity({ partitionKey: "p", rowKey: "newB", v: "newB" });
  });
  assert.deepEqual(await a.run(sync), { failed: "NetworkError" });
  assert.deepEqual(await a.run(() => ({ online: window.app.sync.status.online })), { online: false });

  // Reconnect: A first, then B (whose edit of "shared" conflicts), then A again.
  await a.b.ctx.setOffline(false);
  await b.b.ctx.setOffline(false);
  await a.run(sync);
  await b.run(sync);
  await a.run(sync);
  const want = { shared: "from A", newA: "newA", newB: "newB" };
  assert.deepEqual(await a.run(contents), want);
  assert.deepEqual(await b.run(contents), want);
  assert.deepEqual(await b.run(() => window.app.conflicts), [
    { rk: "shared", code: "UpdateConditionNotSatisfied", resolution: "remote", local: "from B", remote: "from A" },
  ]);
  assert.deepEqual(await a.run(() => window.app.conflicts), []);

  // B writes 400 entities (each acknowledged), starts pushing them, and is killed midway.
  await b.run(async () => {
    const { client } = window.app;
    for (let i = 0; i < 400; i++) await client.createEntity({ partitionKey: "bulk", rowKey: String(i).padStart(4, "0"), v: i });
    window.app.sync.sync().catch(() => {});
  });
  const remote = new TableClient(server.url, table, cred, { allowInsecureConnection: true });
  const count = async () => {
    let n = 0;
    for await (const _ of remote.listEntities({ queryOptions: { filter: "PartitionKey eq 'bulk'", select: ["RowKey"] } })) n++;
    return n;
  };
  let seen = 0;
  for (let i = 0; i < 200 && (seen = await count()) === 0; i++) await new Promise((r) => setTimeout(r, 10));
  await b.b.kill();
  assert.ok(seen < 400, `the browser was killed mid-push (${seen} of 400 on the server)`);

  b = await profile(dirB, site, server.url, table);
  const after = await b.run(async () => ({ n: Object.keys(await window.app.contents()).length, pending: await window.app.sync.sync().then(() => window.app.sync.status.pending) }));
  assert.equal(after.n, 3 + 400, "every acknowledged local write survived the kill");
  assert.equal(after.pending, 0);
  assert.equal(await count(), 400, "every write reached the server once");
  assert.deepEqual(await b.run(() => window.app.conflicts), [], "a push whose answer was lost is adopted, not a conflict");
  await a.run(sync);
  const all = await a.run(contents);
  assert.equal(Object.keys(all).length, 403);
  assert.equal(all["0399"], 399);
  assert.deepEqual([...a.errors, ...b.errors], []);
}
