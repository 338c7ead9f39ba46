// Every tab, one store, in Chromium: two tabs of one origin open the same store at once,
// write concurrently (conditional writes on one entity: exactly one wins), read each
// other's resolved writes, see each other's commits through _subscribe, and a tab closed
// or crashed in the middle of its writes loses none that it acknowledged.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "./serve.js";
import { launch } from "./chromium.js";

const web = join(dirname(fileURLToPath(import.meta.url)), "..");

/** twoTabs starts chromium with two tabs of the server's origin, each with the store open as globalThis.store and a client of table Shared as globalThis.c. */
async function twoTabs(t, name) {
  const server = await serve(web);
  const b = await launch(await mkdtemp(join(tmpdir(), "tabletop-tabs-")));
  t.after(async () => (await b.close(), server.close()));
  const pages = [];
  for (let i = 0; i < 2; i++) {
    const page = await b.ctx.newPage();
    await page.goto(`${server.url}browser/blank.html`);
    await page.evaluate(async (name) => {
      const T = await import("/tabletop.js");
      globalThis.store = await T.openStore(name);
      globalThis.c = new T.TableClient(globalThis.store, "Shared");
      await globalThis.c.createTable();
      globalThis.seen = [];
      globalThis.store._subscribe((commit) => globalThis.seen.push(...commit.changes.map((ch) => `${commit.local ? "local" : "remote"} ${ch.kind} ${ch.rowKey ?? ""}`)));
    }, name);
    pages.push(page);
  }
  return { b, pages };
}

test("store.sync() makes a read see every write another tab resolved, its message or not", async (t) => {
  const { pages: [one, two] } = await twoTabs(t, "sync-read");
  // Tab two hears nothing from now on: as a tab whose message is still on its way.
  await two.evaluate(() => (globalThis.store._channel.onmessage = null));
  for (let i = 0; i < 20; i++) {
    await one.evaluate((i) => globalThis.c.upsertEntity({ partitionKey: "p", rowKey: `r${i}`, i }), i);
    const [before, after] = await two.evaluate(async (i) => {
      const read = () => globalThis.c.getEntity("p", `r${i}`).then((e) => e.i, (e) => e.code);
      const before = await read();
      await globalThis.store.sync();
      return [before, await read()];
    }, i);
    assert.equal(before, "ResourceNotFound", `write ${i} read before sync`);
    assert.equal(after, i, `write ${i} read after sync`);
  }
});

test("two tabs share one store: each reads the other's resolved writes, and _subscribe sees them", async (t) => {
  const { pages: [one, two] } = await twoTabs(t, "shared");
  for (let i = 0; i < 20; i++) {
    const [writer, reader] = i % 2 ? [two, one] : [one, two];
    const etag = await writer.evaluate((i) => globalThis.c.upsertEntity({ partitionKey: "p", rowKey: "x", i }, "Replace").then((r) => r.etag), i);
    const read = await reader.evaluate(() => globalThis.c.getEntity("p", "x").then((e) => ({ i: e.i, etag: e.etag })));
    assert.deepEqual(read, { i, etag }, `round ${i}: the other tab read ${JSON.stringify(read)}`);
  }
  await one.evaluate(() => globalThis.c.createEntity({ partitionKey: "p", rowKey: "from-one" }));
  await two.waitForFunction(() => globalThis.seen.includes("remote create from-one"));
  const seenTwo = await two.evaluate(() => globalThis.seen);
  assert.equal(seenTwo.filter((s) => s === "remote create from-one").length, 1);
});

test("two tabs writing at once: every write lands, and of two conditional writes exactly one wins", async (t) => {
  const { pages } = await twoTabs(t, "busy");
  await Promise.all(
    pages.map((page, n) =>
      page.evaluate(async (n) => {
        const writes = [];
        for (let i = 0; i < 100; i++) {
          writes.push(globalThis.c.createEntity({ partitionKey: `tab${n}`, rowKey: String(i).padStart(3, "0") }));
          writes.push(globalThis.c.upsertEntity({ partitionKey: "both", rowKey: "hot", n, i }, "Replace"));
        }
        await Promise.all(writes);
      }, n),
    ),
  );
  for (let round = 0; round < 10; round++) {
    const etag = await pages[0].evaluate(() => globalThis.c.getEntity("both", "hot").then((e) => e.etag));
    const results = await Promise.all(
      pages.map((page, n) =>
        page.evaluate(
          ([n, etag]) => globalThis.c.updateEntity({ partitionKey: "both", rowKey: "hot", winner: n }, "Replace", { etag }).then((r) => ({ ok: r.etag }), (e) => ({ code: e.code })),
          [n, etag],
        ),
      ),
    );
    const won = results.filter((r) => r.ok);
    assert.equal(won.length, 1, `round ${round}: ${JSON.stringify(results)}`);
    assert.equal(results.find((r) => !r.ok).code, "UpdateConditionNotSatisfied");
  }
  await pages[1].evaluate(() => globalThis.store.sync());
  const lists = await Promise.all(
    pages.map((page) =>
      page.evaluate(async () => {
        const rows = [];
        for await (const e of globalThis.c.listEntities()) rows.push(`${e.partitionKey}/${e.rowKey} ${e.etag}`);
        return rows;
      }),
    ),
  );
  assert.equal(lists[0].length, 201);
  assert.deepEqual(lists[1], lists[0]);
});

for (const how of ["closed", "crashed"]) {
  test(`a tab ${how} in the middle of its writes loses none it acknowledged`, async (t) => {
    const { b, pages: [one, two] } = await twoTabs(t, `gone-${how}`);
    const acked = new Map();
    await one.exposeFunction("ack", (key, v) => acked.set(key, Math.max(acked.get(key) ?? 0, v)));
    one.evaluate(async () => {
      const blob = "x".repeat(20000);
      const writes = [];
      for (let v = 1; v <= 400; v++) {
        writes.push(globalThis.c.upsertEntity({ partitionKey: "p", rowKey: `k${v % 7}`, v, blob }, "Replace").then(() => globalThis.ack(`k${v % 7}`, v)));
        if (v % 20 === 0) await new Promise((r) => setTimeout(r, 2));
      }
      await Promise.all(writes);
    }).catch(() => {});
    for (let waited = 0; acked.size < 7 && waited < 30000; waited += 10) await new Promise((r) => setTimeout(r, 10));
    if (how === "closed") await one.close({ runBeforeUnload: false });
    else {
      // The renderer dies mid-write (the CDP call never answers: its target is gone). Wait
      // for the page to report the crash: evaluating at once may still reach it.
      const crashed = new Promise((resolve) => one.once("crash", resolve));
      (await b.ctx.newCDPSession(one)).send("Page.crash").catch(() => {});
      await crashed;
      await assert.rejects(one.evaluate(() => 1), /crash/i);
    }
    const rows = await two.evaluate(async () => {
      await globalThis.store.sync();
      const rows = {};
      for await (const e of globalThis.c.listEntities({ queryOptions: { select: ["RowKey", "v"] } })) rows[e.rowKey] = e.v;
      return rows;
    });
    t.diagnostic(`acknowledged up to ${Math.max(...acked.values())}`);
    assert.ok(acked.size > 0, "no write was acknowledged");
    for (const [key, v] of acked) assert.ok(rows[key] >= v, `${key} is ${rows[key]}, acknowledged ${v}`);
    // The surviving tab still writes.
    await two.evaluate(() => globalThis.c.upsertEntity({ partitionKey: "p", rowKey: "after", v: 1 }));
  });
}

test("a tab reads the other tab's writes to key ranges it has not loaded, across compactions", async (t) => {
  const { pages: [one, two] } = await twoTabs(t, "ranges");
  await one.evaluate(async () => {
    const blob = "x".repeat(500);
    for (let p = 0; p < 30; p++) {
      const pk = `p${String(p).padStart(2, "0")}`;
      await globalThis.c.submitTransaction(Array.from({ length: 50 }, (_, r) => ["create", { partitionKey: pk, rowKey: `r${String(r).padStart(2, "0")}`, blob, n: p * 100 + r }]));
    }
    await globalThis.store.compact();
  });
  const caughtUp = async () => two.waitForFunction((seq) => globalThis.store._seq >= seq, await one.evaluate(() => globalThis.store._seq));
  await caughtUp(); // by the broadcasts
  // two has loaded nothing of the table yet: its replica deferred one's commits.
  assert.equal(await two.evaluate(() => globalThis.c.getEntity("p01", "r01").then((e) => e.n)), 101);
  await one.evaluate(async () => {
    await globalThis.c.updateEntity({ partitionKey: "p01", rowKey: "r01", n: -1 }, "Merge");
    await globalThis.c.updateEntity({ partitionKey: "p25", rowKey: "r25", n: -2 }, "Merge");
    await globalThis.store.compact();
  });
  await caughtUp();
  const read = await two.evaluate(() => Promise.all([["p01", "r01"], ["p25", "r25"], ["p29", "r49"]].map(([p, r]) => globalThis.c.getEntity(p, r).then((e) => e.n))));
  assert.deepEqual(read, [-1, -2, 2949]);
});

test("a tab writing alone commits reading no lease under the writer lock, and a steal stops it", async (t) => {
  const server = await serve(web);
  const b = await launch(await mkdtemp(join(tmpdir(), "tabletop-tabs-")));
  t.after(async () => (await b.close(), server.close()));
  const open = async (lock) => {
    const page = await b.ctx.newPage();
    await page.goto(`${server.url}browser/blank.html`);
    await page.evaluate(async (lock) => {
      const T = await import("/tabletop.js");
      globalThis.store = await T.openStore("stolen", { lock });
      globalThis.c = new T.TableClient(globalThis.store, "Shared");
    }, lock);
    return page;
  };
  const one = await open("shared");
  const reads = await one.evaluate(async () => {
    await globalThis.c.createTable();
    await new Promise((r) => setTimeout(r, 150)); // no other tab answers: it writes alone
    await globalThis.c.createEntity({ partitionKey: "p", rowKey: "0" });
    const get = IDBObjectStore.prototype.get;
    let n = 0;
    IDBObjectStore.prototype.get = function (key) {
      if (key === "lease") n++;
      return get.call(this, key);
    };
    for (let i = 1; i <= 5; i++) await globalThis.c.createEntity({ partitionKey: "p", rowKey: String(i) });
    IDBObjectStore.prototype.get = get;
    globalThis.store._channel.onmessage = null; // deaf to the next tab: only the locks tell it
    return { n, alone: globalThis.store._alone, writer: (await navigator.locks.query()).held.map((l) => l.name) };
  });
  assert.deepEqual(reads, { n: 0, alone: true, writer: ["tabletop:stolen", "tabletop:stolen:writer"] });
  const two = await open("steal");
  const lost = await one.evaluate(() => globalThis.c.createEntity({ partitionKey: "p", rowKey: "lost" }).then(() => "written", (e) => e.code));
  assert.equal(lost, "StoreLocked");
  const rows = await two.evaluate(async () => {
    await globalThis.c.createEntity({ partitionKey: "p", rowKey: "kept" });
    const rows = [];
    for await (const e of globalThis.c.listEntities()) rows.push(e.rowKey);
    return rows;
  });
  assert.deepEqual(rows, ["0", "1", "2", "3", "4", "5", "kept"]);
});

test("a tab that writes on while another has the store open commits reading no lease, and lets the lock go", async (t) => {
  const server = await serve(web);
  const b = await launch(await mkdtemp(join(tmpdir(), "tabletop-tabs-")));
  t.after(async () => (await b.close(), server.close()));
  const open = async () => {
    const page = await b.ctx.newPage();
    await page.goto(`${server.url}browser/blank.html`);
    await page.evaluate(async () => {
      const T = await import("/tabletop.js");
      globalThis.store = await T.openStore("streak");
      globalThis.c = new T.TableClient(globalThis.store, "Shared");
      globalThis.writerHeld = async () => (await navigator.locks.query()).held.some((l) => l.name === "tabletop:streak:writer");
    });
    return page;
  };
  const [one, two] = [await open(), await open()];
  await one.evaluate(() => globalThis.c.createTable());
  await two.evaluate(() => globalThis.store.sync());
  const run = (rows) =>
    one.evaluate(async (rows) => {
      const get = IDBObjectStore.prototype.get;
      let n = 0;
      IDBObjectStore.prototype.get = function (key) {
        if (key === "lease") n++;
        return get.call(this, key);
      };
      for (const r of rows) await globalThis.c.createEntity({ partitionKey: "p", rowKey: r });
      IDBObjectStore.prototype.get = get;
      return { n, alone: globalThis.store._alone, held: await globalThis.writerHeld() };
    }, rows);
  const first = await run(Array.from({ length: 20 }, (_, i) => `a${String(i).padStart(2, "0")}`));
  // Three commits read the lease before the tab speculates, and one under the lock it takes then.
  assert.equal(first.alone, false);
  assert.equal(first.held, true);
  assert.ok(first.n <= 5, `${first.n} of 20 commits read the lease`);

  // Its writes pause: it lets the lock go.
  await new Promise((r) => setTimeout(r, 400));
  assert.equal(await one.evaluate(() => globalThis.writerHeld()), false);

  // It writes on and holds the lock again; a compaction asked for in the other tab gets it.
  assert.equal((await run(["b0", "b1", "b2", "b3", "b4", "b5"])).held, true);
  const compacted = await two.evaluate(() =>
    Promise.race([globalThis.store.compact().then(() => "compacted"), new Promise((r) => setTimeout(() => r("still waiting"), 5000))]),
  );
  assert.equal(compacted, "compacted");
  await two.evaluate(() => globalThis.c.createEntity({ partitionKey: "p", rowKey: "c0" }));
  await run(["d0", "d1", "d2", "d3", "d4"]);
  const rows = await Promise.all([one, two].map((p) => p.evaluate(async () => {
    await globalThis.store.sync();
    const rows = [];
    for await (const e of globalThis.c.listEntities()) rows.push(e.rowKey);
    return rows.length;
  })));
  assert.deepEqual(rows, [32, 32]);
});
