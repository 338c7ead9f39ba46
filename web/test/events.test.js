import { test } from "node:test";
import assert from "node:assert/strict";
import { fresh } from "./helpers.js";
import { openStore, TableClient, liveQuery, odata } from "../tabletop.js";

async function tableIn(t, options = { inMemory: true }) {
  const store = await openStore(fresh(), options);
  t.after(() => store.close());
  const c = new TableClient(store, "people");
  await c.createTable();
  return c;
}

/** next resolves with the next value an observable or iterator gives, or fails after ms. */
function within(p, ms = 2000) {
  return Promise.race([p, new Promise((_, reject) => setTimeout(() => reject(new Error("timed out")), ms))]);
}

test("TableClient.on", async (t) => {
  await t.test("OK", async (t) => {
    const c = await tableIn(t, {}); // persistent: events follow the IndexedDB commit
    const seen = [];
    const fn = (ch) => seen.push(ch);
    c.on("change", fn);
    await c.createEntity({ partitionKey: "p", rowKey: "1", n: 1 });
    await c.upsertEntity({ partitionKey: "p", rowKey: "1", n: 2 }, "Replace");
    await c.deleteEntity("p", "1");
    await new TableClient(c._target, "other").createTable();
    c.off("change", fn);
    await c.createEntity({ partitionKey: "p", rowKey: "2" });
    assert.deepEqual(seen.map((s) => [s.kind, s.partitionKey, s.rowKey, s.table, s.remote]), [
      ["create", "p", "1", "people", false],
      ["upsertReplace", "p", "1", "people", false],
      ["delete", "p", "1", "people", false],
    ]);
    assert.match(seen[0].etag, /^W\/"datetime'/);
  });

  await t.test("filter", async (t) => {
    const c = await tableIn(t);
    const seen = [];
    c.on("change", (ch) => seen.push(ch.rowKey), { filter: odata`n gt ${5}` });
    await c.createEntity({ partitionKey: "p", rowKey: "small", n: 1 });
    await c.createEntity({ partitionKey: "p", rowKey: "big", n: 10 });
    await c.deleteEntity("p", "small"); // deletions are always delivered
    assert.deepEqual(seen, ["big", "small"]);
  });

  await t.test("Reset", async (t) => {
    // A tab that missed other tabs' commits reloads its copy whole and says so once.
    const c = await tableIn(t);
    const seen = [];
    c.on("change", (ch) => seen.push([ch.kind, ch.table]), { filter: odata`n gt ${5}` });
    const store = await c._store();
    store._emit({ changes: [], records: [], local: false, reset: true });
    assert.deepEqual(seen, [["reset", "people"]]);
  });

  await t.test("ErrUnknownEvent", async (t) => {
    const c = await tableIn(t);
    assert.throws(() => c.on("changed", () => {}), TypeError);
  });
});

test("TableClient.changes", async (t) => {
  await t.test("OK", async (t) => {
    const c = await tableIn(t);
    const it = c.changes();
    const first = it.next();
    await c.createEntity({ partitionKey: "p", rowKey: "1" });
    await c.createEntity({ partitionKey: "p", rowKey: "2" });
    assert.equal((await within(first)).value.rowKey, "1");
    assert.equal((await within(it.next())).value.rowKey, "2");
    await it.return();
    await c.createEntity({ partitionKey: "p", rowKey: "3" });
    assert.deepEqual(await it.next(), { value: undefined, done: true });
  });

  await t.test("abortSignal", async (t) => {
    const c = await tableIn(t);
    const ac = new AbortController();
    const got = [];
    const loop = (async () => {
      for await (const ch of c.changes({ abortSignal: ac.signal, filter: (ch) => ch.rowKey !== "skip" })) {
        got.push(ch.rowKey);
        if (got.length === 2) ac.abort();
      }
    })();
    await c.createEntity({ partitionKey: "p", rowKey: "skip" });
    await c.createEntity({ partitionKey: "p", rowKey: "a" });
    await c.createEntity({ partitionKey: "p", rowKey: "b" });
    await within(loop);
    assert.deepEqual(got, ["a", "b"]);
  });
});

/** values subscribes to an observable and returns a function resolving with its next value. */
function values(observable) {
  const queue = [];
  const waiters = [];
  const sub = observable.subscribe({
    next: (v) => (waiters.length ? waiters.shift()(v) : queue.push(v)),
    error: (e) => waiters.shift()?.(Promise.reject(e)),
  });
  const next = () => within(queue.length ? Promise.resolve(queue.shift()) : new Promise((r) => waiters.push(r)));
  return { next, sub, pending: () => queue.length };
}

test("liveQuery", async (t) => {
  await t.test("OK", async (t) => {
    const c = await tableIn(t, {});
    await c.createEntity({ partitionKey: "p", rowKey: "1", n: 1 });
    const live = values(liveQuery(() => c.listEntities({ queryOptions: { filter: odata`n ge ${5}` } })));
    t.after(() => live.sub.unsubscribe());
    assert.deepEqual(await live.next(), []);
    await c.createEntity({ partitionKey: "p", rowKey: "2", n: 7 });
    assert.deepEqual((await live.next()).map((e) => e.rowKey), ["2"]);
    await c.updateEntity({ partitionKey: "p", rowKey: "1", n: 9 });
    assert.deepEqual((await live.next()).map((e) => e.rowKey), ["1", "2"]);
    await c.updateEntity({ partitionKey: "p", rowKey: "2", n: 0 }); // leaves the result
    assert.deepEqual((await live.next()).map((e) => e.rowKey), ["1"]);
    await c.deleteEntity("p", "1");
    assert.deepEqual(await live.next(), []);
  });

  await t.test("UnrelatedChange", async (t) => {
    const c = await tableIn(t);
    await c.createEntity({ partitionKey: "p", rowKey: "1", n: 1 });
    let runs = 0;
    const live = values(liveQuery(() => (runs++, c.getEntity("p", "1"))));
    t.after(() => live.sub.unsubscribe());
    assert.equal((await live.next()).n, 1);
    await c.createEntity({ partitionKey: "p", rowKey: "other", n: 5 });
    await new TableClient(c._target, "elsewhere").createTable();
    await c.updateEntity({ partitionKey: "p", rowKey: "1", n: 2 });
    assert.equal((await live.next()).n, 2);
    assert.equal(runs, 2, "the unrelated writes did not re-run the query");
  });

  await t.test("Reset", async (t) => {
    const c = await tableIn(t);
    await c.createEntity({ partitionKey: "p", rowKey: "1", n: 1 });
    let runs = 0;
    const live = values(liveQuery(() => (runs++, c.getEntity("p", "1"))));
    t.after(() => live.sub.unsubscribe());
    assert.equal((await live.next()).n, 1);
    (await c._store())._emit({ changes: [], records: [], local: false, reset: true });
    assert.equal((await live.next()).n, 1);
    assert.equal(runs, 2, "a reset re-ran the query");
  });

  await t.test("Unsubscribe", async (t) => {
    const c = await tableIn(t);
    let runs = 0;
    const live = values(liveQuery(() => (runs++, c.listEntities())));
    assert.deepEqual(await live.next(), []);
    live.sub.unsubscribe();
    assert.equal(live.sub.closed, true);
    await c.createEntity({ partitionKey: "p", rowKey: "1" });
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(runs, 1);
  });

  await t.test("ErrQuerier", async (t) => {
    const c = await tableIn(t);
    const errors = [];
    const sub = liveQuery(() => c.getEntity("p", "missing")).subscribe({ error: (e) => errors.push(e.code) });
    t.after(() => sub.unsubscribe());
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(errors, ["ResourceNotFound"]);
  });

  await t.test("RxJSInterop", () => {
    const o = liveQuery(async () => 1);
    assert.equal(o["@@observable"](), o);
    o.subscribe(() => {}).unsubscribe();
  });
});
