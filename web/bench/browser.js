// The browser benchmark in Chromium: serves web/ on a free port of 127.0.0.1, opens
// bench/index.html in Debian's chromium (playwright-core) on a fresh on-disk profile, so
// that IndexedDB is the real, durable one, and runs the harness there, then reloads the
// page to time the wasm engines' import → ready warm. `node
// bench/browser.js` prints its table; with --json the raw results for bench/run.js, with
// --only=tabletop-memory,sqljs only those engines (tabletop-memory, tabletop-idb, sqljs,
// loki, dexie, sqlite-opfs), with --big=0 no reopening (a workload size of harness.js's
// defaults, given as --name=number, replaces it). The page is served without COOP/COEP:
// SQLite's opfs-sahpool VFS needs no SharedArrayBuffer, and the page checks it is not
// cross-origin isolated, so that SQLite-OPFS is timed as a page with no such headers runs it.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { serve } from "../browser/serve.js";
import { table } from "./table.js";
import { defaults } from "./harness.js";
import { stageSqlite } from "./sqlite-files.js";

const web = new URL("../", import.meta.url).pathname;
const WARM_LOADS = 5;
const args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

/** benchChromium runs the harness in a fresh Chromium and resolves with its results. */
export async function benchChromium(log = () => {}, options = {}) {
  stageSqlite();
  const server = await serve(web);
  const profile = await mkdtemp(join(tmpdir(), "tabletop-bench-"));
  // A persistent context: an incognito one would keep IndexedDB in memory.
  const ctx = await chromium.launchPersistentContext(profile, { executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", headless: true, args });
  try {
    const page = ctx.pages()[0] ?? (await ctx.newPage());
    page.on("console", (m) => log(m.text()));
    page.on("pageerror", (e) => log(`page error: ${e.message}`));
    const load = async () => {
      await page.goto(`${server.url}bench/`);
      await page.waitForFunction(() => typeof window.bench === "function");
    };
    await load();
    if (await page.evaluate(() => self.crossOriginIsolated)) throw new Error("bench/browser.js: the page is cross-origin isolated; SQLite-OPFS is meant to run without COOP/COEP");
    const results = await page.evaluate((o) => window.bench(o), options);
    // Warm: the page reloaded, its files revalidated (304) from the browser's cache, and
    // the module compiled from a wasm kept by V8 in the page's process; one time on a busy
    // machine swings by 3×, so the median of WARM_LOADS reloads counts.
    const warm = {};
    for (let i = 0; i < WARM_LOADS; i++) {
      await load();
      for (const [name, r] of Object.entries(await page.evaluate(() => window.warm()))) (warm[name] ??= []).push(r.warmReadyMs);
    }
    for (const [name, ms] of Object.entries(warm)) if (results[name]) results[name].warmReadyMs = ms.sort((a, b) => a - b)[ms.length >> 1];
    return results;
  } finally {
    await ctx.close();
    server.close();
    await rm(profile, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const json = process.argv.includes("--json");
  const options = {};
  for (const a of process.argv.slice(2)) {
    const [, key, value] = a.match(/^--(\w+)=(.*)$/) ?? [];
    if (key === "only") options.only = value.split(",");
    else if (key in defaults && Number.isSafeInteger(Number(value))) options[key] = Number(value);
    else if (a !== "--json") throw new Error(`bench/browser.js: unknown option ${a}`);
  }
  const results = await benchChromium((m) => console.error(m), options);
  console.log(json ? JSON.stringify(results) : table({ Chromium: results }));
}
