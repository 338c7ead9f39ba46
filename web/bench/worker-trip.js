// What a point read would cost if the engine ran off the page's main thread, in one
// SharedWorker per origin (the one way to keep one engine's memory for every tab) or in a
// dedicated Worker per tab, measured beside the two reads it would compete with, in one
// Chromium page:
// - Tabletop's point get today (getEntity on a persistent store, answered by the tab's
//   engine in the page);
// - Dexie's (get on a table keyed by [partitionKey+rowKey], durability "strict");
// - a message to a worker and its answer (bench/echo-worker.js: an entity-sized answer,
//   no engine), awaited one at a time as an app awaits its reads, and 8 in flight.
// Each is the median of --rounds rounds of --n calls (defaults 5 and 5,000), per call in
// µs; the last column is Dexie's time over each, the lead a read would keep.
// `node bench/worker-trip.js [--n=5000] [--rounds=5]` in web/, after `make web`.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { serve } from "../browser/serve.js";

const web = new URL("../", import.meta.url).pathname;
const option = (name, fallback) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const options = { n: option("n", 5000), rounds: option("rounds", 5) };

/** trips runs in the page: it times each kind of call and returns the medians in µs. */
async function trips({ n, rounds }) {
  const entity = (i) => ({ partitionKey: "p", rowKey: String(i).padStart(6, "0"), name: "x".repeat(120), n: i, ok: true });
  const T = await import("/dist/tabletop.js");
  const store = await T.openStore(`trip-${Date.now()}`);
  const client = new T.TableClient(store, "trip");
  await client.createTable();
  const actions = Array.from({ length: n }, (_, i) => ["create", entity(i)]);
  for (let i = 0; i < n; i += 100) await client.submitTransaction(actions.slice(i, i + 100));
  const db = new window.Dexie(`trip-${Date.now()}`, { chromeTransactionDurability: "strict" });
  db.version(1).stores({ t: "[partitionKey+rowKey]" });
  await db.t.bulkAdd(Array.from({ length: n }, (_, i) => entity(i)));
  const shared = new SharedWorker("/bench/echo-worker.js").port;
  const dedicated = new Worker("/bench/echo-worker.js");
  const caller = (target) => {
    const waiting = new Map();
    let id = 0;
    target.onmessage = (m) => {
      waiting.get(m.data.id)(m.data.body);
      waiting.delete(m.data.id);
    };
    return () => new Promise((resolve) => (waiting.set(++id, resolve), target.postMessage({ id })));
  };
  const toShared = caller(shared);
  const toDedicated = caller(dedicated);
  const key = (i) => String((i * 7919) % n).padStart(6, "0");
  const kinds = {
    "Tabletop getEntity (engine in the page)": async () => { for (let i = 0; i < n; i++) await client.getEntity("p", key(i)); },
    "Dexie get": async () => { for (let i = 0; i < n; i++) await db.t.get(["p", key(i)]); },
    "SharedWorker round trip": async () => { for (let i = 0; i < n; i++) await toShared(); },
    "dedicated Worker round trip": async () => { for (let i = 0; i < n; i++) await toDedicated(); },
    "SharedWorker, 8 in flight": () => Promise.all(Array.from({ length: 8 }, async () => { for (let i = 0; i < n / 8; i++) await toShared(); })),
  };
  const times = Object.fromEntries(Object.keys(kinds).map((k) => [k, []]));
  for (const run of Object.values(kinds)) await run(); // untimed: the code the browser optimises
  for (let r = 0; r < rounds; r++) {
    for (const [k, run] of Object.entries(kinds)) {
      const start = performance.now();
      await run();
      times[k].push(((performance.now() - start) * 1000) / n);
    }
  }
  await store.close();
  db.close();
  const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
  return Object.fromEntries(Object.entries(times).map(([k, xs]) => [k, median(xs)]));
}

const dir = await mkdtemp(join(tmpdir(), "tabletop-trip-"));
const server = await serve(web);
const browser = await chromium.launchPersistentContext(dir, { executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu"] });
try {
  const page = await browser.newPage();
  await page.goto(`${server.url}browser/blank.html`);
  await page.addScriptTag({ url: "/node_modules/dexie/dist/dexie.min.js" });
  const us = await page.evaluate(trips, options);
  const dexie = us["Dexie get"];
  console.log(`\n${options.n} calls a round, median of ${options.rounds} rounds, Chromium\n`);
  console.log("| call | µs per call | Dexie get ÷ it |\n|---|---:|---:|");
  for (const [k, v] of Object.entries(us)) console.log(`| ${k} | ${v.toFixed(1)} | ${(dexie / v).toFixed(1)}× |`);
} finally {
  await browser.close();
  server.close();
  await rm(dir, { recursive: true, force: true });
}
