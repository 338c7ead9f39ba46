// A table grows past the split limit (TABLETOP_SPLIT_ENTITIES, forced small here) while
// writers and paging readers run: the table ends up served by several objects, every
// acknowledged write is there exactly once, and every page sequence is in key order,
// with no entity twice and none that was there before it started missing.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { startEdge } from "../runtime.mjs";
import { clients, tempDir } from "./helpers.mjs";
import { pk, keyOf, mapOf, readPages, checkObjects } from "./split-helpers.mjs";

const tmp = tempDir();
after(() => tmp.cleanup());

const LIMIT = 40;

const WRITERS = [0, 1, 2, 3, 4, 5];

test("a table split while writers and paging readers run keeps every acknowledged write once, in order", async () => {
  const edge = await startEdge({ persistDir: tmp.dir, vars: { TABLETOP_DEBUG: "1", TABLETOP_SPLIT_ENTITIES: String(LIMIT) } });
  try {
    const c = clients(edge.url);
    await c.service.createTable("Growing");
    const t = c.table("Growing");
    const acked = new Set();
    const counters = new Map();
    let writing = true;
    // Entities carry a payload, so that copying a range takes long enough for writes to
    // arrive meanwhile; each writer also keeps a counter entity in one of the partitions.
    const payload = "x".repeat(8000);
    const writer = async (w) => {
      for (let i = 0; i < 80; i++) {
        const e = { partitionKey: pk(i * 7 + w), rowKey: `w${w}-${String(i).padStart(3, "0")}`, n: i, payload };
        await t.createEntity(e);
        acked.add(keyOf(e));
        await t.upsertEntity({ partitionKey: pk(w * 9), rowKey: `counter${w}`, n: i }, "Replace");
        counters.set(w, i);
      }
    };
    const reader = async () => {
      let reads = 0;
      while (writing) {
        const before = new Set(acked);
        const seen = new Set(await readPages(t, 1 + (reads % 13)));
        for (const k of before) assert.ok(seen.has(k), `a page sequence skipped ${JSON.stringify(k)}, acknowledged before it started`);
        reads++;
      }
      return reads;
    };
    const readers = [reader(), reader()];
    for (const r of readers) r.catch(() => {}); // awaited below; a failure must not end the writers
    try {
      await Promise.all(WRITERS.map(writer));
    } finally {
      writing = false;
    }
    const reads = await Promise.all(readers);

    const seen = await readPages(t, 1000);
    const counterKeys = WRITERS.map((w) => `${pk(w * 9)}\u0000counter${w}`);
    assert.deepEqual(new Set(seen), new Set([...acked, ...counterKeys]), "the table holds exactly the acknowledged writes");
    for (const [w, n] of counters) assert.equal((await t.getEntity(pk(w * 9), `counter${w}`)).n, n, `counter ${w} lost an update`);
    const { map, counts } = await checkObjects(edge.url, "Growing", seen.length);
    assert.ok(map.ranges.length >= 4, `only ${map.ranges.length} ranges for ${seen.length} entities`);
    console.log(`${seen.length} entities in ${map.ranges.length} objects (${counts.join(", ")}), map version ${map.version}; ${reads.join("+")} full reads meanwhile`);

    const filtered = [];
    for await (const e of t.listEntities({ queryOptions: { filter: "n ge 70 and RowKey ge 'w'", select: ["n"] } })) filtered.push(e);
    assert.equal(filtered.length, (80 - 70) * WRITERS.length, "$filter across ranges");
    assert.ok(filtered.every((e) => e.n >= 70 && e.rowKey === undefined), "$select across ranges");
    const one = [];
    for await (const e of t.listEntities({ queryOptions: { filter: `PartitionKey eq '${pk(5)}'` } })) one.push(e);
    assert.ok(one.length > 0 && one.every((e) => e.partitionKey === pk(5)), "a query of one partition");
  } finally {
    await edge.stop();
  }
});

test("deleting a split table drops every range; a new table of that name is one range and empty", async () => {
  const edge = await startEdge({ persistDir: tmp.dir, vars: { TABLETOP_DEBUG: "1", TABLETOP_SPLIT_ENTITIES: "10" } });
  try {
    const c = clients(edge.url);
    await c.service.createTable("Again");
    const t = c.table("Again");
    for (let i = 0; i < 60; i++) await t.createEntity({ partitionKey: pk(i), rowKey: String(i) });
    const before = await mapOf(edge.url, "Again");
    assert.ok(before.map.ranges.length > 1, "the table split");
    await c.service.deleteTable("Again");
    await c.service.createTable("Again");
    assert.deepEqual(await readPages(t, 1000), [], "the new table is empty");
    await t.createEntity({ partitionKey: "zzz", rowKey: "1" });
    const { map } = await checkObjects(edge.url, "Again", 1);
    assert.equal(map.ranges.length, 1);
    assert.ok(map.version > before.map.version, "the map's version went on");
  } finally {
    await edge.stop();
  }
});
