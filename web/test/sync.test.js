// TableSync against the native server: two local replicas, offline edits, conflicts,
// deletes both ways, lost answers, an expired checkpoint and the Timestamp fallback.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { fresh } from "./helpers.js";
import { startNative, DEV_KEY } from "./servers.js";
import { openStore, TableClient, TableSync, AzureNamedKeyCredential, AzureSASCredential, generateAccountSas } from "../tabletop.js";

const cred = new AzureNamedKeyCredential("devstoreaccount1", DEV_KEY);
let server;
before(async () => (server = await startNative()));
after(() => server?.stop());

let tables = 0;
/** replicas creates a remote table and n local replicas of it, each with its TableSync. */
async function replicas(t, n, options = {}) {
  const table = `sync${process.pid}t${++tables}`;
  const out = [];
  for (let i = 0; i < n; i++) {
    const store = await openStore(fresh(), {});
    t.after(() => store.close());
    const client = new TableClient(store, "items");
    const sync = new TableSync(client, { url: options.url ?? server.url, table, credential: options.credential ?? cred, ...options });
    if (i === 0) await sync.remote.createTable();
    await sync.track();
    out.push({ client, sync, store });
  }
  return out;
}

async function contents(client) {
  const out = {};
  for await (const e of client.listEntities()) out[`${e.partitionKey}/${e.rowKey}`] = e.v;
  return out;
}

test("TableSync.sync", async (t) => {
  await t.test("OK", async (t) => {
    const [a, b] = await replicas(t, 2);
    await a.client.createEntity({ partitionKey: "p", rowKey: "1", v: "a1" });
    await a.client.createEntity({ partitionKey: "p", rowKey: "2", v: 5n });
    const r = await a.sync.sync();
    assert.equal(r.pushed, 2);
    assert.equal(a.sync.status.pending, 0);
    await b.sync.sync();
    assert.deepEqual(await contents(b.client), { "p/1": "a1", "p/2": 5n });
    // Pulling again brings nothing new.
    const again = await a.sync.sync();
    assert.equal(again.pulled, 0);
  });

  await t.test("OK/PageInParts", async (t) => {
    // A page of 450 changes (entities and deletions) is applied in parts of at most 200,
    // its checkpoint with the last: everything arrives once, and nothing is pulled again.
    const [a, b, c] = await replicas(t, 3);
    for (let i = 0; i < 500; i += 100) {
      await a.client.submitTransaction(Array.from({ length: 100 }, (_, j) => ["create", { partitionKey: "p", rowKey: String(i + j).padStart(3, "0"), v: i + j }]));
    }
    await a.sync.sync();
    await b.sync.sync();
    for (let i = 0; i < 50; i++) await a.client.deleteEntity("p", String(i).padStart(3, "0"));
    await a.client.updateEntity({ partitionKey: "p", rowKey: "499", v: -1 });
    await a.sync.sync();
    // b pulls the 51 changes; c, which never synced, the 450 entities.
    const calls = [];
    const exec = b.store._exec.bind(b.store);
    b.store._exec = (op, ...rest) => (op === "syncPull" && calls.push(op), exec(op, ...rest));
    const r = await b.sync.sync();
    assert.equal(r.pulled, 51);
    assert.equal(calls.length, 1); // 51 changes: one part
    const cexec = c.store._exec.bind(c.store);
    const cCalls = [];
    c.store._exec = (op, ...rest) => (op === "syncPull" && cCalls.push(op), cexec(op, ...rest));
    assert.equal((await c.sync.sync()).pulled, 450);
    assert.ok(cCalls.length >= 3, `${cCalls.length} calls of syncPull`);
    const want = await contents(a.client);
    assert.equal(Object.keys(want).length, 450);
    assert.deepEqual(await contents(b.client), want);
    assert.deepEqual(await contents(c.client), want);
    assert.equal((await c.sync.sync()).pulled, 0);
  });

  await t.test("Conflict/ServerWins", async (t) => {
    const [a, b] = await replicas(t, 2);
    await a.client.createEntity({ partitionKey: "p", rowKey: "x", v: "base" });
    await a.sync.sync();
    await b.sync.sync();
    // Both edit offline; a reaches the server first.
    await a.client.updateEntity({ partitionKey: "p", rowKey: "x", v: "from a" });
    await b.client.updateEntity({ partitionKey: "p", rowKey: "x", v: "from b" });
    const conflicts = [];
    b.sync.on("conflict", (c) => conflicts.push(c));
    await a.sync.sync();
    const r = await b.sync.sync();
    assert.equal(r.conflicts, 1);
    assert.equal(conflicts.length, 1);
    assert.equal(conflicts[0].code, "UpdateConditionNotSatisfied");
    assert.equal(conflicts[0].local.v, "from b");
    assert.equal(conflicts[0].remote.v, "from a");
    assert.equal(conflicts[0].resolution, "remote");
    assert.deepEqual(await contents(b.client), { "p/x": "from a" });
    assert.equal(b.sync.status.pending, 0);
  });

  await t.test("Conflict/InBatch", async (t) => {
    // Three changes of one partition go as one entity group transaction; one conflicts, so
    // the transaction fails whole and each is pushed alone: two land, one is reported.
    const [a, b] = await replicas(t, 2);
    await a.client.createEntity({ partitionKey: "p", rowKey: "x", v: "base" });
    await a.sync.sync();
    await b.sync.sync();
    await a.client.updateEntity({ partitionKey: "p", rowKey: "x", v: "a" });
    await a.sync.sync();
    await b.client.updateEntity({ partitionKey: "p", rowKey: "x", v: "b" });
    await b.client.createEntity({ partitionKey: "p", rowKey: "y", v: "b" });
    await b.client.createEntity({ partitionKey: "p", rowKey: "z", v: "b" });
    const r = await b.sync.sync();
    assert.deepEqual([r.pushed, r.conflicts], [2, 1]);
    await a.sync.sync();
    const want = { "p/x": "a", "p/y": "b", "p/z": "b" };
    assert.deepEqual(await contents(a.client), want);
    assert.deepEqual(await contents(b.client), want);
  });

  await t.test("Batch", async (t) => {
    const [a, b] = await replicas(t, 2);
    for (let i = 0; i < 150; i++) await a.client.createEntity({ partitionKey: "p", rowKey: String(i).padStart(3, "0"), v: i });
    const requests = [];
    const fetch = (url, init) => (requests.push(init.method + " " + new URL(url).pathname), globalThis.fetch(url, init));
    const counted = new TableSync(a.client, { url: server.url, table: a.sync.remote.table, credential: cred, fetch });
    const r = await counted.sync();
    assert.equal(r.pushed, 150);
    assert.equal(requests.filter((q) => q.endsWith("/$batch")).length, 2, requests.join("\n"));
    await b.sync.sync();
    assert.equal(Object.keys(await contents(b.client)).length, 150);
    await a.client.deleteEntity("p", "000");
    await a.client.deleteEntity("p", "001");
    await a.sync.sync(); // two deletes in one transaction
    await b.sync.sync();
    assert.equal(Object.keys(await contents(b.client)).length, 148);
  });

  await t.test("Conflict/Resolver", async (t) => {
    const [a, b] = await replicas(t, 2, { resolve: (c) => ({ v: `${c.remote.v}+${c.local.v}` }) });
    await a.client.createEntity({ partitionKey: "p", rowKey: "x", v: "base" });
    await a.sync.sync();
    await b.sync.sync();
    await a.client.updateEntity({ partitionKey: "p", rowKey: "x", v: "a" });
    await b.client.updateEntity({ partitionKey: "p", rowKey: "x", v: "b" });
    await a.sync.sync();
    await b.sync.sync();
    await a.sync.sync();
    assert.deepEqual(await contents(a.client), { "p/x": "a+b" });
    assert.deepEqual(await contents(b.client), { "p/x": "a+b" });
  });

  await t.test("Conflict/CreatedOnBoth", async (t) => {
    const [a, b] = await replicas(t, 2);
    await a.client.createEntity({ partitionKey: "p", rowKey: "new", v: "a" });
    await b.client.createEntity({ partitionKey: "p", rowKey: "new", v: "b" });
    const conflicts = [];
    b.sync.on("conflict", (c) => conflicts.push(c.code));
    await a.sync.sync();
    await b.sync.sync();
    assert.deepEqual(conflicts, ["EntityAlreadyExists"]);
    assert.deepEqual(await contents(b.client), { "p/new": "a" });
  });

  await t.test("Deletes", async (t) => {
    const [a, b] = await replicas(t, 2);
    for (const rk of ["1", "2", "3"]) await a.client.createEntity({ partitionKey: "p", rowKey: rk, v: rk });
    await a.sync.sync();
    await b.sync.sync();
    await a.client.deleteEntity("p", "1"); // a → server → b
    await b.client.deleteEntity("p", "2"); // b → server → a
    await a.sync.sync();
    await b.sync.sync();
    await a.sync.sync();
    assert.deepEqual(await contents(a.client), { "p/3": "3" });
    assert.deepEqual(await contents(b.client), { "p/3": "3" });
    // Deleted on one side and updated on the other: the server (the update, first) wins.
    await a.client.updateEntity({ partitionKey: "p", rowKey: "3", v: "kept" });
    await b.client.deleteEntity("p", "3");
    await a.sync.sync();
    const conflicts = [];
    b.sync.on("conflict", (c) => conflicts.push(c.code));
    await b.sync.sync();
    assert.deepEqual(conflicts, ["UpdateConditionNotSatisfied"]);
    assert.deepEqual(await contents(b.client), { "p/3": "kept" });
  });

  await t.test("LostAnswer", async (t) => {
    // The server applies a push but its answer is lost: the retry meets our own write and
    // adopts it, reporting no conflict and writing nothing twice.
    let drop = false;
    const fetch = async (url, init) => {
      const res = await globalThis.fetch(url, init);
      if (drop && init.method !== "GET") {
        drop = false;
        throw new TypeError("network error after the server answered");
      }
      return res;
    };
    const [a] = await replicas(t, 1, { fetch });
    await a.client.createEntity({ partitionKey: "p", rowKey: "once", v: 1 });
    drop = true;
    await assert.rejects(a.sync.sync(), (e) => e.code === "NetworkError");
    assert.equal(a.sync.status.online, false);
    assert.equal(a.sync.status.pending, 1); // the change still waits: the push's answer was lost
    const conflicts = [];
    a.sync.on("conflict", (c) => conflicts.push(c));
    const r = await a.sync.sync();
    assert.deepEqual(conflicts, []);
    assert.equal(r.conflicts, 0);
    assert.equal(a.sync.status.pending, 0);
    assert.equal(a.sync.status.online, true);
  });

  await t.test("LocalTableDeleted", async (t) => {
    // Deleting the local table forgets its sync state; the next sync starts afresh and
    // brings the server's entities back, pushing nothing.
    const [a] = await replicas(t, 1);
    await a.client.createEntity({ partitionKey: "p", rowKey: "1", v: 1 });
    await a.sync.sync();
    await a.client.deleteTable();
    const r = await a.sync.sync();
    assert.deepEqual([r.pushed, r.pulled], [0, 1]);
    assert.deepEqual(await contents(a.client), { "p/1": 1 });
  });

  await t.test("PartitionKeyRange", async (t) => {
    const [a, b] = await replicas(t, 2, { partitionKeyRange: { start: "b", end: "c" } });
    await a.client.createEntity({ partitionKey: "a", rowKey: "1", v: 1 });
    await a.client.createEntity({ partitionKey: "b", rowKey: "1", v: 2 });
    await a.sync.sync();
    await b.sync.sync();
    assert.deepEqual(await contents(b.client), { "b/1": 2 });
    assert.equal(a.sync.status.pending, 1, "the key outside the range stays local");
  });

  await t.test("SAS", async (t) => {
    const sas = generateAccountSas(cred, { permissions: "rwdlau", resourceTypes: "sco", expiresOn: new Date(Date.now() + 3600_000) });
    const [a, b] = await replicas(t, 2, { credential: new AzureSASCredential(sas) });
    await a.client.createEntity({ partitionKey: "p", rowKey: "1", v: "sas" });
    await a.sync.sync();
    await b.sync.sync();
    assert.deepEqual(await contents(b.client), { "p/1": "sas" });
  });

  await t.test("ErrAuthenticationFailed", async (t) => {
    const [a] = await replicas(t, 1);
    const bad = new TableSync(a.client, { url: server.url, table: a.sync.remote.table, credential: new AzureNamedKeyCredential("devstoreaccount1", btoa("wrong key")) });
    const errors = [];
    bad.on("error", (e) => errors.push(e.code));
    await a.client.createEntity({ partitionKey: "p", rowKey: "1" });
    await assert.rejects(bad.sync(), (e) => e.code === "AuthenticationFailed" && e.statusCode === 403);
    assert.deepEqual(errors, ["AuthenticationFailed"]);
    assert.equal(bad.status.error.code, "AuthenticationFailed");
  });
});

test("TableSync pull resumes from its checkpoint after a reload", async (t) => {
  const [a] = await replicas(t, 1);
  for (let i = 0; i < 2500; i += 100) {
    await a.client.submitTransaction(Array.from({ length: 100 }, (_, j) => ["create", { partitionKey: `p${i}`, rowKey: String(i + j), v: i + j }]));
  }
  await a.sync.sync();
  // b pulls two pages of 1,000, then the network fails.
  const name = fresh();
  let pages = 0;
  const fetch = (url, init) => (String(url).includes("comp=changes") && ++pages > 2 ? Promise.reject(new TypeError("gone")) : globalThis.fetch(url, init));
  let store = await openStore(name, {});
  const b = new TableSync(new TableClient(store, "items"), { url: server.url, table: a.sync.remote.table, credential: cred, fetch });
  await assert.rejects(b.sync(), (e) => e.code === "NetworkError");
  await store.close();
  // Reloaded: the two pages are there, and the pull asks only for the rest.
  store = await openStore(name, {});
  t.after(() => store.close());
  const client = new TableClient(store, "items");
  assert.equal(Object.keys(await contents(client)).length, 2000);
  const requests = [];
  const counting = (url, init) => (requests.push(String(url)), globalThis.fetch(url, init));
  const r = await new TableSync(client, { url: server.url, table: a.sync.remote.table, credential: cred, fetch: counting }).sync();
  assert.equal(r.pulled, 500);
  assert.equal(requests.filter((u) => u.includes("comp=changes")).length, 1);
  assert.equal(Object.keys(await contents(client)).length, 2500);
});

test("TableSync.start", async (t) => {
  await t.test("OK", async (t) => {
    // Running by itself: a local write is pushed soon after, without a call to sync.
    const [a, b] = await replicas(t, 2);
    a.sync.start({ interval: 60_000, debounce: 10 });
    t.after(() => a.sync.stop());
    await a.client.createEntity({ partitionKey: "p", rowKey: "auto", v: 1 });
    for (let i = 0; i < 200 && a.sync.status.pending !== 0; i++) await new Promise((r) => setTimeout(r, 10));
    await a.sync.stop();
    await b.sync.sync();
    assert.deepEqual(await contents(b.client), { "p/auto": 1 });
  });

  await t.test("Backoff", async (t) => {
    // Offline, it retries with growing delays, reports offline, and pushes once back.
    let offline = true;
    const attempts = [];
    const fetch = (url, init) => {
      if (offline) return attempts.push(performance.now()), Promise.reject(new TypeError("offline"));
      return globalThis.fetch(url, init);
    };
    const [a] = await replicas(t, 1);
    const s = new TableSync(a.client, { url: server.url, table: a.sync.remote.table, credential: cred, fetch });
    const statuses = [];
    s.on("status", (st) => statuses.push(st.online));
    await a.client.createEntity({ partitionKey: "p", rowKey: "later", v: 1 });
    s.start({ interval: 60_000 });
    t.after(() => s.stop());
    while (attempts.length < 3) await new Promise((r) => setTimeout(r, 20));
    const gaps = [attempts[1] - attempts[0], attempts[2] - attempts[1]];
    assert.ok(gaps[0] >= 700 && gaps[1] >= gaps[0] * 1.2, `delays grow: ${gaps.map(Math.round)}`);
    assert.ok(statuses.includes(false));
    offline = false;
    for (let i = 0; i < 400 && !s.status.lastSync; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(s.status.pending, 0);
    assert.equal(s.status.online, true);
    await s.stop();
  });

  await t.test("Stop while a sync fails", async (t) => {
    // The sync in flight fails after stop: stop resolves once it has ended, and status
    // and the "error" event report the failure.
    let fail;
    let calls = 0;
    const fetch = () => (calls++, new Promise((resolve, reject) => (fail = () => reject(new TypeError("cut")))));
    const [a] = await replicas(t, 1);
    const s = new TableSync(a.client, { url: server.url, table: a.sync.remote.table, credential: cred, fetch });
    const errors = [];
    s.on("error", (e) => errors.push(e.code));
    s.start({ interval: 60_000 });
    while (!fail) await new Promise((r) => setTimeout(r, 5));
    let stopped = false;
    const stopping = s.stop().then(() => (stopped = true));
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(stopped, false, "stop waits for the sync in flight");
    fail();
    await stopping;
    assert.deepEqual(errors, ["NetworkError"]);
    assert.equal(s.status.online, false);
    await new Promise((r) => setTimeout(r, 1500)); // past the first retry's delay (0.75–1.25 s)
    assert.equal(calls, 1, "no retry after stop");
  });
});

test("TableSync without the change feed", async (t) => {
  // An endpoint that refuses comp=changes, as one without the extension may.
  let feedAsked = 0;
  const fetch = (url, init) => {
    if (!String(url).includes("comp=changes")) return globalThis.fetch(url, init);
    feedAsked++;
    const body = JSON.stringify({ "odata.error": { code: "InvalidQueryParameterValue", message: { lang: "en-US", value: "no" } } });
    return Promise.resolve(new Response(body, { status: 400, headers: { "Content-Type": "application/json" } }));
  };
  const [a, b] = await replicas(t, 2, { fetch });
  await a.client.createEntity({ partitionKey: "p", rowKey: "1", v: "x" });
  await a.client.createEntity({ partitionKey: "p", rowKey: "2", v: "y" });
  await a.sync.sync();
  await b.sync.sync();
  assert.deepEqual(await contents(b.client), { "p/1": "x", "p/2": "y" });
  await a.client.deleteEntity("p", "1");
  await a.client.updateEntity({ partitionKey: "p", rowKey: "2", v: "z" });
  await a.sync.sync();
  await b.sync.sync(); // Timestamp pull brings the update, key reconciliation the delete
  assert.deepEqual(await contents(b.client), { "p/2": "z" });
  assert.equal(feedAsked, 2, "each replica asks for the feed once, then remembers");
});

test("TableSync after the checkpoint expired", async (t) => {
  const kept = await startNative(["-retention", "0"]); // no deletion records: every checkpoint expires
  t.after(() => kept.stop());
  const [a, b] = await replicas(t, 2, { url: kept.url });
  await a.client.createEntity({ partitionKey: "p", rowKey: "1", v: 1 });
  await a.client.createEntity({ partitionKey: "p", rowKey: "2", v: 2 });
  await a.sync.sync();
  await b.sync.sync();
  await a.client.deleteEntity("p", "1");
  await a.sync.sync();
  await b.sync.sync(); // 410 CheckpointExpired → a full pass and reconciliation
  assert.deepEqual(await contents(b.client), { "p/2": 2 });
});

test("TableSync: a reconciliation interrupted midway starts over and still deletes", async (t) => {
  const kept = await startNative(["-retention", "1s"]);
  t.after(() => kept.stop());
  let failQuery = false; // fail the next Query Entities request
  const fetch = (url, init) => {
    const u = String(url);
    if (failQuery && u.includes("()") && !u.includes("comp=changes")) return (failQuery = false), Promise.reject(new TypeError("gone"));
    return globalThis.fetch(url, init);
  };
  const [a, b] = await replicas(t, 2, { url: kept.url, pageSize: 2, fetch });
  for (const rk of ["1", "2", "3", "4", "5"]) await a.client.createEntity({ partitionKey: "p", rowKey: rk, v: rk });
  await a.sync.sync();
  await b.sync.sync();
  await a.client.deleteEntity("p", "5");
  await a.sync.sync();
  await new Promise((r) => setTimeout(r, 1200));
  await a.client.deleteEntity("p", "4"); // purges the expired record of 5: b's checkpoint expires
  await a.sync.sync();
  // b: the 410, then the end of the feed, then the network fails in the full pass.
  failQuery = true;
  await assert.rejects(b.sync.sync(), (e) => e.code === "NetworkError");
  await b.sync.sync();
  assert.deepEqual(await contents(b.client), { "p/1": "1", "p/2": "2", "p/3": "3" });
  // Entities older than the deletion horizon do not stop a read of the change feed from
  // the start: a new replica pulls all of them, page by page, with no reconciliation
  // (no Query Entities request).
  let queries = 0;
  const counting = (url, init) => {
    const u = String(url);
    if (u.includes("()") && !u.includes("comp=changes")) queries++;
    return globalThis.fetch(url, init);
  };
  const [c] = await replicas(t, 1, { url: kept.url, pageSize: 2, fetch: counting });
  c.sync.remote.table = a.sync.remote.table;
  await c.sync.sync();
  assert.deepEqual(await contents(c.client), { "p/1": "1", "p/2": "2", "p/3": "3" });
  assert.equal(queries, 0, "the feed is read to its end without a 410");
});

test("TableSync.start live", async (t) => {
  await t.test("OK", async (t) => {
    // A change pushed by one replica reaches the other, started live with a poll interval
    // of a minute, at once; while nothing changes it holds one request, no more.
    let requests = 0;
    const fetch = (url, init) => (requests++, globalThis.fetch(url, init));
    const [a, b] = await replicas(t, 2);
    const live = new TableSync(b.client, { url: server.url, table: b.sync.remote.table, credential: cred, fetch });
    live.start({ interval: 60_000 });
    t.after(() => live.stop());
    while (!live.status.lastSync) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 200));
    const idle = requests;
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(requests, idle, "requests made while nothing changed");
    for (const [i, v] of [1, 2, 3].entries()) {
      await a.client.upsertEntity({ partitionKey: "p", rowKey: "r", v });
      const start = performance.now();
      await a.sync.sync();
      while ((await contents(b.client))["p/r"] !== v) {
        assert.ok(performance.now() - start < 3000, `change ${i} not seen live after 3 s`);
        await new Promise((r) => setTimeout(r, 5));
      }
    }
    await live.stop();
  });

  await t.test("OK/NotLive", async (t) => {
    // live: false polls every interval: a remote change waits for the next poll.
    const [a, b] = await replicas(t, 2);
    const polled = new TableSync(b.client, { url: server.url, table: b.sync.remote.table, credential: cred });
    polled.start({ interval: 60_000, live: false });
    t.after(() => polled.stop());
    while (!polled.status.lastSync) await new Promise((r) => setTimeout(r, 10));
    await a.client.upsertEntity({ partitionKey: "p", rowKey: "r", v: 1 });
    await a.sync.sync();
    await new Promise((r) => setTimeout(r, 1000));
    assert.deepEqual(await contents(b.client), {});
    await polled.stop();
  });
});

test("TableSync.start live across a server restart", async (t) => {
  // The server stops while a live replica holds its change feed request, and comes back on
  // the same address with its data: the replica loses and duplicates nothing, and goes on
  // hearing changes live.
  const { mkdtempSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const data = mkdtempSync(join(tmpdir(), "tabletop-live-restart-"));
  let own = await startNative(["-data", data]);
  const addr = own.origin.replace("http://", "");
  t.after(() => own.stop());
  const replica = async (name) => {
    const client = new TableClient(await openStore(fresh(name), {}), "items");
    return new TableSync(client, { url: own.url, table: "restarted", credential: cred });
  };
  const a = await replica("a");
  await a.remote.createTable();
  await a.track();
  const b = await replica("b");
  b.start({ interval: 60_000 });
  t.after(() => b.stop());
  while (!b.status.lastSync) await new Promise((r) => setTimeout(r, 10));
  const seen = async (v) => {
    for (let i = 0; i < 500; i++) {
      if ((await contents(b.client))["p/r"] === v) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.fail(`v=${v} not seen within 10 s`);
  };
  await a.client.upsertEntity({ partitionKey: "p", rowKey: "r", v: 1 });
  await a.sync();
  await seen(1);
  await own.stop();
  own = await startNative(["-addr", addr, "-data", data]);
  for (const v of [2, 3]) {
    await a.client.upsertEntity({ partitionKey: "p", rowKey: "r", v });
    await a.sync();
    await seen(v);
  }
  await a.client.createEntity({ partitionKey: "p", rowKey: "s", v: 4 });
  await a.sync();
  for (let i = 0; i < 500 && Object.keys(await contents(b.client)).length < 2; i++) await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(await contents(b.client), { "p/r": 3, "p/s": 4 });
  assert.equal(b.status.pending, 0);
});
