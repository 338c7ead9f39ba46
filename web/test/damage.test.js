// A persistent store whose IndexedDB records were damaged outside the module (a page or a
// log record cut short, bytes flipped, a record deleted, a head that does not parse)
// refuses with RestError code DataCorrupted naming the record, on opening or on the call
// that meets it, and leaves every record as it was: nothing reads around the damage,
// rewrites or deletes it. In Node over fake IndexedDB.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fresh } from "./helpers.js";
import { openStore, deleteStore, TableClient } from "../tabletop.js";

const ROWS = 300;
const row = (i) => String(i).padStart(4, "0");

/** filled makes a closed store of ROWS entities, compacted into pages if paged, then 5 updates in its log. */
async function filled(t, paged) {
  const name = fresh("damage");
  t.after(() => deleteStore(name));
  const store = await openStore(name);
  const c = new TableClient(store, "things");
  await c.createTable();
  for (let i = 0; i < ROWS; i++) await c.createEntity({ partitionKey: "p", rowKey: row(i), v: "x".repeat(200) });
  if (paged) await store.compact();
  for (let i = 0; i < 5; i++) await c.updateEntity({ partitionKey: "p", rowKey: row(i), v: "y" });
  await store.close();
  return name;
}

/** raw runs fn(stores) over the store's database in one read-write transaction. */
async function raw(name, fn) {
  const db = await new Promise((resolve, reject) => {
    const req = indexedDB.open(`tabletop:${name}`);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  const tx = db.transaction(["kv", "pages", "meta"], "readwrite");
  const stores = { kv: tx.objectStore("kv"), pages: tx.objectStore("pages"), meta: tx.objectStore("meta") };
  const out = await fn(stores);
  await new Promise((resolve, reject) => ((tx.oncomplete = resolve), (tx.onerror = () => reject(tx.error))));
  db.close();
  return out;
}

const ask = (req) => new Promise((resolve) => (req.onsuccess = () => resolve(req.result)));

/** contents lists every record of the store's database, keys and values, for comparison. */
const contents = (name) =>
  raw(name, async ({ kv, pages }) => {
    const dump = async (s) => {
      const [keys, values] = [await ask(s.getAllKeys()), await ask(s.getAll())];
      return keys.map((k, i) => [Buffer.from(k instanceof ArrayBuffer ? new Uint8Array(k) : String(k)).toString("hex"), JSON.stringify(values[i], (_, v) => (v instanceof Uint8Array ? Buffer.from(v).toString("hex") : v))]);
    };
    return { kv: await dump(kv), pages: await dump(pages) };
  });

/** logKeys are the store's log keys, in order. */
const logKeys = (name) => raw(name, async ({ kv }) => (await ask(kv.getAllKeys())).filter((k) => k.startsWith("log/")));

/** cut returns b without its last n bytes. */
const cut = (b, n) => b.slice(0, b.length - n);

/** damages a log record of the store with fn(cs), the one before the last. */
async function damageLog(name, fn) {
  const key = (await logKeys(name)).at(-2);
  await raw(name, async ({ kv }) => {
    const v = await ask(kv.get(key));
    kv.put({ ...v, cs: fn(v.cs) }, key);
  });
  return key;
}

/** damages the store's first page with fn(bytes). */
async function damagePage(name, fn) {
  await raw(name, async ({ pages }) => {
    const [key] = await ask(pages.getAllKeys());
    pages.put(fn(await ask(pages.get(key))), key);
  });
  return 'pages/""';
}

/**
 * refused opens the store, reads it in full and writes to it, and checks that the open or
 * the read fails with DataCorrupted naming key and problem, as does the write, and that the
 * database is unchanged.
 */
async function refused(name, key, problem) {
  const before = await contents(name);
  const check = (e) => {
    assert.equal(e.code, "DataCorrupted", e.stack);
    assert.equal(e.statusCode, 500);
    assert.equal(e.key, key);
    assert.match(e.problem, problem);
    assert.ok(e.message.includes(key), e.message);
    return true;
  };
  let store;
  try {
    store = await openStore(name);
  } catch (e) {
    check(e);
  }
  if (store) {
    const c = new TableClient(store, "things");
    await assert.rejects(async () => {
      for await (const _ of c.listEntities());
    }, check);
    await assert.rejects(c.upsertEntity({ partitionKey: "p", rowKey: row(1), v: "z" }), check);
    await store.close();
  }
  assert.deepEqual(await contents(name), before, "the damaged store was written to");
}

test("a log record cut short is refused, named", async (t) => {
  const name = await filled(t, false);
  const key = await damageLog(name, (cs) => cut(cs, 10));
  await refused(name, key, /runs past its end/);
});

test("a log record with a flipped bit in a length is refused, named", async (t) => {
  const name = await filled(t, false);
  const key = await damageLog(name, (cs) => {
    const out = cs.slice();
    out[1] = 0x78; // "*3" becomes "*x"
    return out;
  });
  await refused(name, key, /no length at byte 1/);
});

test("a log record that is not bytes is refused, named", async (t) => {
  const name = await filled(t, false);
  const key = await damageLog(name, () => "not bytes");
  await refused(name, key, /not bytes/);
});

/** replaceLog replaces a log record of the store, the one before the last, with fn(record). */
async function replaceLog(name, fn) {
  const key = (await logKeys(name)).at(-2);
  await raw(name, async ({ kv }) => kv.put(fn(await ask(kv.get(key))), key));
  return key;
}

test("a log record that is no record, or whose note is not JSON, is refused as another tab catches up", async (t) => {
  for (const [fn, problem] of [
    [() => null, /not a log record/],
    [(v) => ({ ...v, changes: "[{" }), /note of changes is not JSON/],
  ]) {
    const name = fresh("damage");
    t.after(() => deleteStore(name));
    const [sa, sb] = [await openStore(name), await openStore(name)];
    t.after(() => Promise.all([sa.close(), sb.close()]));
    const [a, b] = [new TableClient(sa, "things"), new TableClient(sb, "things")];
    await a.createTable();
    await sb.sync();
    sb._channel.onmessage = null; // b hears nothing: it reads a's commits from the log
    await a.createEntity({ partitionKey: "p", rowKey: "1" });
    await a.createEntity({ partitionKey: "p", rowKey: "2" });
    const key = await replaceLog(name, fn);
    const check = (e) => e.code === "DataCorrupted" && e.key === key && problem.test(e.problem);
    // Each settles: a callback of IndexedDB's that throws must not leave a read waiting forever.
    const settled = (p) => Promise.race([p, new Promise((_, reject) => setTimeout(() => reject(new Error("never settled")), 5000))]);
    await assert.rejects(settled(sb.sync()), check);
    await assert.rejects(settled(b.upsertEntity({ partitionKey: "p", rowKey: "3" })), check);
  }
});

test("a log record missing from the middle of the log stops the open, named", async (t) => {
  const name = await filled(t, false);
  const key = (await logKeys(name)).at(-3);
  await raw(name, ({ kv }) => kv.delete(key));
  await refused(name, key, /missing, though the log runs from/);
});

test("a page cut short, even inside a length, is refused, named", async (t) => {
  for (const n of [1, 30, 205]) {
    const name = await filled(t, true);
    await refused(name, await damagePage(name, (b) => cut(b, n)), /./);
  }
});

test("a page that the directory lists and that is missing is refused, named", async (t) => {
  const name = await filled(t, true);
  await raw(name, async ({ pages }) => pages.delete((await ask(pages.getAllKeys()))[0]));
  await refused(name, 'pages/""', /missing, though the directory of pages lists it/);
});

test("a head that does not parse stops the open, named", async (t) => {
  const name = await filled(t, true);
  await raw(name, ({ kv }) => kv.put(new TextEncoder().encode("1 0 x"), "head"));
  await refused(name, "head", /"1 0 x" is not a head record/);
});

/** openDamaged opens a filled store (see filled) and then deletes a log record from the middle of its log. */
async function openDamaged(t, paged) {
  const name = await filled(t, paged);
  const store = await openStore(name);
  t.after(() => store.close().catch(() => {}));
  const key = (await logKeys(name)).at(-3);
  await raw(name, ({ kv }) => kv.delete(key));
  return { name, store, key };
}

test("a log record gone from the middle while the store is open stops a compaction, named", async (t) => {
  const { name, store, key } = await openDamaged(t, false);
  const before = await contents(name);
  const damaged = (e) => e.code === "DataCorrupted" && e.key === key && /missing, though the log runs from/.test(e.problem);
  await assert.rejects(store.compact(), damaged);
  // The store takes no write after it: no open could read one back.
  await assert.rejects(new TableClient(store, "things").upsertEntity({ partitionKey: "p", rowKey: "new", v: "z" }), damaged);
  assert.deepEqual(await contents(name), before, "the compaction wrote to the damaged store");
});

test("a log record gone while the store is open stops the compaction a write starts, and the writes after", async (t) => {
  const { store, key } = await openDamaged(t, true);
  // Writes of 60 KB until the log passes the size that makes the store compact by itself.
  const c = new TableClient(store, "things");
  const reported = [];
  store.on("error", (e) => reported.push(e));
  const outcomes = [];
  for (let i = 0; i < 90; i++) {
    outcomes.push(await c.upsertEntity({ partitionKey: "big", rowKey: row(i), v: "x".repeat(30000), w: "y".repeat(30000) }).then(() => "ok", (e) => (e.code === "DataCorrupted" && e.key === key ? "damaged" : e.code)));
  }
  const first = outcomes.indexOf("damaged");
  assert.ok(first > 0, `no write failed for the damage: ${outcomes.join(" ")}`);
  assert.deepEqual(new Set(outcomes.slice(first)), new Set(["damaged"]), "a write after the damage was found");
  assert.deepEqual(new Set(outcomes.slice(0, first)), new Set(["ok"]));
  assert.deepEqual(reported.map((e) => [e.code, e.key]), [["DataCorrupted", key]], "the compaction's failure, reported once on the store");
  await assert.rejects(store.compact(), (e) => e.code === "DataCorrupted" && e.key === key);
});
