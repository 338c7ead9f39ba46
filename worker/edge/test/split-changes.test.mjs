// A split table's change feed and range-bounded queries: the feed reads every range from a
// vector checkpoint, a checkpoint from before a split carries over to both halves, a
// reader paging while the table splits under writers ends with exactly the table, and a
// query bounded by PartitionKey reads only the ranges that can hold its matches.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { startEdge } from "../runtime.mjs";
import { clients, tempDir, stats } from "./helpers.mjs";
import { pk, mapOf, page, pull } from "./split-helpers.mjs";

const tmp = tempDir();
after(() => tmp.cleanup());

/** contents is the table as key → n, read by Query Entities. */
async function contents(t) {
  const out = new Map();
  for await (const e of t.listEntities()) out.set(`${e.partitionKey}/${e.rowKey}`, e.n);
  return out;
}

test("the change feed of a split table: every change once, across splits and a restart", async () => {
  const vars = { TABLETOP_DEBUG: "1", TABLETOP_SPLIT_ENTITIES: "12", TABLETOP_DELETION_RETENTION: "1h" };
  let edge = await startEdge({ persistDir: tmp.dir, vars });
  let since;
  const replica = new Map();
  try {
    const c = clients(edge.url);
    await c.service.createTable("Feed");
    const t = c.table("Feed");
    for (let i = 0; i < 5; i++) await t.createEntity({ partitionKey: pk(i * 13), rowKey: "first", n: i });
    since = await pull(edge.url, "Feed", "", 1000, replica);
    assert.equal((await mapOf(edge.url, "Feed")).map.ranges.length, 1, "one range before the writes below");

    // The checkpoint of one range carries over to the ranges it splits into.
    for (let i = 0; i < 80; i++) await t.createEntity({ partitionKey: pk(i), rowKey: `r${i}`, n: i });
    await t.updateEntity({ partitionKey: pk(13), rowKey: "first", n: 100 }, "Merge");
    await t.deleteEntity(pk(26), "first");
    const ranges = (await mapOf(edge.url, "Feed")).map.ranges.length;
    assert.ok(ranges >= 4, `only ${ranges} ranges`);
    const seen = new Map();
    for (let more = true; more; ) {
      const p = await page(edge.url, "Feed", since, 7);
      assert.equal(p.status, 200, `a page after ${since}: ${p.status} ${p.code}`);
      for (const ch of p.changes) {
        assert.ok(!seen.has(ch.key), `${ch.key} twice`);
        seen.set(ch.key, ch.deleted ? "deleted" : ch.e.n);
        if (ch.deleted) replica.delete(ch.key);
        else replica.set(ch.key, ch.e.n);
      }
      [since, more] = [p.checkpoint, p.more];
    }
    assert.equal(seen.size, 82, "the 80 writes, the update and the deletion after the checkpoint, no more");
    assert.equal(seen.get(`${pk(13)}/first`), 100);
    assert.equal(seen.get(`${pk(26)}/first`), "deleted");
    assert.deepEqual(replica, await contents(t));
    const end = await page(edge.url, "Feed", since);
    assert.deepEqual([end.changes, end.more], [[], false], "a reader caught up reads nothing new");
  } finally {
    await edge.stop();
  }
  // After a restart the checkpoint still reads exactly what changed since.
  edge = await startEdge({ persistDir: tmp.dir, vars });
  try {
    const c = clients(edge.url);
    const t = c.table("Feed");
    await t.createEntity({ partitionKey: pk(63), rowKey: "late", n: 7 });
    await t.deleteEntity(pk(0), "first");
    const p = await page(edge.url, "Feed", since);
    assert.deepEqual(p.changes.map((ch) => ch.key).sort(), [`${pk(0)}/first`, `${pk(63)}/late`]);

    assert.deepEqual(await page(edge.url, "Feed", "V" + since), { status: 400, code: "InvalidQueryParameterValue" });
    // The table deleted and created again: the old checkpoint is void.
    await c.service.deleteTable("Feed");
    await c.service.createTable("Feed");
    assert.deepEqual(await page(edge.url, "Feed", since), { status: 409, code: "TableReplaced" });
    assert.deepEqual((await page(edge.url, "Feed")).changes, []);
  } finally {
    await edge.stop();
  }
});

test("a feed reader paging while the table splits under writers ends with exactly the table", async () => {
  const edge = await startEdge({ persistDir: tmp.dir, vars: { TABLETOP_DEBUG: "1", TABLETOP_SPLIT_ENTITIES: "20" } });
  try {
    const c = clients(edge.url);
    await c.service.createTable("Moving");
    const t = c.table("Moving");
    let writing = true;
    const payload = "x".repeat(4000); // copying a range takes a while, so pages and writes meet splits
    const writer = async (w) => {
      for (let i = 0; i < 60; i++) {
        await t.upsertEntity({ partitionKey: pk(i * 5 + w), rowKey: `w${w}-${i % 25}`, n: i, payload }, "Replace");
        if (i % 7 === 3) await t.deleteEntity(pk((i - 3) * 5 + w), `w${w}-${(i - 3) % 25}`);
      }
    };
    const replica = new Map();
    let since = "";
    let pulls = 0;
    const counter = {};
    const reader = (async () => {
      while (writing) {
        since = await pull(edge.url, "Moving", since, 1 + (pulls % 4), replica, counter);
        pulls++;
      }
    })();
    try {
      await Promise.all([0, 1, 2, 3].map(writer));
    } finally {
      writing = false;
    }
    await reader;
    since = await pull(edge.url, "Moving", since, 50, replica);
    assert.deepEqual(replica, await contents(t), "the reader's copy is the table");
    const { map } = await mapOf(edge.url, "Moving");
    assert.ok(map.ranges.length >= 3, `only ${map.ranges.length} ranges`);
    console.log(`${replica.size} entities in ${map.ranges.length} ranges; ${pulls} pulls (${counter.pages} pages) while writing`);
  } finally {
    await edge.stop();
  }
});

test("a query or change feed bounded by PartitionKey reads only the ranges that can hold its matches", async () => {
  const edge = await startEdge({ persistDir: tmp.dir, vars: { TABLETOP_DEBUG: "1", TABLETOP_SPLIT_ENTITIES: "10" } });
  try {
    const c = clients(edge.url);
    await c.service.createTable("Bounded");
    const t = c.table("Bounded");
    for (let i = 0; i < 64; i++) await t.createEntity({ partitionKey: pk(i), rowKey: "r", n: i });
    const { map } = await mapOf(edge.url, "Bounded");
    assert.ok(map.ranges.length >= 4, `only ${map.ranges.length} ranges`);
    const served = async () => {
      const out = [];
      for (const r of map.ranges) out.push((await stats(edge.url, encodeURIComponent(r.obj.slice(r.obj.indexOf("/") + 1)))).served);
      return out;
    };
    const [lo, hi] = [pk(20), pk(40)];
    const before = await served();
    const got = [];
    for await (const p of t.listEntities({ queryOptions: { filter: `PartitionKey ge '${lo}' and PartitionKey lt '${hi}'` } }).byPage({ maxPageSize: 6 })) {
      got.push(...p.map((e) => e.n));
    }
    assert.deepEqual(got, Array.from({ length: 20 }, (_, i) => 20 + i));
    const hits = (await served()).map((n, i) => n - before[i]);
    map.ranges.forEach((r, i) => {
      const next = map.ranges[i + 1]?.lo ?? null;
      const overlaps = (next === null || next > lo) && r.lo < hi;
      if (!overlaps) assert.equal(hits[i], 0, `range [${r.lo}, ${next}) was read, outside [${lo}, ${hi})`);
    });
    assert.ok(hits.some((n) => n > 0));

    // The change feed with the same filter reads the same ranges only.
    const feedBefore = await served();
    const filter = encodeURIComponent(`PartitionKey ge '${lo}' and PartitionKey lt '${hi}'`);
    const keys = [];
    let since = "";
    for (let more = true; more; ) {
      const p = await page(edge.url, "Bounded", since, 7, `&$filter=${filter}`);
      assert.equal(p.status, 200, `${p.status} ${p.code}`);
      keys.push(...p.changes.map((ch) => ch.e.n));
      [since, more] = [p.checkpoint, p.more];
    }
    assert.deepEqual(keys.sort((a, b) => a - b), Array.from({ length: 20 }, (_, i) => 20 + i));
    const feedHits = (await served()).map((n, i) => n - feedBefore[i]);
    map.ranges.forEach((r, i) => {
      const next = map.ranges[i + 1]?.lo ?? null;
      if ((next !== null && next <= lo) || r.lo >= hi) assert.equal(feedHits[i], 0, `the feed read range [${r.lo}, ${next}), outside [${lo}, ${hi})`);
    });
  } finally {
    await edge.stop();
  }
});

test("a table splits by its stored bytes (TABLETOP_SPLIT_BYTES) when few large entities fill it", async () => {
  const edge = await startEdge({ persistDir: tmp.dir, vars: { TABLETOP_DEBUG: "1", TABLETOP_SPLIT_ENTITIES: "0", TABLETOP_SPLIT_BYTES: "300000" } });
  try {
    const c = clients(edge.url);
    await c.service.createTable("Heavy");
    const t = c.table("Heavy");
    const payload = "y".repeat(30000);
    for (let i = 0; i < 40; i++) await t.createEntity({ partitionKey: pk(i), rowKey: "r", payload });
    await new Promise((resolve) => setTimeout(resolve, 500)); // a split asked for by the last write
    const { map, pending } = await mapOf(edge.url, "Heavy");
    assert.deepEqual(pending, []);
    assert.ok(map.ranges.length >= 3, `${map.ranges.length} ranges for 40 entities of 30 KB, limit 300 KB`);
    let total = 0;
    for (const r of map.ranges) total += (await stats(edge.url, encodeURIComponent(r.obj.slice(r.obj.indexOf("/") + 1)))).entities;
    assert.equal(total, 40);
  } finally {
    await edge.stop();
  }
});
