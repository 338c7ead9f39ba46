// A diagnostic of what a strict single insert costs in Chromium's IndexedDB, apart from
// either engine: raw transactions shaped as Dexie's insert and as Tabletop's commit of a
// tab writing alone, interleaved in rounds in one page so that all meet the same disk and
// load, each given as the median of its rounds' ratios to Dexie's shape. `node
// bench/commit.js` (from web/; --rounds=N, --per=N inserts a round, --durability=relaxed).
//
//   dexie        add({ partitionKey, rowKey, … }) into a store keyed by [partitionKey+rowKey], commit()
//   lease+add    Tabletop's commit: the lease read and the log record added; auto-commit
//   lease+commit the same, committed (commit()) once the lease is checked: what idb.js does
//   lease+commit/2 the same in a transaction over kv and meta only: what the scope of pages costs
//   add+commit/kv the log record alone in a transaction over kv only, commit()
//   add+commit   the log record alone, commit(): what the lease read costs
//   plain-record the log record into a store with no index: what the log's index costs
//   plain-object Dexie's object into that store with an explicit key: what the record's size costs
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { serve } from "../browser/serve.js";

const web = new URL("../", import.meta.url).pathname;
const option = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback;
const options = { rounds: Number(option("rounds", 16)), per: Number(option("per", 60)), durability: option("durability", "strict"), only: option("only", "") };

/** shapes runs in the page: it times each shape of commit and returns their ratios to Dexie's. */
async function shapes({ rounds, per, durability, only }) {
  const db = await new Promise((resolve, reject) => {
    const req = indexedDB.open(`commit-${Date.now()}`, 1);
    req.onupgradeneeded = () => {
      const d = req.result;
      d.createObjectStore("kv").createIndex("touches", "touches", { multiEntry: true });
      d.createObjectStore("meta").put("shared:x", "lease");
      d.createObjectStore("pages");
      d.createObjectStore("t", { keyPath: ["partitionKey", "rowKey"] });
      d.createObjectStore("plain");
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  const complete = (tx) => new Promise((resolve, reject) => ((tx.oncomplete = resolve), (tx.onabort = () => reject(tx.error))));
  let n = 0;
  const key = () => `log/${String(n++).padStart(16, "0")}`;
  // About the size of a log record of one benchmark entity: its change set, the carried clock, the touched page.
  const record = () => ({ cs: new Uint8Array(300), touches: [new Uint8Array(20)], total: n, carry: new Uint8Array(60), changes: [{ table: "Bench", kind: "create", partitionKey: "p0001", rowKey: String(n) }] });
  const object = () => ({ partitionKey: "p", rowKey: String(n++), name: `user ${n}`, n, x: n / 7, flag: n % 2 === 0 });
  const tx = (stores) => db.transaction(stores, "readwrite", { durability });
  const lease = (t, then) => (t.objectStore("meta").get("lease").onsuccess = (ev) => (ev.target.result === "shared:x" ? then() : t.abort()));
  const all = ["kv", "meta", "pages"];
  const run = {
    dexie: () => { const t = tx("t"); t.objectStore("t").add(object()); t.commit(); return complete(t); },
    "lease+add": () => { const t = tx(all); lease(t, () => {}); t.objectStore("kv").add(record(), key()); return complete(t); },
    "lease+commit": () => { const t = tx(all); lease(t, () => t.commit()); t.objectStore("kv").add(record(), key()); return complete(t); },
    "lease+commit/2": () => { const t = tx(["kv", "meta"]); lease(t, () => t.commit()); t.objectStore("kv").add(record(), key()); return complete(t); },
    "add+commit/kv": () => { const t = tx("kv"); t.objectStore("kv").add(record(), key()); t.commit(); return complete(t); },
    "add+mark": () => { const t = tx(["kv", "meta"]); t.objectStore("kv").add(record(), key()); const m = t.objectStore("meta"); m.add(1, "stale/shared:x"); m.delete("stale/shared:x"); t.commit(); return complete(t); },
    "add+mark/kv": () => { const t = tx(["kv", "meta"]); const kv = t.objectStore("kv"); kv.add(record(), key()); kv.add(1, "stale/shared:x"); kv.delete("stale/shared:x"); t.commit(); return complete(t); },
    "add+mark/add": () => { const t = tx(["kv", "meta"]); const kv = t.objectStore("kv"); kv.add(record(), key()); kv.add(1, `stale/${n}`); t.commit(); return complete(t); },
    "add+commit": () => { const t = tx(all); t.objectStore("kv").add(record(), key()); t.commit(); return complete(t); },
    "plain-record": () => { const t = tx("plain"); t.objectStore("plain").add(record(), key()); t.commit(); return complete(t); },
    "plain-object": () => { const t = tx("plain"); t.objectStore("plain").add(object(), key()); t.commit(); return complete(t); },
  };
  if (only) for (const k of Object.keys(run)) if (k !== "dexie" && !only.split(",").includes(k)) delete run[k];
  const rates = Object.fromEntries(Object.keys(run).map((k) => [k, []]));
  for (let i = 0; i < 100; i++) for (const k in run) await run[k](); // warm
  for (let r = 0; r < rounds; r++) {
    const order = Object.keys(run);
    if (r % 2) order.reverse();
    for (const k of order) {
      const t = performance.now();
      for (let i = 0; i < per; i++) await run[k]();
      rates[k].push(per / ((performance.now() - t) / 1000));
    }
  }
  db.close();
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  return Object.fromEntries(Object.entries(rates).map(([k, xs]) => [k, { perSec: Math.round(median(xs)), toDexie: Number(median(xs.map((x, i) => x / rates.dexie[i])).toFixed(2)) }]));
}

const server = await serve(web);
const profile = await mkdtemp(join(tmpdir(), "tabletop-commit-"));
const ctx = await chromium.launchPersistentContext(profile, { executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", headless: true, args: ["--headless", "--no-sandbox", "--disable-gpu"] });
try {
  const page = ctx.pages()[0] ?? (await ctx.newPage());
  await page.goto(`${server.url}browser/blank.html`);
  const out = await page.evaluate(shapes, options);
  console.log(`${options.durability}, ${options.rounds} rounds of ${options.per}:`);
  for (const [k, v] of Object.entries(out)) console.log(`${k.padEnd(14)} ${String(v.perSec).padStart(6)}/s  ${v.toDexie}× Dexie`);
} finally {
  await ctx.close();
  server.close();
  await rm(profile, { recursive: true, force: true });
}
