// TableSync never deletes local data on evidence that can mean "misconfigured", "not
// there yet" or "server reset": a missing remote table, a table deleted or created again, a
// server started afresh, an endpoint without the change feed whose table is missing or
// empty. Each stops the sync with an "error" event naming the cause, keeping every local
// entity and queued change, until the application decides (onRemoteLost). And the pending
// count is exact after every local write, offline too.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { fresh } from "./helpers.js";
import { startNative, startAzurite, DEV_KEY } from "./servers.js";
import { openStore, TableClient, TableSync, AzureNamedKeyCredential } from "../tabletop.js";

const cred = new AzureNamedKeyCredential("devstoreaccount1", DEV_KEY);
let server;
before(async () => (server = await startNative(["-retention", "1h"])));
after(() => server?.stop());

let tables = 0;
/** replica opens a local store with table "items" and its TableSync of remote table `table`. */
async function replica(t, table, options = {}) {
  const store = await openStore(fresh(), {});
  t.after(() => store.close());
  const client = new TableClient(store, "items");
  const sync = new TableSync(client, { url: server.url, table, credential: cred, ...options });
  const errors = [];
  sync.on("error", (e) => errors.push(e.code));
  await sync.track();
  return { store, client, sync, errors };
}

/** synced creates a remote table and n replicas of it, each holding p/1, p/2 and p/3. */
async function synced(t, n, options = {}) {
  const table = `lost${process.pid}t${++tables}`;
  const out = [];
  for (let i = 0; i < n; i++) out.push(await replica(t, table, options));
  await out[0].sync.remote.createTable();
  for (const rk of ["1", "2", "3"]) await out[0].client.createEntity({ partitionKey: "p", rowKey: rk, v: rk });
  for (const r of out) await r.sync.sync();
  return out;
}

async function contents(client) {
  const out = {};
  for await (const e of client.listEntities()) out[`${e.partitionKey}/${e.rowKey}`] = e.v;
  return out;
}

/** stops runs a sync that must stop with code, and checks what it kept and reported. */
async function stops(r, code, held, pending) {
  await assert.rejects(r.sync.sync(), (e) => e.code === code && e.remoteLost === true);
  assert.equal(r.errors.at(-1), code, "an error event names the cause");
  assert.equal(r.sync.status.error?.code, code);
  assert.equal(r.sync.status.error?.remoteLost, true);
  assert.deepEqual(await contents(r.client), held, "every local entity is kept");
  assert.equal(r.sync.status.pending, pending, "every queued change is kept");
}

/** dropTable deletes the remote table of a replica (then creates it again, when again). */
async function dropTable(r, again = false) {
  const res = await r.sync.remote.request("DELETE", `Tables('${r.sync.remote.table}')`);
  assert.equal(res.status, 204);
  if (again) await r.sync.remote.createTable();
}

const all = { "p/1": "1", "p/2": "2", "p/3": "3" };

test("TableSync stops when the remote table may be lost", async (t) => {
  await t.test("TableNotFound/Misconfigured", async (t) => {
    const r = await replica(t, "nosuch");
    for (const rk of ["1", "2", "3"]) await r.client.createEntity({ partitionKey: "p", rowKey: rk, v: rk });
    await stops(r, "TableNotFound", all, 3);
    await stops(r, "TableNotFound", all, 3); // and again: nothing more until the application decides
  });

  await t.test("TableNotFound/DeletedWithPendingChanges", async (t) => {
    const [a] = await synced(t, 1);
    await dropTable(a);
    await a.client.updateEntity({ partitionKey: "p", rowKey: "1", v: "edited" });
    await a.client.createEntity({ partitionKey: "p", rowKey: "new", v: "new" });
    const held = { ...all, "p/1": "edited", "p/new": "new" };
    await stops(a, "TableNotFound", held, 2);
    // Created again (empty): still stopped, nothing pushed, nothing deleted.
    await a.sync.remote.createTable();
    await stops(a, "TableNotFound", held, 2);
  });

  await t.test("TableReplaced", async (t) => {
    // Deleted and created again between two syncs: with a pending change (the push
    // checks the table first) and without one (the pull's change feed says it).
    const [a, b] = await synced(t, 2);
    await dropTable(a, true);
    await a.client.updateEntity({ partitionKey: "p", rowKey: "2", v: "edited" });
    await stops(a, "TableReplaced", { ...all, "p/2": "edited" }, 1);
    await stops(b, "TableReplaced", all, 0);
  });

  await t.test("TableReplaced/Reconcile", async (t) => {
    // A reconciliation the application asks for checks the checkpoint first.
    const [a] = await synced(t, 1);
    await dropTable(a, true);
    await assert.rejects(a.sync.sync({ reconcile: true }), (e) => e.code === "TableReplaced");
    assert.deepEqual(await contents(a.client), all);
  });

  await t.test("CheckpointFromAnotherStore", async (t) => {
    // The server started afresh: a and b find the table created again on it (a with a
    // change made offline), c finds it missing.
    const [a, b, c] = (await synced(t, 3)).map((r) => moveTo(r, afresh.url));
    await a.client.updateEntity({ partitionKey: "p", rowKey: "3", v: "offline" });
    await c.client.createEntity({ partitionKey: "p", rowKey: "4", v: "offline" });
    await stops(c, "TableNotFound", { ...all, "p/4": "offline" }, 1);
    await a.sync.remote.createTable();
    await stops(a, "CheckpointFromAnotherStore", { ...all, "p/3": "offline" }, 1);
    await stops(b, "CheckpointFromAnotherStore", all, 0);
  });
});

/** afresh is a second native server, empty: the first one started afresh, as a replica sees it. */
let afresh;
before(async () => (afresh = await startNative(["-retention", "1h"])));
after(() => afresh?.stop());

/** moveTo makes a replica sync the same remote table at another endpoint. */
function moveTo(r, url) {
  const sync = new TableSync(r.client, { url, table: r.sync.remote.table, credential: cred });
  const moved = { ...r, sync, errors: [] };
  sync.on("error", (e) => moved.errors.push(e.code));
  return moved;
}

/** noFeed is a fetch for an endpoint without the change feed (Azure, Azurite). */
const noFeed = (url, init) =>
  String(url).includes("comp=changes")
    ? Promise.resolve(new Response(JSON.stringify({ "odata.error": { code: "InvalidQueryParameterValue", message: { value: "no" } } }), { status: 400 }))
    : globalThis.fetch(url, init);

test("TableSync without the change feed stops when the remote table is missing or emptied", async (t) => {
  await t.test("TableNotFound", async (t) => {
    const [a] = await synced(t, 1, { fetch: noFeed });
    assert.equal(a.sync.status.pull, "timestamp");
    await dropTable(a);
    await stops(a, "TableNotFound", all, 0);
  });
  await t.test("RemoteTableEmpty", async (t) => {
    // Created again, empty: a key reconciliation would delete every synced entity.
    const [a, b] = await synced(t, 2, { fetch: noFeed });
    await dropTable(a, true);
    await stops(a, "RemoteTableEmpty", all, 0);
    // With a pending edit, its push meets 404 ResourceNotFound on a table now empty.
    await b.client.updateEntity({ partitionKey: "p", rowKey: "1", v: "edited" });
    await stops(b, "RemoteTableEmpty", { ...all, "p/1": "edited" }, 1);
  });
  await t.test("OK/DeletionsStillReconciled", async (t) => {
    // Entities deleted from a table that still holds others are deleted locally.
    const [a, b] = await synced(t, 2, { fetch: noFeed });
    await a.client.deleteEntity("p", "1");
    await a.sync.sync();
    await b.sync.sync();
    assert.deepEqual(await contents(b.client), { "p/2": "2", "p/3": "3" });
  });
});

test("TableSync onRemoteLost: the application decides", async (t) => {
  await t.test("push", async (t) => {
    // The table replaced: b pushes its whole copy, its offline edit included, to the new
    // table; a, which adopts, then takes it.
    const [a, b] = await synced(t, 2);
    await dropTable(a, true);
    await b.client.updateEntity({ partitionKey: "p", rowKey: "2", v: "edited" });
    await stops(b, "TableReplaced", { ...all, "p/2": "edited" }, 1);
    const r = await b.sync.sync({ onRemoteLost: "push" });
    assert.equal(r.pushed, 3);
    assert.equal(b.sync.status.error, null);
    assert.equal(b.sync.status.pending, 0);
    await a.sync.sync({ onRemoteLost: "adopt" });
    assert.deepEqual(await contents(a.client), { ...all, "p/2": "edited" });
    await b.sync.sync(); // a lasting sync again
    assert.deepEqual(b.errors, ["TableReplaced"]);
  });
  await t.test("push/MissingTable", async (t) => {
    // The decision creates the remote table when it is missing.
    const r = await replica(t, `lost${process.pid}t${++tables}`, { onRemoteLost: "push" });
    await r.client.createEntity({ partitionKey: "p", rowKey: "1", v: "1" });
    const got = await r.sync.sync();
    assert.deepEqual([got.pushed, r.errors], [1, []]);
    assert.equal(r.sync.status.pending, 0);
  });
  await t.test("adopt", async (t) => {
    // Adopting the new table deletes what it lacks, the offline edit included.
    const [a, b] = await synced(t, 2);
    await dropTable(a, true);
    await a.client.createEntity({ partitionKey: "q", rowKey: "only", v: "a" });
    await a.sync.sync({ onRemoteLost: "push" });
    await b.client.updateEntity({ partitionKey: "p", rowKey: "1", v: "lost" });
    await stops(b, "TableReplaced", { ...all, "p/1": "lost" }, 1);
    await b.sync.sync({ onRemoteLost: "adopt" });
    assert.deepEqual(await contents(b.client), { ...all, "q/only": "a" });
    assert.equal(b.sync.status.pending, 0);
  });
  await t.test("adopt/WithoutTheFeed", async (t) => {
    // b stops on the emptied table with a new entity; a pushes its copy and one of its own
    // into it; b adopts the table: its new entity, which the table lacks, is deleted.
    const [a, b] = await synced(t, 2, { fetch: noFeed });
    await dropTable(a, true);
    await b.client.createEntity({ partitionKey: "q", rowKey: "b", v: "b" });
    await stops(b, "RemoteTableEmpty", { ...all, "q/b": "b" }, 1);
    await a.client.createEntity({ partitionKey: "q", rowKey: "only", v: "a" });
    await a.sync.sync({ onRemoteLost: "push" });
    await b.sync.sync({ onRemoteLost: "adopt" });
    assert.deepEqual(await contents(b.client), { ...all, "q/only": "a" });
    assert.deepEqual(await contents(a.client), { ...all, "q/only": "a" });
    assert.equal(b.sync.status.pending, 0);
  });
  await t.test("ErrOption", async (t) => {
    const store = await openStore(fresh(), {});
    t.after(() => store.close());
    assert.throws(() => new TableSync(new TableClient(store, "items"), { url: server.url, onRemoteLost: "delete" }), TypeError);
  });
});

test("TableSync status.pending is exact after every local write", async (t) => {
  let offline = true;
  const fetch = (url, init) => (offline ? Promise.reject(new TypeError("offline")) : globalThis.fetch(url, init));
  const table = `lost${process.pid}t${++tables}`;
  const r = await replica(t, table, { fetch });
  const seen = [];
  r.sync.on("status", (s) => seen.push(s.pending));
  assert.equal(r.sync.status.pending, 0);
  await r.client.createEntity({ partitionKey: "p", rowKey: "1", v: 1 });
  assert.equal(r.sync.status.pending, 1);
  await r.client.createEntity({ partitionKey: "p", rowKey: "2", v: 2 });
  await r.client.updateEntity({ partitionKey: "p", rowKey: "1", v: 3 });
  assert.equal(r.sync.status.pending, 2, "a key written twice waits once");
  await r.client.submitTransaction([["create", { partitionKey: "q", rowKey: "1" }], ["create", { partitionKey: "q", rowKey: "2" }]]);
  assert.equal(r.sync.status.pending, 4);
  await assert.rejects(r.sync.sync(), (e) => e.code === "NetworkError");
  assert.equal(r.sync.status.pending, 4, "offline, after a failed sync");
  assert.ok(seen.includes(1) && seen.includes(2), `status events: ${seen}`);
  offline = false;
  await r.sync.remote.createTable();
  await r.sync.sync();
  assert.equal(r.sync.status.pending, 0);
  await r.client.deleteEntity("p", "2");
  assert.equal(r.sync.status.pending, 1);
});

test("TableSync against Azurite stops when the remote table is missing or emptied", async (t) => {
  const azurite = await startAzurite();
  t.after(() => azurite.stop());
  const table = `lost${process.pid}t${++tables}`;
  const a = await replica(t, table, { url: azurite.url });
  const b = await replica(t, "nosuch", { url: azurite.url });
  for (const r of [a, b]) for (const rk of ["1", "2", "3"]) await r.client.createEntity({ partitionKey: "p", rowKey: rk, v: rk });
  await stops(b, "TableNotFound", all, 3);
  await a.sync.remote.createTable();
  await a.sync.sync();
  assert.equal(a.sync.status.pull, "timestamp");
  await dropTable(a, true);
  await stops(a, "RemoteTableEmpty", all, 0);
});
