// Shared by the split tests: the partition map through the debug route, paging reads that
// check key order, and a check that a map's objects hold a table's entities once.
import assert from "node:assert/strict";
import { generateTableSas } from "@azure/data-tables";
import { accountName, credential, stats } from "./helpers.mjs";
import { compareKeys } from "../src/partition.mjs";

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
      if (seen.length) assert.ok(compareKeys(seen.at(-1), k) < 0, `${JSON.stringify(k)} came after ${JSON.stringify(seen.at(-1))}`);
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

/** page reads one page of table's change feed with a query-only table SAS (extra: more query parameters). */
export async function page(url, table, since = "", top = 1000, extra = "") {
  const sas = generateTableSas(table, credential, { permissions: { query: true }, expiresOn: new Date(Date.now() + 3600e3) });
  const res = await fetch(`${url}/${accountName}/${table}()?comp=changes&since=${encodeURIComponent(since)}&$top=${top}${extra}&${sas}`, {
    headers: { Accept: "application/json;odata=nometadata", "x-ms-version": "2019-02-02" },
  });
  const body = await res.json();
  if (!res.ok) return { status: res.status, code: res.headers.get("x-ms-error-code") };
  assert.equal(body["tabletop.checkpoint"], res.headers.get("x-tabletop-checkpoint"), "the body repeats the checkpoint");
  assert.equal(String(body["tabletop.more"]), res.headers.get("x-tabletop-more"), "the body repeats more");
  const changes = [...body.value.map((e) => ({ key: `${e.PartitionKey}/${e.RowKey}`, e })), ...body["tabletop.deleted"].map((d) => ({ key: `${d.PartitionKey}/${d.RowKey}`, deleted: true }))];
  assert.ok(changes.length <= top, `a page of ${changes.length} changes, over ${top}`);
  const keys = changes.map((c) => c.key);
  assert.equal(new Set(keys).size, keys.length, `a page holds a key twice: ${keys}`);
  return { status: 200, changes, checkpoint: body["tabletop.checkpoint"], more: body["tabletop.more"] };
}

/**
 * pull applies pages after since to replica (key → n) until the feed ends; it returns the
 * checkpoint. counter.pages counts the pages read.
 */
export async function pull(url, table, since, top, replica = new Map(), counter = {}) {
  for (;;) {
    counter.pages = (counter.pages ?? 0) + 1;
    const p = await page(url, table, since, top);
    assert.equal(p.status, 200, `a page after ${since}: ${p.status} ${p.code}`);
    for (const c of p.changes) {
      if (c.deleted) replica.delete(c.key);
      else replica.set(c.key, c.e.n);
    }
    since = p.checkpoint;
    if (!p.more) return since;
  }
}
