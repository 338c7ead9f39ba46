// A pulled page cut into parts (sync-parts.js), and the parts applied as a chain
// (Store._writeChain): each part only if the one before succeeded, the checkpoint last.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fresh } from "./helpers.js";
import { pageParts, partBytes, PART_MS, MIN_PART_BYTES } from "../src/sync-parts.js";
import { Pace } from "../src/pace.js";
import { openStore, deleteStore, TableClient } from "../tabletop.js";

/** page writes a page body by hand, with values whose text JSON.stringify would not keep. */
function page(entities, deleted, tail = `,"tabletop.checkpoint":"c9","tabletop.more":true`) {
  const value = entities.map((i) => `{ "PartitionKey":"p","RowKey":"${String(i).padStart(4, "0")}","D@odata.type":"Edm.Double","D":-0,"F":1.50,"S":"a \\"quoted\\" \\\\","U":"\\u00e9]}" }`);
  const gone = deleted.map((i) => `{"PartitionKey":"p","RowKey":"d${i}"}`);
  return `{"odata.metadata":"x",\n "value": [ ${value.join(" ,\n ")} ],"tabletop.deleted":[${gone.join(",")}]${tail}}`;
}

/** items lists a body's entity and deletion texts, as the parts must keep them. */
const texts = (body) => (body.match(/\{ "PartitionKey"[^]*?" \}|\{"PartitionKey":"p","RowKey":"d\d+"\}/g) ?? []);

test("pageParts", async (t) => {
  const entity = texts(page([1], []))[0].length;
  const deletion = texts(page([], [1]))[0].length;
  await t.test("OK/Small", () => {
    const body = page([1, 2, 3], [1]);
    assert.deepEqual(pageParts(body, body.length), [body]);
  });
  await t.test("OK/Cut", () => {
    const body = page([...Array(10).keys()], [1, 2, 3]);
    assert.ok(2 * entity + 3 * deletion <= 4 * entity); // the last part takes the deletions
    const parts = pageParts(body, 4 * entity);
    assert.equal(parts.length, 3);
    const parsed = parts.map((p) => JSON.parse(p));
    // Entities first, then deletions, in order, each element's text as the server wrote it.
    assert.deepEqual(parts.flatMap(texts), texts(body));
    assert.deepEqual(parsed.map((p) => [p.value.length, p["tabletop.deleted"].length]), [[4, 0], [4, 0], [2, 3]]);
    assert.ok(parts[0].includes('"D":-0,"F":1.50'));
    // Only the last part carries the page's other members.
    assert.deepEqual(parsed.map((p) => p["tabletop.checkpoint"]), [undefined, undefined, "c9"]);
    assert.equal(parsed[2]["tabletop.more"], true);
    assert.equal(parsed[2]["odata.metadata"], "x");
  });
  await t.test("OK/ItemLargerThanAPart", () => {
    const body = page([1, 2, 3], []);
    const parts = pageParts(body, entity - 1);
    assert.deepEqual(parts.map((p) => JSON.parse(p).value.length), [1, 1, 1]);
    assert.deepEqual(parts.flatMap(texts), texts(body));
  });
  await t.test("OK/NoDeleted", () => {
    const body = `{"value":[1,2,3,4,5]}`;
    assert.deepEqual(pageParts(body, 2).map((p) => JSON.parse(p)), [{ value: [1, 2], "tabletop.deleted": [] }, { value: [3, 4], "tabletop.deleted": [] }, { value: [5], "tabletop.deleted": [] }]);
  });
  await t.test("ErrNotAnObject", () => {
    for (const bad of [`{"value":[1,2,3`, `[1,2,3]`, `{"value":[1,2,3]} x`, `{"value":[1 2 3]}`, ``, `{"value":["a]}`]) assert.deepEqual(pageParts(bad, 1), [bad], bad);
  });
});

test("partBytes: a part the engine applies in about PART_MS", () => {
  assert.equal(partBytes(undefined), MIN_PART_BYTES);
  assert.equal(partBytes(PART_MS / (64 << 10)), 64 << 10);
  assert.equal(partBytes(1), MIN_PART_BYTES); // a slow engine: never smaller than the least
  assert.ok(partBytes(1e-9) < 1 << 20); // a fast one: never the whole of a large page
});

test("Pace: the engine's pace at an operation, from calls large enough to count", () => {
  const pace = new Pace();
  pace.note(100, 50);
  assert.equal(pace.msPerByte, undefined);
  pace.note(10_000, 10);
  assert.equal(pace.msPerByte, 0.001);
  pace.note(10_000, 30);
  assert.equal(pace.msPerByte, 0.002);
});

test("Store._pace: what the engine took per byte in this tab's writes of an operation", async () => {
  const name = fresh("pace");
  const store = await openStore(name, { inMemory: true });
  try {
    const c = new TableClient(store, "things");
    await c.createTable();
    assert.equal(store._pace("write"), undefined);
    await c.createEntity({ partitionKey: "p", rowKey: "1", big: "x".repeat(8 << 10) });
    assert.ok(store._pace("write") > 0);
    assert.equal(store._pace("syncPull"), undefined);
  } finally {
    store.close();
  }
});

test("Store._writeChain: a part runs only if the part before it succeeded", async (t) => {
  for (const persistent of [false, true]) {
    await t.test(persistent ? "IndexedDB" : "InMemory", async (t) => {
      const name = fresh("chain");
      t.after(() => deleteStore(name));
      const store = await openStore(name, persistent ? {} : { inMemory: true });
      t.after(() => store.close());
      const c = new TableClient(store, "things");
      await c.createTable();
      const create = (rk) => ["things", "create", JSON.stringify({ PartitionKey: "p", RowKey: rk }), ""];
      const results = await Promise.allSettled(store._writeChain("write", [create("1"), create("1"), create("2")], () => []));
      assert.deepEqual(results.map((r) => r.status), ["fulfilled", "rejected", "rejected"]);
      assert.equal(results[2].reason, results[1].reason);
      assert.equal(results[1].reason.code, "EntityAlreadyExists");
      const keys = [];
      for await (const e of c.listEntities()) keys.push(e.rowKey);
      assert.deepEqual(keys, ["1"]);
    });
  }
});
