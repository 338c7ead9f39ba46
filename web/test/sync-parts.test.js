// A pulled page cut into parts (sync-parts.js), and the parts applied as a chain
// (Store._writeChain): each part only if the one before succeeded, the checkpoint last.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fresh } from "./helpers.js";
import { pageParts } from "../src/sync-parts.js";
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
  await t.test("OK/Small", () => {
    const body = page([1, 2, 3], [1]);
    assert.deepEqual(pageParts(body, 4), [body]);
  });
  await t.test("OK/Cut", () => {
    const body = page([...Array(10).keys()], [1, 2, 3]);
    const parts = pageParts(body, 4);
    assert.equal(parts.length, 4);
    const parsed = parts.map((p) => JSON.parse(p));
    // Entities first, then deletions, in order, each element's text as the server wrote it.
    assert.deepEqual(parts.flatMap(texts), texts(body));
    assert.deepEqual(parsed.map((p) => [p.value.length, p["tabletop.deleted"].length]), [[4, 0], [4, 0], [2, 2], [0, 1]]);
    assert.ok(parts[0].includes('"D":-0,"F":1.50'));
    // Only the last part carries the page's other members.
    assert.deepEqual(parsed.map((p) => p["tabletop.checkpoint"]), [undefined, undefined, undefined, "c9"]);
    assert.equal(parsed[3]["tabletop.more"], true);
    assert.equal(parsed[3]["odata.metadata"], "x");
  });
  await t.test("OK/NoDeleted", () => {
    const body = `{"value":[1,2,3,4,5]}`;
    assert.deepEqual(pageParts(body, 2).map((p) => JSON.parse(p)), [{ value: [1, 2], "tabletop.deleted": [] }, { value: [3, 4], "tabletop.deleted": [] }, { value: [5], "tabletop.deleted": [] }]);
  });
  await t.test("ErrNotAnObject", () => {
    for (const bad of [`{"value":[1,2,3`, `[1,2,3]`, `{"value":[1,2,3]} x`, `{"value":[1 2 3]}`, ``, `{"value":["a]}`]) assert.deepEqual(pageParts(bad, 1), [bad], bad);
  });
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
