// The persistent store in a real browser: no acknowledged write is lost when the browser
// is killed, over many rounds and across compactions; every type round-trips exactly
// through export and import; a full storage quota fails writes with QuotaExceeded, loses
// nothing acknowledged, and deleting and compacting free it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "./serve.js";
import { launch } from "./chromium.js";
import { assertAllTypes } from "../test/alltypes.js";

const web = join(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * leveldbLog is the first line of the log Chromium's LevelDB keeps beside the origin's
 * IndexedDB: it says when the database was created, and so whether Chromium deleted and
 * recreated it (as it does with a database it finds corrupt) after the first round.
 */
async function leveldbLog(profile) {
  const dir = join(profile, "Default", "IndexedDB");
  const db = (await readdir(dir).catch(() => [])).find((f) => f.endsWith(".indexeddb.leveldb"));
  const log = db ? await readFile(join(dir, db, "LOG"), "utf8").catch(() => "") : "";
  return `Chromium's IndexedDB log: ${log.split("\n")[0] || "none"}`;
}

/** open starts chromium on profile and returns it with a page of the server's origin. */
async function open(profile, server) {
  const b = await launch(profile);
  const page = await b.ctx.newPage();
  await page.goto(`${server.url}browser/blank.html`);
  return { b, page };
}

test("no acknowledged write is lost when the browser is killed, across compactions", async (t) => {
  const server = await serve(web);
  t.after(() => server.close());
  const profile = await mkdtemp(join(tmpdir(), "tabletop-kill-"));
  const acked = new Map(); // key → highest acknowledged version
  const gens = new Set();
  let version = 0;
  let browser; // the round's, closed if the test fails before it kills it
  t.after(() => browser?.close().catch(() => {}));
  for (let round = 0; round <= 5; round++) {
    const { b, page } = await open(profile, server);
    browser = b;
    // Everything acknowledged so far is there.
    const state = await page.evaluate(async () => {
      const T = await import("/tabletop.js");
      const store = await T.openStore("kill");
      const c = new T.TableClient(store, "Rounds");
      await c.createTable();
      const rows = {};
      for await (const e of c.listEntities({ queryOptions: { select: ["RowKey", "v"] } })) rows[e.rowKey] = e.v;
      const head = await new Promise((resolve) => {
        const req = indexedDB.open("tabletop:kill");
        req.onsuccess = () => {
          const get = req.result.transaction("kv").objectStore("kv").get("head");
          get.onsuccess = () => (resolve(get.result ? new TextDecoder().decode(get.result) : ""), req.result.close());
        };
      });
      globalThis.client = c;
      return { rows, head };
    });
    for (const [key, v] of acked) {
      if (!(state.rows[key] >= v)) assert.fail(`round ${round}: ${key} is ${state.rows[key]}, acknowledged ${v} (read ${JSON.stringify(state.rows)}, head "${state.head}"; ${await leveldbLog(profile)})`);
    }
    gens.add(state.head.split(" ")[0]);
    if (round === 5) {
      await b.close();
      break;
    }
    // Write without waiting, 60 KB each, acknowledging to the test as each resolves, and
    // kill the browser mid-stream.
    let roundAcks = 0;
    await page.exposeFunction("ack", (key, v) => (roundAcks++, acked.set(key, Math.max(acked.get(key) ?? 0, v))));
    const start = version;
    version += 300;
    page.evaluate(async ([from, to]) => {
      const blob = "x".repeat(30000);
      const writes = [];
      for (let v = from + 1; v <= to; v++) {
        const key = `k${v % 7}`;
        writes.push(globalThis.client.upsertEntity({ partitionKey: "p", rowKey: key, v, blob, blob2: blob }, "Replace").then(() => globalThis.ack(key, v)));
        if (v % 20 === 0) await new Promise((r) => setTimeout(r, 5));
      }
      await Promise.all(writes);
    }, [start, version]).catch(() => {});
    for (let waited = 0; roundAcks < 20 && waited < 30000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 100 * (round % 4)));
    await b.kill();
  }
  t.diagnostic(`acknowledged up to ${Math.max(...acked.values())}, snapshot generations ${[...gens]}`);
  assert.ok(acked.size > 0, "no write was acknowledged");
  assert.ok(gens.size >= 2, `no compaction happened across the rounds (snapshot generations ${[...gens]})`);
});

test("every type round-trips exactly through export and import", async (t) => {
  const server = await serve(web);
  const { b, page } = await open(await mkdtemp(join(tmpdir(), "tabletop-types-")), server);
  t.after(async () => (await b.close(), server.close()));
  const got = await page.evaluate(async () => {
    const T = await import("/tabletop.js");
    const { allTypes } = await import("/test/alltypes.js");
    const source = new T.TableClient("types-a", "People");
    await source.createTable();
    await source.createEntity(allTypes("p", "1"));
    const dump = await source.exportTable();
    const gz = await new T.TableServiceClient("types-a").exportStore({ gzip: true });
    const copy = new T.TableClient("types-b", "Copy");
    await copy.importTable(dump);
    await new T.TableServiceClient("types-c").importStore(gz);
    const read = (c) => c.getEntity("p", "1", { disableTypeConversion: true });
    return { dump, again: await copy.exportTable(), b: await read(copy), c: await read(new T.TableClient("types-c", "People")) };
  });
  assertAllTypes(got.b, assert);
  assertAllTypes(got.c, assert);
  assert.match(got.dump, /"whole@odata.type":"Edm.Double","whole":5.0,/);
  assert.match(got.dump, /"negZero@odata.type":"Edm.Double","negZero":-0.0,/);
  const strip = (d) => d.replace(/"Timestamp":"[^"]*"/g, "").replace(/"table":"\w+"/, "");
  assert.equal(strip(got.again), strip(got.dump));
});

test("a full storage quota fails writes with QuotaExceeded, loses nothing acknowledged, and can be freed", async (t) => {
  const server = await serve(web);
  const { b, page } = await open(await mkdtemp(join(tmpdir(), "tabletop-quota-")), server);
  t.after(async () => (await b.close(), server.close()));
  const cdp = await b.ctx.newCDPSession(page);
  await cdp.send("Storage.overrideQuotaForOrigin", { origin: server.url.replace(/\/$/, ""), quotaSize: 4 << 20 }); // as estimate reports it below
  const got = await page.evaluate(async (quota) => {
    // The quota forced above is not the one navigator.storage.estimate reports, which the
    // store asks before compacting a page its writes keep growing (idb.js PageLog): tell it.
    const estimate = navigator.storage.estimate.bind(navigator.storage);
    navigator.storage.estimate = async () => ({ ...(await estimate()), quota });
    const T = await import("/tabletop.js");
    const store = await T.openStore("quota", { persist: true });
    const c = new T.TableClient(store, "Full");
    await c.createTable();
    const blob = "x".repeat(30000);
    let written = 0, failure;
    for (let i = 0; i < 400 && !failure; i++) {
      try {
        await c.createEntity({ partitionKey: "p", rowKey: String(i).padStart(4, "0"), blob, blob2: blob });
        written++;
      } catch (e) {
        failure = { code: e.code, statusCode: e.statusCode };
      }
    }
    const count = async (client) => {
      let n = 0;
      for await (const _ of client.listEntities({ queryOptions: { select: ["RowKey"] } })) n++;
      return n;
    };
    const afterFailure = await count(c);
    const failedOne = await c.getEntity("p", String(written).padStart(4, "0")).then(() => "found", (e) => e.code);
    // Free space: delete all but two entities, compact, and write again.
    for (let i = 2; i < written; i++) await c.deleteEntity("p", String(i).padStart(4, "0"));
    await store.compact();
    await c.createEntity({ partitionKey: "p", rowKey: "again", blob });
    await store.close();
    const reopened = await T.openStore("quota");
    const afterReopen = await count(new T.TableClient(reopened, "Full"));
    await reopened.close();
    return { written, failure, afterFailure, failedOne, afterReopen, persisted: typeof store.persisted };
  }, 4 << 20);
  assert.deepEqual(got.failure, { code: "QuotaExceeded", statusCode: 507 });
  assert.ok(got.written > 5, `only ${got.written} writes fitted`);
  assert.equal(got.afterFailure, got.written, "every acknowledged write is readable");
  assert.equal(got.failedOne, "ResourceNotFound", "the failed write is not seen");
  assert.equal(got.afterReopen, 3, "after deleting and compacting, the store takes writes again");
  assert.equal(got.persisted, "boolean");
});
