// Sync in Chromium never deletes local data on evidence that can mean "misconfigured",
// "not there yet" or "server reset", against the native server and the edge worker: a
// remote table that does not exist; one deleted with a change and a new entity pending (and
// then created again); one deleted and created again between two syncs; a server started
// afresh (natively a new process with nothing kept, at the edge a fresh workerd storage),
// its table missing or created anew. Each stops with an "error" event and a status naming
// the cause, every local entity and queued change kept. And the pending count is exact
// after every local write, offline too.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp } from "node:fs/promises";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { TableServiceClient, AzureNamedKeyCredential } from "@azure/data-tables";
import { serve } from "./serve.js";
import { launch } from "./chromium.js";
import { startNative, startEdgeWorker, DEV_KEY } from "../test/servers.js";

const web = join(dirname(fileURLToPath(import.meta.url)), "..");
const cred = new AzureNamedKeyCredential("devstoreaccount1", DEV_KEY);
const corsRule = { allowedOrigins: "*", allowedMethods: "GET,PUT,POST,DELETE,MERGE,PATCH,OPTIONS", allowedHeaders: "*", exposedHeaders: "*", maxAgeInSeconds: 60 };

test("sync stops, keeping local data, when the native server's table may be lost", async (t) => {
  let server = await startNative(["-retention", "1h"]);
  t.after(() => server.stop());
  const host = new URL(server.url).host;
  await scenario(t, server.url, async () => {
    await server.stop();
    server = await startNative(["-retention", "1h", "-addr", host]); // the same address, nothing kept
  });
});

test("sync stops, keeping local data, when the edge worker's table may be lost", async (t) => {
  let edge = await startEdgeWorker();
  if (!edge) {
    assert.ok(!process.env.TABLETOP_SYNC_EDGE, "TABLETOP_SYNC_EDGE is set: the edge must be built (make worker)");
    return t.skip("worker/edge/build missing: run make worker");
  }
  t.after(() => edge.stop());
  const port = Number(new URL(edge.url).port);
  await scenario(t, edge.url, async () => {
    await edge.stop();
    const { startEdge } = await import("../../worker/edge/runtime.mjs");
    const fresh = await startEdge({ persistDir: mkdtempSync(join(tmpdir(), "tabletop-edge-")), port });
    edge = { stop: fresh.stop };
  });
});

/** scenario runs every case against the endpoint url; restart starts its server afresh. */
async function scenario(t, url, restart) {
  const site = await serve(web);
  t.after(() => site.close());
  const svc = new TableServiceClient(url, cred, { allowInsecureConnection: true });
  await svc.setProperties({ cors: [corsRule] });
  for (const name of ["deleted", "recreated", "restarted", "restarted2", "offline"]) await svc.createTable(name);
  const b = await launch(await mkdtemp(join(tmpdir(), "tabletop-sync-lost-")));
  t.after(() => b.close());
  const page = await b.ctx.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`${site.url}browser/blank.html`);
  await page.evaluate(setUp, [url, DEV_KEY]);
  const run = (fn, arg) => page.evaluate(fn, arg);
  const three = { "p/1": "1", "p/2": "2", "p/3": "3" };
  const synced = async (local, remote) => {
    await run(({ local, remote }) => window.app.make(local, remote), { local, remote });
    for (const rk of ["1", "2", "3"]) await run(write, { local, rk, v: rk });
    assert.deepEqual(await run(syncOnce, local), { pushed: 3 });
  };
  const stopped = async (local, code, held, pending) => {
    assert.deepEqual(await run(syncOnce, local), { failed: code, remoteLost: true });
    assert.deepEqual(await run(state, local), { contents: held, pending, status: code, events: [code] });
  };

  // A remote table that does not exist (a wrong name).
  await run(({ local, remote }) => window.app.make(local, remote), { local: "mis", remote: "nosuch" });
  for (const rk of ["1", "2", "3"]) assert.equal(await run(write, { local: "mis", rk, v: rk }), Number(rk));
  await stopped("mis", "TableNotFound", three, 3);

  // Deleted with an edit and a new entity pending; then created again, empty: still stopped.
  await synced("del", "deleted");
  await svc.deleteTable("deleted");
  await run(write, { local: "del", rk: "1", v: "edited" });
  await run(write, { local: "del", rk: "new", v: "new" });
  const held = { ...three, "p/1": "edited", "p/new": "new" };
  await stopped("del", "TableNotFound", held, 2);
  await svc.createTable("deleted");
  assert.deepEqual(await run(syncOnce, "del"), { failed: "TableNotFound", remoteLost: true });
  assert.deepEqual((await run(state, "del")).contents, held);

  // Deleted and created again between two syncs, with an edit pending.
  await synced("rec", "recreated");
  await svc.deleteTable("recreated");
  await svc.createTable("recreated");
  await run(write, { local: "rec", rk: "2", v: "edited" });
  await stopped("rec", "TableReplaced", { ...three, "p/2": "edited" }, 1);

  // Offline: the pending count after each write, and after a failed sync.
  await run(({ local, remote }) => window.app.make(local, remote), { local: "off", remote: "offline" });
  await b.ctx.setOffline(true);
  assert.equal(await run(write, { local: "off", rk: "1", v: "1" }), 1);
  assert.equal(await run(write, { local: "off", rk: "2", v: "2" }), 2);
  assert.equal(await run(write, { local: "off", rk: "1", v: "again" }), 2);
  assert.deepEqual(await run(syncOnce, "off"), { failed: "NetworkError", remoteLost: false });
  assert.equal((await run(state, "off")).pending, 2);
  await b.ctx.setOffline(false);
  assert.deepEqual(await run(syncOnce, "off"), { pushed: 2 });
  assert.equal((await run(state, "off")).pending, 0);

  // The server started afresh: one table missing, the other created anew; an edit pending.
  await synced("rst", "restarted");
  await synced("rst2", "restarted2");
  await run(write, { local: "rst", rk: "3", v: "offline" });
  await restart();
  const svc2 = new TableServiceClient(url, cred, { allowInsecureConnection: true });
  await svc2.setProperties({ cors: [corsRule] });
  await svc2.createTable("restarted2");
  await stopped("rst", "TableNotFound", { ...three, "p/3": "offline" }, 1);
  await stopped("rst2", "CheckpointFromAnotherStore", three, 0);
  assert.deepEqual(errors, []);
}

/** setUp gives the page a store and a way to make TableSyncs of its local tables. */
async function setUp([url, key]) {
  const T = await import("/tabletop.js");
  const store = await T.openStore("app");
  const tables = {};
  const make = async (local, remote) => {
    const client = new T.TableClient(store, local);
    const sync = new T.TableSync(client, { url, table: remote, credential: new T.AzureNamedKeyCredential("devstoreaccount1", key) });
    const events = [];
    sync.on("error", (e) => events.push(e.code));
    await sync.track();
    tables[local] = { client, sync, events };
  };
  window.app = { T, store, tables, make };
}

/** write upserts p/rk with v in a local table and answers the pending count right after. */
async function write({ local, rk, v }) {
  const { client, sync } = window.app.tables[local];
  await client.upsertEntity({ partitionKey: "p", rowKey: rk, v }, "Replace");
  return sync.status.pending;
}

/** syncOnce syncs a local table once: { pushed } or { failed: code, remoteLost }. */
async function syncOnce(local) {
  const { sync, events } = window.app.tables[local];
  events.length = 0;
  return sync.sync().then(
    (r) => ({ pushed: r.pushed }),
    (e) => ({ failed: e.code, remoteLost: e.remoteLost === true }),
  );
}

/** state is a local table's contents, pending count, status error code and error events. */
async function state(local) {
  const { client, sync, events } = window.app.tables[local];
  const contents = {};
  for await (const e of client.listEntities()) contents[`${e.partitionKey}/${e.rowKey}`] = e.v;
  return { contents, pending: sync.status.pending, status: sync.status.error?.code ?? null, events: [...events] };
}
