// A large store's first full read and the memory it costs, per engine, in one Chromium:
// Tabletop (a persistent store in IndexedDB), Dexie 4 (IndexedDB, durability "strict")
// and SQLite on OPFS (opfs-sahpool, in a Worker). For each, one page fills a store with
// N entities of about 200 bytes in 100 partitions (default 1,000,000) the fastest way the
// engine offers (memory-engines.js), then a new page of the origin reads it all once and
// writes one entity: the time from open to the last entity, the main thread's long tasks
// meanwhile (a PerformanceObserver), and the page's renderer process's memory at the end.
// Then two more tabs read it too, each keeping it open, and the three tabs' renderer
// processes are summed; SQLite's sahpool VFS serves one tab of an origin at a time, which
// the second tab's failure to open it shows.
//
// Memory is read from Linux: VmRSS of /proc/<pid>/status (resident, shared pages
// included) and the private part of it, Private_Clean + Private_Dirty of
// /proc/<pid>/smaps_rollup. The renderer of a page is the one whose CPU time, from the
// DevTools protocol's SystemInfo.getProcessInfo, grows while the page spins its main
// thread (the protocol names no page's process). IndexedDB's backend runs in Chromium's
// browser process, not the renderer (its storage service process kept the same size
// whatever the engine read): the browser process's growth over each engine's measure is
// printed apart, where OPFS is read and written from the renderer itself.
//
// `node bench/memory.js [--n=100000] [--only=tabletop,dexie,sqlite-opfs]
// [--tabletop-fill=transactions] [--tabletop-cache-bytes=N]` in web/, after `make web`.
// Tabletop's line also gives its engine's wasm memory and live heap after the read.
import { mkdtemp, rm } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { serve } from "../browser/serve.js";
import { stageSqlite } from "./sqlite-files.js";

const web = new URL("../", import.meta.url).pathname;
const args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

/** ENGINES are the engines measured, in order, with their names in the table. */
const ENGINES = [
  ["tabletop", "Tabletop (IndexedDB)"],
  ["dexie", "Dexie"],
  ["sqlite-opfs", "SQLite (OPFS)"],
];

/** TABS is the number of tabs of the origin that read the store in the second measure. */
const TABS = 3;

/** SPIN_MS is how long a page keeps its main thread busy to be told apart by CPU time. */
const SPIN_MS = 400;

/** options reads --n, --only, --tabletop-fill and --tabletop-cache-bytes from argv. */
function options(argv) {
  const o = { n: 1_000_000, only: ENGINES.map(([k]) => k), tabletopFill: "import" };
  for (const a of argv) {
    const [, key, value] = a.match(/^--([\w-]+)=(.*)$/) ?? [];
    if (key === "n" && Number.isSafeInteger(Number(value)) && Number(value) > 0) o.n = Number(value);
    else if (key === "only") o.only = value.split(",");
    else if (key === "tabletop-fill" && ["import", "transactions"].includes(value)) o.tabletopFill = value;
    else if (key === "tabletop-cache-bytes" && Number.isSafeInteger(Number(value)) && Number(value) >= 0) o.tabletopCacheBytes = Number(value);
    else throw new Error(`bench/memory.js: unknown option ${a}`);
  }
  for (const name of o.only) if (!ENGINES.some(([k]) => k === name)) throw new Error(`bench/memory.js: no engine ${name}`);
  return o;
}

/** processes returns Chromium's processes from the DevTools protocol: [{ type, id, cpuTime }]. */
async function processes(cdp) {
  return (await cdp.send("SystemInfo.getProcessInfo")).processInfo;
}

/**
 * rendererOf finds page's renderer process: the renderer whose CPU time grew most while
 * the page spun its main thread for SPIN_MS, which must be most of that time and clearly
 * more than any other renderer's, or it tries again (a few times, then fails).
 */
async function rendererOf(cdp, page) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const cpu = async () => new Map((await processes(cdp)).filter((p) => p.type === "renderer").map((p) => [p.id, p.cpuTime]));
    const before = await cpu();
    await page.evaluate(async (ms) => (await import("/bench/memory-engines.js")).spin(ms), SPIN_MS);
    const grown = [...(await cpu())].map(([id, t]) => [id, t - (before.get(id) ?? 0)]).sort((a, b) => b[1] - a[1]);
    const [first, second] = grown;
    if (first && first[1] >= (0.6 * SPIN_MS) / 1000 && !(second && second[1] > first[1] / 3)) return first[0];
  }
  throw new Error("bench/memory.js: cannot tell the page's renderer process by its CPU time");
}

/** memoryOf reads a process's resident and private memory from /proc, in bytes: { rss, private }. */
function memoryOf(pid) {
  const kB = (text, field) => Number(text.match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"))?.[1] ?? NaN) * 1024;
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
  return { rss: kB(status, "VmRSS"), private: kB(rollup, "Private_Clean") + kB(rollup, "Private_Dirty") };
}

/** browserRss is the VmRSS of Chromium's browser process, where IndexedDB's backend runs. */
async function browserRss(cdp) {
  return memoryOf((await processes(cdp)).find((p) => p.type === "browser").id).rss;
}

/** newTab opens a page of the origin, its console and errors sent to log. */
async function newTab(ctx, url, log) {
  const page = await ctx.newPage();
  page.on("console", (m) => log(`page: ${m.text()}`));
  page.on("pageerror", (e) => log(`page error: ${e.message}`));
  await page.goto(url);
  return page;
}

/** inPage calls export fn of memory-engines.js in page with args. */
function inPage(page, fn, ...args) {
  return page.evaluate(async ([fn, args]) => (await import("/bench/memory-engines.js"))[fn](...args), [fn, args]);
}

/**
 * measure fills engine name's store in one page and reads it in new ones: resolves with
 * { fillMs, readMs, tasks, one: memory of the first reading tab's renderer, tabs: the
 * TABS tabs' renderers summed (or a string saying why there is none), browserGrowth:
 * the browser process's VmRSS after the reads less before the fill }.
 */
async function measure(ctx, cdp, url, name, { n, tabletopFill, tabletopCacheBytes }, log) {
  const browserBefore = await browserRss(cdp);
  const filler = await newTab(ctx, url, log);
  log(`${name}: filling ${n} entities`);
  const fillMs = await inPage(filler, "fill", name, n, tabletopFill, tabletopCacheBytes);
  await filler.close();
  const tabs = [];
  try {
    const readOne = async (k) => {
      const page = await newTab(ctx, url, log);
      tabs.push(page);
      const pid = await rendererOf(cdp, page);
      await inPage(page, "load", name, tabletopCacheBytes);
      const loaded = memoryOf(pid);
      const out = await inPage(page, "read", name, n);
      const mem = memoryOf(pid);
      const engine = await inPage(page, "engineMemory"); // after the process is measured: it collects garbage
      const own = engine ? `; engine: wasm memory ${MB(engine.wasm)}, live heap ${MB(engine.live)}` : "";
      log(`${name}: tab ${k} (renderer ${pid}) read ${n} in ${(out.ms / 1000).toFixed(2)} s, wrote one in ${out.writeMs.toFixed(0)} ms, ${out.tasks.length} long tasks${longest(out.tasks)}, VmRSS ${MB(loaded.rss)} loaded, ${MB(mem.rss)} after${own}`);
      return { ...out, pid, loaded, mem };
    };
    const first = await readOne(1);
    const row = { fillMs, readMs: first.ms, tasks: first.tasks, loaded: first.loaded, one: first.mem };
    if (name === "sqlite-opfs") {
      row.tabs = await secondSqliteTab(ctx, url, log);
    } else {
      const pids = new Set([first.pid]);
      for (let k = 2; k <= TABS; k++) pids.add((await readOne(k)).pid);
      const mems = [...pids].map(memoryOf);
      row.tabs = { rss: sum(mems.map((m) => m.rss)), private: sum(mems.map((m) => m.private)), processes: pids.size };
    }
    row.browserGrowth = (await browserRss(cdp)) - browserBefore;
    return row;
  } finally {
    for (const page of tabs) await page.close();
  }
}

/**
 * secondSqliteTab opens the SQLite store in a second tab while the first holds it: the
 * opfs-sahpool VFS's handles are the first tab's, so the second must fail; it resolves
 * with the text for the table, or throws if the second tab opened it after all.
 */
async function secondSqliteTab(ctx, url, log) {
  const page = await newTab(ctx, url, () => {}); // quiet: the VFS logs each refused handle
  try {
    await inPage(page, "open", "sqlite-opfs");
  } catch (e) {
    log(`sqlite-opfs: a second tab cannot open the store: ${e.message.split("\n")[0]}`);
    return "one tab only";
  } finally {
    await page.close();
  }
  throw new Error("bench/memory.js: a second tab opened SQLite's opfs-sahpool store while the first held it");
}

/** longest lists the longest long tasks (up to five) with when they began, for the log. */
const longest = (tasks) => (tasks.length ? ` (longest ${tasks.slice(0, 5).map((t) => `${t.ms.toFixed(0)} ms at ${(t.at / 1000).toFixed(2)} s`).join(", ")})` : "");

// Figures as the table prints them.
const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const MB = (b) => `${(b / 1e6).toFixed(0)} MB`;
const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
const mem = (m) => `${MB(m.rss)} (private ${MB(m.private)})`;

/** render prints the rows as a Markdown table with its notes. */
function render(rows, { n, tabletopFill, tabletopCacheBytes }, baseline) {
  const tabletopHow = tabletopFill === "import" ? "importTable of a dump per chunk" : "the chunk as transactions of 100 (submitTransaction), all in flight";
  const budget = tabletopCacheBytes === undefined ? "its default cacheBytes" : `cacheBytes ${tabletopCacheBytes.toLocaleString("en-US")}`;
  const lines = [
    "| engine | fill | first full read | long tasks (count / longest) | renderer memory, 1 tab | (before the read, engine loaded) | 3 tabs, total | browser process growth |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const [label, r] of rows) {
    const tasks = `${r.tasks.length} / ${r.tasks.length ? `${r.tasks[0].ms.toFixed(0)} ms` : "—"}`;
    const tabs = typeof r.tabs === "string" ? r.tabs : `${mem(r.tabs)}${r.tabs.processes < TABS ? `, ${r.tabs.processes} processes` : ""}`;
    lines.push(`| ${label} | ${s(r.fillMs)} | ${s(r.readMs)} | ${tasks} | ${mem(r.one)} | ${mem(r.loaded)} | ${tabs} | ${MB(r.browserGrowth)} |`);
  }
  return [
    ...lines,
    "",
    `N = ${n.toLocaleString("en-US")} entities of about 200 bytes in 100 partitions, each engine's figures measured in the same Chromium, one engine after the other; Tabletop with ${budget}.`,
    `Fill: one page from open to closed, in chunks of 10,000 (Tabletop: ${tabletopHow}; Dexie: bulkAdd; SQLite: one transaction per chunk, in its Worker). First full read: a new tab, its engine's code loaded, from open to the last entity (Tabletop: listEntities; Dexie: toArray of 1,000 after the last key; SQLite: SELECT 1,000 after the last key, one message each), every entity checked; long tasks: the main thread's tasks over 50 ms meanwhile.`,
    `Memory: the tab's renderer process (its Workers included) at the end of the read, the store still open, as VmRSS (/proc/<pid>/status) and its private part (Private_Clean + Private_Dirty, /proc/<pid>/smaps_rollup), and the same in that tab before the read, its engine's code loaded (Tabletop: the module imported and the wasm started; Dexie: its script; SQLite: the Worker started, the wasm and the VFS installed) and no store opened; a blank page of the origin's renderer: ${mem(baseline)}. 3 tabs: three tabs that have each read the store and hold it open, their renderers summed. Browser process growth: the VmRSS of Chromium's browser process, where IndexedDB's backend runs (not counted in a renderer's), after the engine's reads less before its fill.`,
  ].join("\n");
}

/** benchMemory runs the measure for each engine of o.only in one fresh Chromium and resolves with the printed table. */
export async function benchMemory(o, log = () => {}) {
  stageSqlite();
  const server = await serve(web);
  const profile = await mkdtemp(join(tmpdir(), "tabletop-memory-"));
  const pids = new Set();
  let ctx, cdp;
  try {
    // A persistent context: an incognito one would keep IndexedDB in memory.
    ctx = await chromium.launchPersistentContext(profile, { executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", headless: true, args });
    cdp = await ctx.browser().newBrowserCDPSession();
    const url = `${server.url}browser/blank.html`;
    const blank = await newTab(ctx, url, log);
    const baseline = memoryOf(await rendererOf(cdp, blank));
    await blank.close();
    const rows = [];
    for (const [name, label] of ENGINES.filter(([k]) => o.only.includes(k))) {
      (await processes(cdp)).forEach((p) => pids.add(p.id));
      rows.push([label, await measure(ctx, cdp, url, name, o, log)]);
    }
    return render(rows, o, baseline);
  } finally {
    // Every process Chromium has now, then those seen between engines, end with it.
    await processes(cdp)
      .then((ps) => ps.forEach((p) => pids.add(p.id)))
      .catch(() => {});
    await ctx?.close().catch(() => {});
    server.close();
    for (const pid of pids) killChromium(pid);
    await rm(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }).catch(() => {});
  }
}

/** killChromium ends process pid if it is still running and still Chromium's (a pid may have been reused). */
function killChromium(pid) {
  try {
    if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("chrom")) return;
    process.kill(pid, "SIGKILL");
  } catch {
    // it has ended
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const o = options(process.argv.slice(2));
  const started = performance.now();
  const out = await benchMemory(o, (m) => console.error(m));
  console.log(`\nbench/memory.js (${((performance.now() - started) / 1000).toFixed(0)} s):\n`);
  console.log(out);
}
