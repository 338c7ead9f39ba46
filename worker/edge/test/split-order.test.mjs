// A table split among PartitionKeys on both sides of the U+E000–U+FFFF / beyond-U+FFFF
// boundary, where JavaScript's < and the store's UTF-8 order disagree: the entry Worker
// routes every key to the range that holds it, so every entity is found by a point read
// and listed once by a query and by the change feed.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { startEdge } from "../runtime.mjs";
import { clients, tempDir } from "./helpers.mjs";
import { mapOf, readPages, checkObjects, keyOf, pull } from "./split-helpers.mjs";

const tmp = tempDir();
after(() => tmp.cleanup());

/** FIRST starts the PartitionKeys: in UTF-8 order a, U+E000, U+FFFD, U+1F600; in UTF-16 order U+1F600 comes second. */
const FIRST = ["a", "\ue000", "\u{1f600}", "\ufffd"];

const ENTITIES = 64;

/** pk is the PartitionKey of the i-th entity: one partition each, so that every range can split. */
const pk = (i) => `${FIRST[i % FIRST.length]}${String(i).padStart(3, "0")}`;

/** settled waits until the table's map has stopped changing and no split is left unsettled. */
async function settled(url, table) {
  let last = -1;
  for (const deadline = Date.now() + 20000; Date.now() < deadline; ) {
    const { map, pending } = await mapOf(url, table);
    if (pending.length === 0 && map.version === last) return map;
    last = map.version;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the map of ${table} did not settle`);
}

test("a table split across the U+FFFF boundary finds, lists and feeds every entity once", async () => {
  const edge = await startEdge({ persistDir: tmp.dir, vars: { TABLETOP_DEBUG: "1", TABLETOP_SPLIT_ENTITIES: "8" } });
  try {
    const c = clients(edge.url);
    await c.service.createTable("Astral");
    const t = c.table("Astral");
    const keys = [];
    for (let i = 0; i < ENTITIES; i++) {
      await t.createEntity({ partitionKey: pk(i), rowKey: "r", n: i });
      keys.push(keyOf({ partitionKey: pk(i), rowKey: "r" }));
    }
    const map = await settled(edge.url, "Astral");
    assert.ok(map.ranges.length >= 4, `only ${map.ranges.length} ranges`);
    for (let i = 0; i < ENTITIES; i++) assert.equal((await t.getEntity(pk(i), "r")).n, i, `point read of ${JSON.stringify(pk(i))}`);
    for (const size of [1000, 5]) {
      const seen = await readPages(t, size); // in the store's order, none twice
      assert.deepEqual(new Set(seen), new Set(keys), `listed in pages of ${size}`);
    }
    const replica = new Map();
    await pull(edge.url, "Astral", "", 7, replica);
    assert.deepEqual([...replica.keys()].sort(), keys.map((k) => k.replace("\u0000", "/")).sort(), "the change feed");
    await checkObjects(edge.url, "Astral", ENTITIES);
  } finally {
    await edge.stop();
  }
});
