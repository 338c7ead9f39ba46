// A diagnostic of where one strict single insert spends its time, Tabletop's (the store
// writing alone, as the benchmark's) beside Dexie's, in one Chromium page: IndexedDB's
// methods are wrapped to stamp each phase with performance.now(), and each phase is given
// as its mean over the middle 80% of the inserts, interleaved in rounds. `node bench/split.js` (from web/;
// --rounds=N, --per=N inserts a round; Tabletop from src, as tabletop.js imports it).
//
//   to tx       call → the read-write transaction created (JS API, the write queued)
//   to add      → the record added (for Tabletop: the wasm call, its change set, the record built)
//   to added    → add() returned (the value cloned, its index keys taken)
//   to commit   → commit() called (Dexie: once the add has succeeded)
//   to complete → the transaction's complete event (IndexedDB, the disk sync)
//   to resolve  → the call's promise resolved
//   total       call → resolved
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { serve } from "../browser/serve.js";

const web = new URL("../", import.meta.url).pathname;
const option = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback;
const options = { rounds: Number(option("rounds", 10)), per: Number(option("per", 50)) };

/** split runs in the bench page: it times each phase of both engines' inserts. */
async function split({ rounds, per }) {
  const T = await import("/tabletop.js");
  const store = await T.openStore(`split${Date.now()}`);
  const client = new T.TableClient(store, "Bench");
  await client.createTable();
  const dexie = new window.Dexie(`splitdexie${Date.now()}`, { chromeTransactionDurability: "strict" });
  dexie.version(1).stores({ t: "[partitionKey+rowKey]" });
  await dexie.open();
  await new Promise((r) => setTimeout(r, 200)); // Tabletop writes alone from here
  let marks;
  const now = () => performance.now();
  const { transaction } = IDBDatabase.prototype;
  const { add } = IDBObjectStore.prototype;
  const { commit } = IDBTransaction.prototype;
  const { get } = IDBObjectStore.prototype;
  IDBObjectStore.prototype.get = function (...args) {
    if (marks) marks.gets = (marks.gets ?? 0) + 1;
    return get.apply(this, args);
  };
  IDBDatabase.prototype.transaction = function (...args) {
    const tx = transaction.apply(this, args);
    if (marks) marks.tx ??= now();
    return tx;
  };
  IDBObjectStore.prototype.add = function (...args) {
    const m = marks?.add === undefined ? marks : undefined;
    if (m) {
      m.add = now();
      this.transaction.addEventListener("complete", () => (m.complete ??= now()));
    }
    const req = add.apply(this, args);
    if (m) m.added = now();
    return req;
  };
  IDBTransaction.prototype.commit = function () {
    if (marks) marks.commit ??= now();
    return commit.call(this);
  };
  const entity = (i) => ({ partitionKey: "p", rowKey: String(i).padStart(8, "0"), name: `user ${i}`, n: i, x: i / 7, flag: i % 2 === 0 });
  const run = { tabletop: (e) => client.createEntity(e), dexie: (e) => dexie.table("t").add(e) };
  const phases = Object.fromEntries(Object.keys(run).map((k) => [k, []]));
  let n = 0;
  for (let i = 0; i < 50; i++) for (const k in run) await run[k](entity(n++)); // warm
  for (let r = 0; r < rounds; r++) {
    for (const k of r % 2 ? ["dexie", "tabletop"] : ["tabletop", "dexie"]) {
      for (let i = 0; i < per; i++) {
        marks = { call: now() };
        const m = marks;
        await run[k](entity(n++));
        m.resolve = now();
        marks = undefined;
        phases[k].push(m);
      }
    }
  }
  store.close();
  dexie.close();
  // performance.now() moves in steps of 0.1 ms in a page that is not cross-origin
  // isolated: the mean of the middle 80% of the inserts, not the median, resolves finer.
  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b).slice(Math.floor(xs.length / 10), Math.ceil((xs.length * 9) / 10));
    return s.reduce((a, b) => a + b, 0) / s.length;
  };
  const steps = ["call", "tx", "add", "added", "commit", "complete", "resolve"];
  const out = {};
  for (const [k, ms] of Object.entries(phases)) {
    out[k] = {};
    let prev = "call";
    for (const s of steps.slice(1)) {
      if (ms.every((m) => m[s] === undefined)) continue;
      out[k][`to ${s}`] = median(ms.map((m) => m[s] - m[prev]));
      prev = s;
    }
    out[k].total = median(ms.map((m) => m.resolve - m.call));
    out[k]["reads (get)"] = ms.reduce((n, m) => n + (m.gets ?? 0), 0) / ms.length;
  }
  return out;
}

const server = await serve(web);
const profile = await mkdtemp(join(tmpdir(), "tabletop-split-"));
const ctx = await chromium.launchPersistentContext(profile, { executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", headless: true, args: ["--headless", "--no-sandbox", "--disable-gpu"] });
try {
  const page = ctx.pages()[0] ?? (await ctx.newPage());
  await page.goto(`${server.url}bench/`);
  await page.waitForFunction(() => typeof window.Dexie === "function");
  const out = await page.evaluate(split, options);
  console.log(`ms per phase (mean of the middle 80%), ${options.rounds} rounds of ${options.per} strict inserts each:`);
  const rows = [...new Set(Object.values(out).flatMap((o) => Object.keys(o)))];
  console.log(`${"".padEnd(12)} ${Object.keys(out).map((k) => k.padStart(9)).join(" ")}`);
  for (const r of rows) console.log(`${r.padEnd(12)} ${Object.values(out).map((o) => (o[r] === undefined ? "—" : o[r].toFixed(3)).padStart(9)).join(" ")}`);
} finally {
  await ctx.close();
  server.close();
  await rm(profile, { recursive: true, force: true });
}
