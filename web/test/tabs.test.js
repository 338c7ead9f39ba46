// Every tab, one store: two Stores of one name in one process play two tabs (each its own
// replica in the engine, fake IndexedDB shared, BroadcastChannel between them).
import { test } from "node:test";
import assert from "node:assert/strict";
import { alone, fresh, rejects, collect } from "./helpers.js";
import { openStore, deleteStore, TableClient } from "../tabletop.js";

/** tabs opens n stores of one new name, each with a client of table "things". */
async function tabs(t, n = 2) {
  const name = fresh("tabs");
  const stores = [];
  for (let i = 0; i < n; i++) stores.push(await openStore(name));
  t.after(async () => {
    for (const s of stores) await s.close().catch(() => {});
    await deleteStore(name);
  });
  const clients = stores.map((s) => new TableClient(s, "things"));
  await clients[0].createTable();
  await delivered();
  return { name, stores, clients };
}

/** delivered waits until the broadcast of a commit has reached the other tabs. */
const delivered = () => new Promise((r) => setTimeout(r, 20));

test("a write in one tab is read in the other once its broadcast arrives", async (t) => {
  const { clients: [a, b] } = await tabs(t);
  await a.createEntity({ partitionKey: "p", rowKey: "1", v: 1 });
  await delivered();
  assert.equal((await b.getEntity("p", "1")).v, 1);
  await b.upsertEntity({ partitionKey: "p", rowKey: "1", v: 2 }, "Replace");
  await delivered();
  assert.equal((await a.getEntity("p", "1")).v, 2);
});

test("a tab with no listener applies other tabs' commits together, and reads them all", async (t) => {
  const { stores: [, sb], clients: [a, b] } = await tabs(t);
  const applies = [];
  const exec = sb._exec.bind(sb);
  sb._exec = (op, args, decode) => (op === "apply" && applies.push(args.length), exec(op, args, decode));
  for (let i = 0; i < 10; i++) await a.createEntity({ partitionKey: "p", rowKey: String(i) }); // 10 commits
  await new Promise((r) => setTimeout(r, 1));
  const rows = await collect(b.listEntities());
  assert.equal(rows.length, 10, "a read applies what arrived first");
  assert.ok(applies.length < 10 && applies.reduce((n, k) => n + k, 0) === 10, `apply calls of ${JSON.stringify(applies)} change sets`);

  // With a listener it applies each commit as it arrives, to tell it.
  const heard = [];
  sb._subscribe((c) => heard.push(c.changes.length));
  applies.length = 0;
  await a.createEntity({ partitionKey: "p", rowKey: "x" });
  await delivered();
  assert.deepEqual([applies.length, heard.length], [1, 1]);
});

test("a write catches up on the other tab's commits first, even before their broadcast", async (t) => {
  const { stores: [sa, sb], clients: [a, b] } = await tabs(t);
  sb._channel.onmessage = null; // b receives nothing: it must read a's commits from the log
  await a.createEntity({ partitionKey: "p", rowKey: "1", v: 1 });
  await rejects(b.createEntity({ partitionKey: "p", rowKey: "1" }), "EntityAlreadyExists", 409);
  const { etag } = await b.updateEntity({ partitionKey: "p", rowKey: "1", v: 2 }, "Merge");
  await delivered();
  assert.equal((await a.getEntity("p", "1")).etag, etag);
  assert.equal(sa._seq, sb._seq);
});

test("conditional writes on one entity from two tabs: exactly one wins", async (t) => {
  const { clients: [a, b] } = await tabs(t);
  const { etag } = await a.createEntity({ partitionKey: "p", rowKey: "1", v: 0 });
  await delivered();
  for (let round = 0; round < 5; round++) {
    const current = (await a.getEntity("p", "1")).etag;
    const results = await Promise.allSettled([
      a.updateEntity({ partitionKey: "p", rowKey: "1", v: `a${round}` }, "Replace", { etag: current }),
      b.updateEntity({ partitionKey: "p", rowKey: "1", v: `b${round}` }, "Replace", { etag: current }),
    ]);
    const won = results.filter((r) => r.status === "fulfilled");
    assert.equal(won.length, 1, `round ${round}: ${won.length} writes won`);
    assert.equal(results.find((r) => r.status === "rejected").reason.code, "UpdateConditionNotSatisfied");
    await delivered();
    const [ra, rb] = [await a.getEntity("p", "1"), await b.getEntity("p", "1")];
    assert.equal(ra.etag, won[0].value.etag);
    assert.equal(rb.etag, won[0].value.etag);
  }
  assert.notEqual(etag, undefined);
});

test("concurrent writes from two tabs all land, in one order both tabs agree on", async (t) => {
  const { name, clients: [a, b] } = await tabs(t);
  const writes = [];
  for (let i = 0; i < 40; i++) {
    writes.push(a.createEntity({ partitionKey: "a", rowKey: String(i).padStart(2, "0") }));
    writes.push(b.createEntity({ partitionKey: "b", rowKey: String(i).padStart(2, "0") }));
    writes.push((i % 2 ? a : b).upsertEntity({ partitionKey: "c", rowKey: "shared", i }, "Replace"));
  }
  await Promise.all(writes);
  await delivered();
  const [la, lb] = [await collect(a.listEntities()), await collect(b.listEntities())];
  assert.equal(la.length, 81);
  assert.deepEqual(la.map((e) => [e.rowKey, e.etag]), lb.map((e) => [e.rowKey, e.etag]));
  const again = await openStore(name);
  const lc = await collect(new TableClient(again, "things").listEntities());
  await again.close();
  assert.deepEqual(lc.map((e) => [e.rowKey, e.etag]), la.map((e) => [e.rowKey, e.etag]));
});

test("_subscribe in one tab sees every commit of the other, once, in order", async (t) => {
  const { stores: [sa, sb], clients: [a, b] } = await tabs(t);
  const seen = { a: [], b: [] };
  sa._subscribe((c) => seen.a.push(...c.changes.map((ch) => `${c.local ? "local" : "remote"} ${ch.kind} ${ch.rowKey}`)));
  sb._subscribe((c) => seen.b.push(...c.changes.map((ch) => `${c.local ? "local" : "remote"} ${ch.kind} ${ch.rowKey}`)));
  await a.createEntity({ partitionKey: "p", rowKey: "1" });
  await delivered();
  sb._channel.onmessage = null; // b misses a's next broadcast and reads it from the log
  await a.createEntity({ partitionKey: "p", rowKey: "2" });
  await b.createEntity({ partitionKey: "p", rowKey: "3" });
  await delivered();
  assert.deepEqual(seen.a, ["local create 1", "local create 2", "remote create 3"]);
  assert.deepEqual(seen.b, ["remote create 1", "remote create 2", "local create 3"]);
});

test("a tab that missed commits catches up with sync(), also across the other tab's compaction", async (t) => {
  const { stores: [sa, sb], clients: [a, b] } = await tabs(t);
  sb._channel.onmessage = null;
  const resets = [];
  sb._subscribe((c) => c.reset && resets.push(c));
  await a.createEntity({ partitionKey: "p", rowKey: "1" });
  await sb.sync();
  assert.equal((await b.getEntity("p", "1")).rowKey, "1");
  await a.createEntity({ partitionKey: "p", rowKey: "2" });
  await sa.compact(); // the log b would need is gone: b reloads the whole store
  await a.createEntity({ partitionKey: "p", rowKey: "3" });
  await sb.sync();
  assert.deepEqual((await collect(b.listEntities())).map((e) => e.rowKey), ["1", "2", "3"]);
  assert.equal(resets.length, 1);
});

test("an exclusive opener keeps the store from the sharing tabs", async (t) => {
  const { name, clients: [a] } = await tabs(t);
  const owner = await openStore(name, { lock: "steal" }); // no Web Locks under Node: the lease
  await rejects(a.createEntity({ partitionKey: "p", rowKey: "lost" }), "StoreLocked", 409);
  await new TableClient(owner, "things").createEntity({ partitionKey: "p", rowKey: "kept" });
  await owner.close();
});

test("a tab writing alone that missed another tab's write runs its writes again on it", async (t) => {
  const { name, store, c } = await alone(t, "alone");
  await c.createEntity({ partitionKey: "p", rowKey: "mine" });
  store._channel.onmessage = null; // it does not hear the other tab open nor write
  const other = await openStore(name);
  await new TableClient(other, "things").createEntity({ partitionKey: "p", rowKey: "x", by: "other" });
  await other.close();
  const speculated = [];
  const transact = store._storage.transact;
  store._storage.transact = (...args) => (speculated.push(args[2]), transact(...args));
  await rejects(c.createEntity({ partitionKey: "p", rowKey: "x", by: "me" }), "EntityAlreadyExists", 409);
  await c.createEntity({ partitionKey: "p", rowKey: "y" });
  assert.deepEqual(speculated.slice(0, 2), [true, false]);
  assert.equal(store._alone, false);
  assert.equal((await c.getEntity("p", "x")).by, "other");
  await store.close();
  const again = await openStore(name);
  const rows = await collect(new TableClient(again, "things").listEntities());
  await again.close();
  assert.deepEqual(rows.map((e) => `${e.rowKey} ${e.by ?? ""}`), ["mine ", "x other", "y "]);
});

test("a tab writing alone keeps another tab's compaction it missed", async (t) => {
  const { name, store, c } = await alone(t, "alone");
  for (let i = 0; i < 5; i++) await c.createEntity({ partitionKey: "p", rowKey: String(i) });
  store._channel.onmessage = null;
  const other = await openStore(name);
  await other.compact(); // the head's snapshot generation changes, its log position does not
  await other.close();
  await c.createEntity({ partitionKey: "p", rowKey: "after" });
  assert.equal(store._alone, true, "a compaction alone needs no reload");
  await store.close();
  const again = await openStore(name);
  const rows = await collect(new TableClient(again, "things").listEntities());
  await again.close();
  assert.deepEqual(rows.map((e) => e.rowKey), ["0", "1", "2", "3", "4", "after"]);
});

test("a tab writing alone posts no commit, and a tab it answers reads those from the log", async (t) => {
  const { name, store, c } = await alone(t, "alone");
  const posted = [];
  const post = store._channel.postMessage.bind(store._channel);
  store._channel.postMessage = (msg) => (posted.push(msg.type), post(msg));
  const heard = store._channel.onmessage;
  store._channel.onmessage = null; // it does not hear the next tab yet: it still writes alone
  const other = await openStore(name);
  t.after(() => other.close());
  const b = new TableClient(other, "things");
  await c.createEntity({ partitionKey: "p", rowKey: "alone" });
  assert.deepEqual(posted, []);
  await delivered();
  await rejects(b.getEntity("p", "alone"), "ResourceNotFound", 404);
  store._channel.onmessage = heard;
  store._receive({ type: "hello" }); // it hears the greeting now, and answers
  assert.deepEqual(posted, ["here"]);
  await delivered();
  assert.equal((await b.getEntity("p", "alone")).rowKey, "alone");
  await c.createEntity({ partitionKey: "p", rowKey: "known" });
  assert.deepEqual(posted, ["here", "commit"]);
});

test("a tab that shares its store and wrote last writes in one round trip, and again on what it missed", async (t) => {
  const name = fresh("streak");
  t.after(() => deleteStore(name));
  const a = await openStore(name);
  const b = await openStore(name);
  t.after(async () => (await a.close().catch(() => {}), await b.close().catch(() => {})));
  const ca = new TableClient(a, "things");
  await ca.createTable();
  await b.sync();
  assert.equal(a._alone, false, "the tabs heard each other");
  const calls = []; // [speculate, lone] of each of a's commits
  const transact = a._storage.transact;
  a._storage.transact = (...args) => (calls.push([args[2], args[3]]), transact(...args));
  for (let i = 0; i < 5; i++) await ca.createEntity({ partitionKey: "p", rowKey: `a${i}` });
  assert.deepEqual(calls.map(([s]) => s), [false, false, true, true, true], "speculates once it wrote 3 in a row");
  assert.ok(calls.every(([speculate, lone]) => lone === speculate), "a shared tab takes the writer lock as it speculates");
  // b writes while a hears nothing: a's next speculative commit meets b's record.
  a._channel.onmessage = null;
  await new TableClient(b, "things").createEntity({ partitionKey: "p", rowKey: "x", by: "b" });
  calls.length = 0;
  await rejects(ca.createEntity({ partitionKey: "p", rowKey: "x", by: "a" }), "EntityAlreadyExists", 409);
  await ca.createEntity({ partitionKey: "p", rowKey: "y" });
  assert.deepEqual(calls.map(([s]) => s).slice(0, 3), [true, false, false], "ran again without speculating, and starts counting again");
  assert.equal((await ca.getEntity("p", "x")).by, "b");
  await b.sync();
  const all = await collect(new TableClient(b, "things").listEntities());
  assert.deepEqual(all.map((e) => `${e.rowKey} ${e.by ?? ""}`), ["a0 ", "a1 ", "a2 ", "a3 ", "a4 ", "x b", "y "]);
});
