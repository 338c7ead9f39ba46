// The page's half of memory.js: in a page of the bench's origin, fill a store of one
// engine with n entities, or read it all once with the long tasks listed. Engines:
// "tabletop" (a persistent store of dist/tabletop.js, in IndexedDB), "dexie" (Dexie 4,
// durability "strict") and "sqlite-opfs" (SQLite in a Worker on opfs-sahpool,
// sqlite-worker.js). memory.js calls fill and read through page.evaluate.
import { startSqlite } from "./sqlite-client.js";

/** STORE names the store (database) every engine fills and reads. */
const STORE = "memory";

/** TABLE names Tabletop's table. */
const TABLE = "things";

/** CHUNK is the entities one fill call writes: a Dexie bulkAdd, a SQLite transaction, a Tabletop import. */
const CHUNK = 10000;

/** PAGE is the entities a read asks for at a time (Tabletop's listEntities pages hold 1,000). */
const PAGE = 1000;

/** TX is the most actions Azure (and Tabletop) allows in one transaction. */
const TX = 100;

/** entity is the i-th entity: about 200 bytes as JSON, 100 partitions of interleaved runs of 1,000. */
export const entity = (i) => ({ partitionKey: pk(i), rowKey: rk(i), name: "x".repeat(120), n: i, ok: true });

/** pk is entity i's PartitionKey. */
const pk = (i) => `p${Math.floor(i / 1000) % 100}`;

/** rk is entity i's RowKey. */
const rk = (i) => String(i).padStart(7, "0");

/**
 * engines: per name, { load() (the engine's code, untimed), open(), fill(es) (one chunk,
 * durable once it resolves), read(visit) (every entity, in key order), update(e) (replace
 * one entity, durable once it resolves), close() }.
 */
const engines = { tabletop: tabletopEngine, dexie: dexieEngine, "sqlite-opfs": sqliteEngine };

/**
 * tabletopEngine fills with importTable, a chunk a call: the module's bulk path (one
 * engine call and one commit for CHUNK entities). With mode "transactions" it submits
 * the chunk as transactions of TX instead, all in flight at once, which Tabletop commits
 * together. It reads with listEntities, as an app lists a table.
 */
function tabletopEngine(mode = "import", cacheBytes = undefined) {
  let T, store, client;
  return {
    async load() {
      T = await import("/dist/tabletop.js");
      await T.loadEngine();
    },
    async open() {
      store = await T.openStore(STORE, { cacheBytes });
      client = new T.TableClient(store, TABLE);
      await client.createTable();
    },
    async fill(es) {
      if (mode === "import") return client.importTable(dump(es));
      const txs = [];
      for (let i = 0; i < es.length; i += TX) txs.push(client.submitTransaction(es.slice(i, i + TX).map((e) => ["create", e])));
      await Promise.all(txs);
    },
    async read(visit) {
      for await (const e of client.listEntities()) visit(e);
    },
    update: (e) => client.upsertEntity(e, "Replace"),
    close: () => store.close(),
    // The engine's wasm memory, which never shrinks, and its live heap (after a collection).
    engineMemory: () => ({ wasm: store._engine._x.mem.buffer.byteLength, live: Number(store._exec("heapBytes", []).json) }),
  };
}

/** dump writes entities as a Tabletop dump (format version 1) of one table, n typed Int32 as the API would store it. */
function dump(es) {
  const lines = [JSON.stringify({ format: "tabletop-dump", version: 1, table: TABLE })];
  for (const e of es) lines.push(JSON.stringify({ PartitionKey: e.partitionKey, RowKey: e.rowKey, name: e.name, "n@odata.type": "Edm.Int32", n: e.n, ok: e.ok }));
  return lines.join("\n") + "\n";
}

/**
 * dexieEngine is Dexie 4 as its documentation shows, durability "strict" like Tabletop's:
 * a table keyed [partitionKey+rowKey], filled with bulkAdd, read in pages with toArray.
 */
function dexieEngine() {
  let db, t;
  return {
    async load() {
      if (!globalThis.Dexie) await script("/node_modules/dexie/dist/dexie.min.js");
    },
    async open() {
      db = new Dexie(STORE, { chromeTransactionDurability: "strict" });
      db.version(1).stores({ t: "[partitionKey+rowKey]" });
      await db.open();
      t = db.table("t");
    },
    fill: (es) => t.bulkAdd(es),
    async read(visit) {
      for (let last; ; ) {
        const rows = await (last ? t.where("[partitionKey+rowKey]").above(last) : t.toCollection()).limit(PAGE).toArray();
        rows.forEach(visit);
        if (rows.length < PAGE) return;
        const end = rows[rows.length - 1];
        last = [end.partitionKey, end.rowKey];
      }
    },
    update: (e) => t.put(e),
    close: () => db.close(),
  };
}

/** script loads a classic script (Dexie's UMD build) into the page. */
function script(src) {
  return new Promise((resolve, reject) => {
    const s = Object.assign(document.createElement("script"), { src, onload: resolve, onerror: () => reject(new Error(`${src} did not load`)) });
    document.head.append(s);
  });
}

/**
 * sqliteEngine is SQLite on opfs-sahpool in a Worker (sqlite-worker.js), a message per
 * call: a chunk is one transaction, a read asks for PAGE entities after the last key,
 * the page parsing the JSON text the Worker answers.
 */
function sqliteEngine() {
  let sqlite;
  return {
    async load() {
      sqlite = startSqlite("/bench/sqlite-worker.js");
      await sqlite.call("install");
    },
    open: () => sqlite.call("open", STORE),
    fill: (es) => sqlite.call("insertBatch", es),
    async read(visit) {
      for (let last; ; ) {
        const rows = JSON.parse(await sqlite.call("scan", last, PAGE));
        rows.forEach(visit);
        if (rows.length < PAGE) return;
        const end = rows[rows.length - 1];
        last = [end.partitionKey, end.rowKey];
      }
    },
    update: (e) => sqlite.call("update", e),
    async close() {
      await sqlite.call("close", false);
      sqlite.terminate();
    },
  };
}

/**
 * fill opens engine name's store, writes entities 0 … n-1 in CHUNKs and closes it,
 * resolving with the milliseconds from open to closed (the code loaded before).
 */
export async function fill(name, n, mode, cacheBytes) {
  const engine = engines[name](mode, cacheBytes);
  await engine.load();
  const start = performance.now();
  await engine.open();
  for (let i = 0; i < n; i += CHUNK) await engine.fill(Array.from({ length: Math.min(CHUNK, n - i) }, (_, k) => entity(i + k)));
  await engine.close();
  return performance.now() - start;
}

/** loaded is the engine load() made ready in this page, for read. */
let loaded;

/** load loads engine name's code in this page (its wasm compiled, its Worker started), untimed: memory.js measures the page then. */
export async function load(name, cacheBytes) {
  loaded = engines[name](undefined, cacheBytes);
  await loaded.load();
}

/**
 * read opens the store of the engine load() made ready and reads every entity once while
 * a PerformanceObserver lists the main thread's long tasks (over 50 ms). Every entity
 * must come once and whole, or it throws; then it writes one entity again (update). The
 * store stays open (the page holds it, as a tab that has read it does). Resolves with {
 * ms (open to last entity), writeMs (the write), tasks: the long tasks of the read and
 * the write, longest first, as { ms: duration, at: start from the open } }.
 */
export async function read(name, n) {
  const engine = loaded;
  const tasks = [];
  let start;
  const observer = new PerformanceObserver((list) => tasks.push(...list.getEntries().map((e) => ({ ms: e.duration, at: e.startTime - start }))));
  observer.observe({ type: "longtask" });
  const seen = new Uint8Array(n);
  let count = 0;
  start = performance.now();
  await engine.open();
  await engine.read((e) => {
    const i = e.n;
    if (!(i >= 0 && i < n) || seen[i] || e.rowKey !== rk(i) || e.partitionKey !== pk(i) || e.name.length !== 120 || e.ok !== true) throw new Error(`${name}: read ${JSON.stringify(e).slice(0, 200)}`);
    seen[i] = 1;
    count++;
  });
  const ms = performance.now() - start;
  if (count !== n) throw new Error(`${name}: read ${count} entities of ${n}`);
  // Then one write, the same entity again: a store of any size must take writes too.
  const written = performance.now();
  await engine.update(entity(n >> 1));
  const writeMs = performance.now() - written;
  await new Promise((r) => setTimeout(r, 100)); // the observer's last entries
  observer.disconnect();
  return { ms, writeMs, tasks: tasks.sort((a, b) => b.ms - a.ms) };
}

/** engineMemory reports the engine's own memory after a read ({ wasm, live } bytes), null for an engine that does not tell. */
export function engineMemory() {
  return loaded.engineMemory?.() ?? null;
}

/** open loads engine name's code and opens its store, held open; it throws where the engine cannot. */
export async function open(name) {
  await load(name);
  await loaded.open();
}

/** spin keeps the page's main thread busy for ms, so that memory.js can tell its renderer process by CPU time. */
export function spin(ms) {
  const end = performance.now() + ms;
  while (performance.now() < end);
}
