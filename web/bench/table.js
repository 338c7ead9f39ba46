// The benchmark's one table: a row per metric, a column per engine and host, and per host
// the ratios Tabletop in memory ÷ sql.js and ÷ LokiJS, and Tabletop in IndexedDB ÷ Dexie
// and ÷ SQLite on OPFS.
import { sizes as measureSizes } from "./sizes.js";
import { defaults, ROUNDS, BATCH, WARM, SIDE_ROUNDS, REOPENS } from "./harness.js";

const engines = [
  ["tabletop-memory", "Tabletop mem", "tabletop"],
  ["tabletop-idb", "Tabletop IDB", "tabletop"],
  ["sqljs", "sql.js", "sqljs"],
  ["loki", "LokiJS", "loki"],
  ["dexie", "Dexie", "dexie"],
  ["sqlite-opfs", "SQLite (OPFS)", "sqliteOpfs"],
];

const MB = (b) => (b / 1e6).toFixed(2) + " MB";
const KB = (b) => (b / 1e3).toFixed(0) + " KB";
const ms = (x) => (x < 10 ? x.toFixed(1) : x.toFixed(0)) + " ms";
const rate = (x) => Math.round(x).toLocaleString("en-US");

const rows = [
  ["wasm, raw", (s) => s.wasmRaw, MB, "size"],
  ["wasm, gzip -9", (s) => s.wasmGzip, MB, "size"],
  ["JS, gzip -9", (s) => s.jsGzip, KB, "size"],
  ["import → ready¹", (s, r) => r.readyMs, ms],
  ["import → ready, warm²", (s, r) => r.warmReadyMs, ms],
  ["inserts/s, one per call⁴", (s, r) => r.insertsPerSec, rate, undefined, "insertsRatio"],
  ["point gets/s", (s, r) => r.getsPerSec, rate],
  ["1,000-entity queries/s", (s, r) => r.queriesPerSec, (x) => x.toFixed(1)],
  ["entities/s in those queries", (s, r) => r.queryEntitiesPerSec, rate],
  [`inserts/s, batches of ${BATCH}⁴`, (s, r) => r.batchedPerSec, rate, undefined, "batchedRatio"],
  [`reopen ${(defaults.big / 1000).toFixed(0)}k → first read, median⁵`, (s, r) => r.reopenMs, ms],
  ["the same, 95th percentile", (s, r) => r.reopenP95Ms, ms],
  ["longest main-thread stall then", (s, r) => r.reopenStallMs, ms],
  [`reopen after ${(defaults.updates / 1000).toFixed(0)}k random updates³, median⁵`, (s, r) => r.reopenLogMs, ms],
  ["the same, 95th percentile", (s, r) => r.reopenLogP95Ms, ms],
  ["longest main-thread stall then", (s, r) => r.reopenLogStallMs, ms],
];

/**
 * table renders { host: results } (results from runBench) as a Markdown table; sizes
 * default to the files on disk.
 */
export function table(hosts, sizes = measureSizes()) {
  const head = ["metric"];
  for (const host of Object.keys(hosts)) head.push(...engines.map(([, label]) => `${host}: ${label}`), `${host}: TT÷sql.js`, `${host}: TT÷Loki`, `${host}: TT IDB÷Dexie`, `${host}: TT IDB÷SQLite OPFS`);
  const lines = [row(head), row(head.map((_, i) => (i ? "---:" : "---")))];
  for (const [label, get, fmt, , sideRatio] of rows) {
    const cells = [label];
    for (const results of Object.values(hosts)) {
      const v = engines.map(([key, , kind]) => get(sizes[kind], results[key] ?? {}));
      // Timed side by side (harness.js sideBySide): the median of the rounds' ratios.
      const side = results["tabletop-idb"]?.[sideRatio];
      cells.push(...v.map((x) => (Number.isFinite(x) ? fmt(x) : "—")), ratio(v[0], v[2]), ratio(v[0], v[3]), Number.isFinite(side) ? `${times(side)}×` : ratio(v[1], v[4]), ratio(v[1], v[5]));
    }
    lines.push(row(cells));
  }
  return [...lines, "", notes].join("\n");
}

const row = (cells) => `| ${cells.join(" | ")} |`;
const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${times(a / b)}×` : "—");
const times = (x) => (x >= 100 ? Math.round(x).toLocaleString("en-US") : x.toPrecision(2));

const notes = `N = ${defaults.n.toLocaleString("en-US")} inserts one per call, then N point gets in random order (N = ${defaults.nPersistent.toLocaleString("en-US")} for Tabletop IDB, Dexie and SQLite (OPFS); Tabletop IDB, which answers them from its replica in memory, makes ${defaults.getsResident.toLocaleString("en-US")} gets of those N entities), then ${defaults.queries} queries each returning a partition of 1,000 entities; each rate is the median of ${ROUNDS} rounds, after an untimed pass over every workload (${WARM.toLocaleString("en-US")} inserts and gets, 3 queries) on a scratch store, the same for every engine, so that rates are those of code the browser has optimised. The durable engines then insert ${defaults.batches} batches of ${BATCH} (Tabletop: submitTransaction; Dexie: bulkAdd; SQLite (OPFS): one transaction), and reopen a store of ${defaults.big.toLocaleString("en-US")} entities to one point read, ${REOPENS} times, a 5 ms timer measuring the longest stall of the main thread meanwhile (the page idles for a second between filling the store and the first reopening, so that the garbage filling it left is collected first).
SQLite (OPFS), Chromium only, is durable like them: SQLite (@sqlite.org/sqlite-wasm) in a dedicated Worker on the opfs-sahpool VFS, the page calling it by postMessage, one answer per call (each insert its own transaction, a batch one, synchronous=FULL and the default journal_mode, DELETE); a table (pk, rk, body) WITHOUT ROWID whose body is the entity's JSON, which the page parses; its sizes are the package's sqlite3.wasm and its module unminified; its reopen closes and opens the database in the Worker, the engine loaded.
TT÷x is Tabletop in memory divided by x, TT IDB÷Dexie and TT IDB÷SQLite OPFS Tabletop in IndexedDB divided by Dexie or SQLite (OPFS): above 1× Tabletop is faster on rates, larger on sizes, slower on time.
¹ Tabletop mem: import of dist/tabletop.js, the module in one file as make web builds it (then fetching and compiling the wasm, and wasm_exec.js), to an open store with a table; Tabletop IDB: opening a persistent store, engine already loaded; sql.js: initSqlJs() (its JS already loaded by the page) to a Database with a table; LokiJS: new Loki() and addCollection; SQLite (OPFS): a new Worker (its module, the wasm, the opfs-sahpool VFS installed) to an open database with a table, answered to the page.
² Chromium only: the same for Tabletop mem and sql.js in the page reloaded after the benchmark (the median of 5 reloads), dist/tabletop.js revalidated from the browser's HTTP cache, the wasm read from the engine's copy in Cache Storage, and the module V8 compiled from it kept in the page's process.
Tabletop IDB and Dexie write every insert to IndexedDB (durability "strict") before it resolves; under Node that IndexedDB is fake-indexeddb, in memory.
³ The same store compacted after its fill (Tabletop), then ${defaults.updates.toLocaleString("en-US")} random entities replaced one per call, 1,000 calls at a time: Tabletop's log then holds about 3.8 MiB, just under the 4 MiB that makes it compact.
⁴ Where Tabletop IDB and Dexie both run, their durable inserts are timed again side by side, each on a fresh store, in ${SIDE_ROUNDS} rounds: a round is ${(defaults.nPersistent / SIDE_ROUNDS).toLocaleString("en-US")} inserts one per call and then ${(2 * defaults.batches) / SIDE_ROUNDS} batches of ${BATCH} on one engine, then the same on the other, which goes first in the next round; these rows give each engine's median round, and TT IDB÷Dexie is the median of the ${SIDE_ROUNDS} rounds' ratios, both engines having met the same disk and the same load.
⁵ Of the ${REOPENS} times the store is closed and opened again to a point read of another entity, in the same page.`;
