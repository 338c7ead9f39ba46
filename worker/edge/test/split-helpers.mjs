// Shared by the split tests: the partition map through the debug route, paging reads that
// check key order, and a check that a map's objects hold a table's entities once.
import assert from "node:assert/strict";
import { accountName, stats } from "./helpers.mjs";

/** partitions spreads writes over this many PartitionKeys, so every range can split. */
const PARTITIONS = 64;

/** pk is the PartitionKey of the i-th partition. */
export const pk = (i) => `p${String(i % PARTITIONS).padStart(3, "0")}`;

/** keyOf is an entity's key in key order as text. */
export const keyOf = (e) => `${e.partitionKey}\u0000${e.rowKey}`;

/** mapOf reads a table's partition map and the splits left unsettled, through the debug route. */
export async function mapOf(url, table) {
  const res = await fetch(`${url}/__tabletop/map/${accountName}/${table}`);
  if (!res.ok) throw new Error(`map: ${res.status} ${await res.text()}`);
  return res.json();
}

/**
 * readPages reads the whole table page by page and checks the order: each key after the
 * one before, so none is seen twice. It returns the keys seen.
 */
export async function readPages(client, maxPageSize) {
  const seen = [];
  for await (const page of client.listEntities().byPage({ maxPageSize })) {
    assert.ok(page.length <= maxPageSize, `a page of ${page.length} entities, over ${maxPageSize}`);
    for (const e of page) {
      const k = keyOf(e);
      if (seen.length) assert.ok(seen.at(-1) < k, `${JSON.stringify(k)} came after ${JSON.stringify(seen.at(-1))}`);
      seen.push(k);
    }
  }
  return seen;
}

/**
 * checkObjects checks that the objects of the map hold the table's entities between them
 * exactly once, each within its range, and returns how many each holds.
 */
export async function checkObjects(url, table, total) {
  const { map, pending } = await mapOf(url, table);
  assert.deepEqual(pending, [], "a split left unsettled");
  const counts = [];
  for (const r of map.ranges) {
    const name = r.obj.slice(r.obj.indexOf("/") + 1);
    const s = await stats(url, encodeURIComponent(name));
    assert.equal(s.range?.fence ?? null, null, `${r.obj} is still fenced`);
    counts.push(s.entities);
  }
  assert.equal(
    counts.reduce((a, b) => a + b, 0),
    total,
    `the objects hold ${counts.join("+")} entities, the table ${total}`,
  );
  return { map, counts };
}
