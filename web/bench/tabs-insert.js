// Strict single inserts with other tabs of the origin open, in one Chromium: Tabletop
// (a persistent store every tab has open) against Dexie 4 (durability "strict", the
// database open in every tab too). Tabletop's tabs share the store: a commit reads the
// writer lease, and the other tabs apply each commit they are told of; Dexie's tabs do
// nothing until they read. The first tab inserts one entity per call, --per calls a
// round for each engine, alternating which goes first, in --rounds rounds; the other tabs
// stay open and idle. Printed: each engine's median round rate and the median of the
// rounds' ratios, with 3 tabs open, and with the first tab alone, measured before the
// others open (a tab that has heard another never writes alone again).
// `node bench/tabs-insert.js [--rounds=10] [--per=100]` in web/, after `make web`.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { serve } from "../browser/serve.js";

const web = new URL("../", import.meta.url).pathname;
const option = (name, fallback) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const options = { rounds: option("rounds", 10), per: option("per", 100) };
const TABS = 3;

/** openBoth opens the Tabletop store and the Dexie database in the page, as window.both. */
async function openBoth(page) {
  await page.evaluate(async () => {
    const T = await import("/dist/tabletop.js");
    const store = await T.openStore("tabs-insert");
    const client = new T.TableClient(store, "things");
    const db = new window.Dexie("tabs-insert-dexie", { chromeTransactionDurability: "strict" });
    db.version(1).stores({ t: "[partitionKey+rowKey]" });
    await db.open();
    window.both = { store, client, db };
  });
}

/** rounds runs in the first tab: it times per inserts of each engine a round, and returns the rates. */
async function rounds({ rounds, per, tag }) {
  const { client, db } = window.both;
  await client.createTable().catch(() => {});
  const entity = (i) => ({ partitionKey: "p", rowKey: `${tag}-${String(i).padStart(7, "0")}`, name: "x".repeat(120), n: i, ok: true });
  let next = 0;
  const run = {
    tabletop: async () => {
      for (let i = 0; i < per; i++) await client.createEntity(entity(next++));
    },
    dexie: async () => {
      for (let i = 0; i < per; i++) await db.t.add(entity(next++));
    },
  };
  await run.tabletop(); // untimed: the code the browser optimises
  await run.dexie();
  const rates = { tabletop: [], dexie: [] };
  for (let r = 0; r < rounds; r++) {
    for (const k of r % 2 === 0 ? ["tabletop", "dexie"] : ["dexie", "tabletop"]) {
      const start = performance.now();
      await run[k]();
      rates[k].push((per * 1000) / (performance.now() - start));
    }
  }
  return rates;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** report prints one line of the table from the rates of a measure. */
function report(label, rates) {
  const ratio = median(rates.tabletop.map((t, i) => t / rates.dexie[i]));
  console.log(`| ${label} | ${median(rates.tabletop).toFixed(0)} | ${median(rates.dexie).toFixed(0)} | ${ratio.toFixed(2)}× |`);
}

const dir = await mkdtemp(join(tmpdir(), "tabletop-tabs-insert-"));
const server = await serve(web);
const ctx = await chromium.launchPersistentContext(dir, { executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu"] });
try {
  const open = async () => {
    const page = await ctx.newPage();
    await page.goto(`${server.url}browser/blank.html`);
    await page.addScriptTag({ url: "/node_modules/dexie/dist/dexie.min.js" });
    await openBoth(page);
    return page;
  };
  // First the tab alone: a tab that has heard another never writes alone again.
  const first = await open();
  await new Promise((r) => setTimeout(r, 500)); // no other tab answered: it writes alone
  const alone = await first.evaluate(rounds, { ...options, tag: "alone" });
  for (let k = 1; k < TABS; k++) await open();
  await new Promise((r) => setTimeout(r, 500)); // the tabs have greeted each other
  const shared = await first.evaluate(rounds, { ...options, tag: "shared" });
  console.log(`\n${options.per} strict inserts one per call a round, ${options.rounds} rounds, Chromium\n`);
  console.log("| tabs of the origin open | Tabletop inserts/s | Dexie inserts/s | Tabletop ÷ Dexie |\n|---|---:|---:|---:|");
  report(`${TABS}`, shared);
  report("1", alone);
} finally {
  await ctx.close();
  server.close();
  await rm(dir, { recursive: true, force: true });
}
