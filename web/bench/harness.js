// The browser benchmark's workloads, identical for every engine and host: N inserts one
// per call, N point gets by key in random order, and R queries that each return one
// partition of 1,000 entities. Tabletop runs through its public JS API (in memory, and
// persistent in IndexedDB); sql.js and LokiJS, keeping their data in memory, Dexie 4
// (IndexedDB, durability "strict" like Tabletop's), and in a browser SQLite on OPFS (in a
// Worker, the page calling it by postMessage), do the same work. The durable engines
// also insert in batches of 100, and reopen a store of `big` entities to its first point
// read while a 5 ms heartbeat timer measures the longest main-thread stall. Every workload
// checks what it got, so a broken engine fails instead of scoring.
//
// runBench(env) resolves with { engine: { metric: number } }; the hosts (node.js,
// browser.js) supply the engines in env and add the sizes of what each engine ships.
import { startSqlite } from "./sqlite-client.js";

/** PARTITION is the number of entities per partition, and so per query. */
export const PARTITION = 1000;

/**
 * defaults are the workload sizes: per-call durability makes persistent inserts slow.
 * getsResident is the number of point gets for Tabletop in IndexedDB, which reads from its
 * replica in memory: microseconds a get, so that nPersistent of them would make rounds
 * of a millisecond or two, at the mercy of one garbage collection or timer.
 */
export const defaults = { n: 10000, nPersistent: 2000, getsResident: 20000, queries: 100, batches: 50, big: 100000, updates: 24000 };

/** BATCH is the number of entities per batched insert. */
export const BATCH = 100;

/**
 * runBench runs every workload on every engine. env: { tabletopUrl (string for import()),
 * initSqlJs, sqlJsConfig, Loki, Dexie, sqliteWorkerUrl (a browser's: sqlite-worker.js;
 * without it no SQLite-OPFS), n, nPersistent, queries, batches, big, log, only (engine
 * names to run, all by default) }.
 * @returns {Promise<Record<string, Record<string, number>>>}
 */
export async function runBench(env) {
  const opts = { ...defaults, ...env };
  const log = opts.log ?? (() => {});
  const out = {};
  const engines = [
    ["tabletop-memory", tabletopEngine(opts, { inMemory: true })],
    ["tabletop-idb", tabletopEngine(opts, {})],
    ["sqljs", sqlJsEngine(opts)],
    ["loki", lokiEngine(opts)],
    ["dexie", dexieEngine(opts)],
    ["sqlite-opfs", opts.sqliteWorkerUrl && sqliteOpfsEngine(opts)],
  ].filter(([name, engine]) => engine && (!opts.only || opts.only.includes(name)));
  for (const [name, engine] of engines) {
    const n = engine.durable ? opts.nPersistent : opts.n;
    log(`${name}: n=${n}, ${opts.queries} queries of ${PARTITION}`);
    out[name] = await workloads(engine, n, opts);
    if (engine.durable && opts.big > 0) {
      log(`${name}: reopening ${opts.big} entities`);
      Object.assign(out[name], await reopen(engine, opts.big));
      if (opts.updates > 0) {
        log(`${name}: reopening ${opts.big} entities after ${opts.updates} random updates`);
        Object.assign(out[name], await reopen(engine, opts.big, opts.updates));
      }
    }
  }
  const [tt, dexie] = ["tabletop-idb", "dexie"].map((k) => engines.find(([name]) => name === k)?.[1]);
  if (tt && dexie) {
    log(`tabletop-idb and dexie: side by side, ${SIDE_ROUNDS} rounds`);
    const side = await sideBySide(tt, dexie, opts);
    log(`side by side, per round (inserts/s; batched/s): ${JSON.stringify(side.rounds)}`);
    Object.assign(out["tabletop-idb"], side.a);
    Object.assign(out.dexie, side.b);
  }
  return out;
}

/** SIDE_ROUNDS is the number of rounds in which sideBySide alternates its two engines. */
export const SIDE_ROUNDS = 20;

/**
 * sideBySide times the durable writes of engines a and b (Tabletop and Dexie) in turn,
 * in SIDE_ROUNDS rounds, each on a fresh store: a round runs nPersistent / SIDE_ROUNDS
 * inserts one per call, then 2 × batches / SIDE_ROUNDS batches of BATCH, on one engine
 * and then on the other, which goes first in the next round. Both see the same disk and
 * the same load from the rest of the machine, which moves a strict insert's rate by half
 * from one minute to the next; a ratio is the median of the rounds' ratios. It resolves
 * with each engine's median rates and a's ratios: { a: { insertsPerSec, insertsRatio,
 * batchedPerSec, batchedRatio }, b: { insertsPerSec, batchedPerSec }, rounds: [a's, b's] }.
 */
async function sideBySide(a, b, { nPersistent, batches }) {
  const inserts = Math.max(1, Math.floor(nPersistent / SIDE_ROUNDS));
  const perRound = Math.max(1, Math.floor((2 * batches) / SIDE_ROUNDS));
  const base = (Math.ceil(inserts / PARTITION) + 1) * PARTITION;
  const rates = new Map([a, b].map((e) => [e, { inserts: [], batched: [] }]));
  for (const e of [a, b]) await e.open("side");
  try {
    for (let round = 0; round < SIDE_ROUNDS; round++) {
      for (const e of round % 2 ? [b, a] : [a, b]) {
        const r = rates.get(e);
        const from = round * inserts;
        let t = performance.now();
        for (let i = from; i < from + inserts; i++) await e.insert(entity(i));
        r.inserts.push(inserts / ((performance.now() - t) / 1000));
        t = performance.now();
        for (let j = round * perRound; j < (round + 1) * perRound; j++) await e.insertBatch(Array.from({ length: BATCH }, (_, k) => entity(base + j * BATCH + k)), BATCH);
        r.batched.push((perRound * BATCH) / ((performance.now() - t) / 1000));
      }
    }
  } finally {
    for (const e of [a, b]) await e.close(true);
  }
  const [ra, rb] = [rates.get(a), rates.get(b)];
  const ratios = (x, y) => median(x.map((v, i) => v / y[i]));
  return {
    a: { insertsPerSec: median(ra.inserts), insertsRatio: ratios(ra.inserts, rb.inserts), batchedPerSec: median(ra.batched), batchedRatio: ratios(ra.batched, rb.batched) },
    b: { insertsPerSec: median(rb.inserts), batchedPerSec: median(rb.batched) },
    rounds: [ra, rb].map((r) => ({ inserts: r.inserts.map(Math.round), batched: r.batched.map(Math.round) })),
  };
}

/** percentile returns the p-th (0 to 1) of numbers: the least that at least p of them are at or under. */
function percentile(xs, p) {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)];
}

/** median returns the median of numbers (the upper one of an even count's middle two). */
function median(xs) {
  return [...xs].sort((x, y) => x - y)[xs.length >> 1];
}

/**
 * warmReady times import → ready again for the engines that load wasm, in a page loaded
 * after the benchmark's (browser.js reloads it): the module comes from the browser's cache,
 * with the code the browser compiled and kept. Same env as runBench.
 * @returns {Promise<Record<string, { warmReadyMs: number }>>}
 */
export async function warmReady(env) {
  const opts = { ...defaults, ...env };
  const out = {};
  for (const [name, engine] of [["tabletop-memory", tabletopEngine(opts, { inMemory: true })], ["sqljs", sqlJsEngine(opts)]]) {
    const t = performance.now();
    await engine.open();
    out[name] = { warmReadyMs: performance.now() - t };
    await engine.close(true);
  }
  return out;
}

/**
 * reopen fills a fresh store with big entities in batches, closes it, and times opening
 * it again to its first point read, REOPENS times (a different entity each time), with the
 * longest stall of a 5 ms heartbeat timer (the main thread blocked) while it does; it
 * returns the median and the 95th percentile of those times and the longest stall.
 * Before the first reopening the page idles for SETTLE_MS: V8 collects the garbage that
 * filling the store in this page left then, which would otherwise stall the timed open
 * (120 ms measured with Tabletop in Chromium; a store reopened in a page just loaded has
 * none); REOPEN_SETTLE_MS between the others. With updates, the store is compacted after
 * the fill (where the engine compacts) and then updates random entities one per call,
 * 1,000 calls at a time, before it is closed: for Tabletop a log just under the size that
 * makes it compact (about 3.8 MiB, 24,000 records), which open must not have to read.
 */
async function reopen(engine, big, updates = 0) {
  await engine.open("big");
  for (let i = 0; i < big; i += 1000) await engine.insertBatch(Array.from({ length: Math.min(1000, big - i) }, (_, k) => entity(i + k)), 1000);
  if (updates > 0) {
    await engine.compact?.();
    const rnd = random(7);
    for (let u = 0; u < updates; u += 1000) {
      await Promise.all(Array.from({ length: Math.min(1000, updates - u) }, () => engine.update(entity(Math.floor(rnd() * big)))));
    }
  }
  const times = [];
  let stall = 0;
  for (let r = 0; r < REOPENS; r++) {
    await engine.close(false);
    await new Promise((res) => setTimeout(res, r === 0 ? SETTLE_MS : REOPEN_SETTLE_MS));
    let last = performance.now();
    const beat = setInterval(() => {
      const now = performance.now();
      stall = Math.max(stall, now - last);
      last = now;
    }, 5);
    const t = performance.now();
    await engine.open("big");
    const i = (Math.floor(big / 2) + 7 + r * 4999) % big;
    const e = await engine.get(pk(i), rk(i));
    times.push(performance.now() - t);
    await new Promise((res) => setTimeout(res, 10));
    clearInterval(beat);
    if (e?.n !== i) throw new Error(`${engine.name}: after reopening, get ${i} returned ${JSON.stringify(e)}`);
  }
  await engine.close(true);
  const [ms, p95] = [median(times), percentile(times, 0.95)];
  return updates > 0 ? { reopenLogMs: ms, reopenLogP95Ms: p95, reopenLogStallMs: stall } : { reopenMs: ms, reopenP95Ms: p95, reopenStallMs: stall };
}

/** SETTLE_MS is how long the page idles between filling a store and timing its reopening. */
const SETTLE_MS = 1000;
/** REOPENS is how many times reopen times it; REOPEN_SETTLE_MS the idle between two. */
export const REOPENS = 20;
const REOPEN_SETTLE_MS = 200;

/** ROUNDS splits each timed workload; a rate is the median round's, steadier on a busy machine. */
export const ROUNDS = 5;

/**
 * WARM is the size of the untimed pass every engine makes first, on a scratch store, over
 * every workload: a page's first calls run code the browser has not optimised yet (V8
 * compiles wasm and JavaScript in tiers, the optimising tier on background threads), which
 * for a large wasm like Tabletop's takes thousands of calls, and longer on a busy machine.
 */
export const WARM = PARTITION;

/** warmUp runs every workload once, untimed, on a scratch store, and drops it. */
async function warmUp(engine) {
  for (let i = 0; i < WARM; i++) await engine.insert(entity(i));
  for (let i = 0; i < WARM; i++) await engine.get(pk(i), rk(i));
  for (let q = 0; q < 3; q++) await engine.partition(pk(0));
  if (engine.durable) await engine.insertBatch(Array.from({ length: BATCH }, (_, k) => entity(WARM + k)), BATCH);
  await engine.close(true);
}

/** workloads times open, inserts, point gets and partition queries on one engine. */
async function workloads(engine, n, { queries, batches, getsResident }) {
  const r = {};
  const t = performance.now();
  await engine.open("warm");
  r.readyMs = performance.now() - t;
  await warmUp(engine);
  await engine.open();
  r.insertsPerSec = await rate(n, (i) => engine.insert(entity(i)));
  const rnd = random(42);
  r.getsPerSec = await rate(engine.resident ? getsResident : n, async () => {
    const i = Math.floor(rnd() * n);
    const e = await engine.get(pk(i), rk(i));
    if (e?.n !== i || e.name !== `user ${i}`) throw new Error(`${engine.name}: get ${i} returned ${JSON.stringify(e)}`);
  });
  r.queriesPerSec = await rate(queries, async () => {
    const part = Math.floor(rnd() * (n / PARTITION));
    const rows = await engine.partition(pk(part * PARTITION));
    if (rows.length !== PARTITION || rows[PARTITION - 1].n !== (part + 1) * PARTITION - 1) throw new Error(`${engine.name}: partition ${part} returned ${rows.length} rows`);
  });
  r.queryEntitiesPerSec = r.queriesPerSec * PARTITION;
  if (engine.durable) {
    const base = (Math.ceil(n / PARTITION) + 1) * PARTITION;
    const batch = (j) => Array.from({ length: BATCH }, (_, k) => entity(base + j * BATCH + k));
    r.batchedPerSec = BATCH * (await rate(batches, (j) => engine.insertBatch(batch(j), BATCH)));
  }
  await engine.close(true);
  return r;
}

/** rate calls op(0 … count-1) in order, in ROUNDS timed rounds, and returns the median round's calls/s. */
async function rate(count, op) {
  const rates = [];
  for (let k = 0; k < ROUNDS; k++) {
    const [from, to] = [Math.floor((k * count) / ROUNDS), Math.floor(((k + 1) * count) / ROUNDS)];
    const t = performance.now();
    for (let i = from; i < to; i++) await op(i);
    rates.push((to - from) / ((performance.now() - t) / 1000));
  }
  return median(rates);
}

/** entity i of the data set: partitions of PARTITION rows, four typed properties. */
export function entity(i) {
  return { partitionKey: pk(i), rowKey: rk(i), name: `user ${i}`, n: i, x: i / 7, flag: i % 2 === 0 };
}

/** pk is entity i's PartitionKey. */
export const pk = (i) => `p${String(Math.floor(i / PARTITION)).padStart(4, "0")}`;

/** rk is entity i's RowKey. */
export const rk = (i) => String(i).padStart(8, "0");

/** random is a small seeded generator (mulberry32), so every engine gets the same keys. */
export function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * tabletopEngine drives Tabletop's public API. Its open() is the first one timed, so for
 * tabletop-memory readyMs is import of the module (dist/tabletop.js, env.tabletopUrl) through a store with a table.
 */
function tabletopEngine({ tabletopUrl }, storeOptions) {
  let T, store, client, name;
  const prefix = `bench${Date.now().toString(36)}${storeOptions.inMemory ? "m" : "p"}`;
  return {
    name: storeOptions.inMemory ? "Tabletop (memory)" : "Tabletop (IndexedDB)",
    durable: !storeOptions.inMemory,
    resident: !storeOptions.inMemory, // durable, its reads answered from memory: getsResident of them
    async open(suffix = "") {
      T = await import(tabletopUrl);
      name = prefix + suffix;
      store = await T.openStore(name, storeOptions);
      client = new T.TableClient(store, "Bench");
      await client.createTable();
    },
    insert: (e) => client.createEntity(e),
    update: (e) => client.upsertEntity({ ...e, updated: true }, "Replace"),
    compact: () => store.compact(),
    async insertBatch(es, size) {
      const calls = [];
      for (let i = 0; i < es.length; i += BATCH) calls.push(client.submitTransaction(es.slice(i, i + BATCH).map((e) => ["create", e])));
      await Promise.all(calls);
    },
    get: (p, r) => client.getEntity(p, r),
    async partition(p) {
      const pages = client.listEntities({ queryOptions: { filter: T.odata`PartitionKey eq ${p}` } }).byPage({ maxPageSize: PARTITION });
      return (await pages.next()).value;
    },
    async close(drop) {
      await store.close();
      if (!storeOptions.inMemory && drop) await T.deleteStore(name);
    },
  };
}

/**
 * dexieEngine is Dexie 4 over IndexedDB, as its documentation shows: a table with the
 * compound primary key [partitionKey+rowKey], durability "strict" as Tabletop's default.
 */
function dexieEngine({ Dexie }) {
  let db, t, name;
  const prefix = `dexie${Date.now().toString(36)}`;
  const range = (p) => [[p, Dexie.minKey], [p, Dexie.maxKey]];
  return {
    name: "Dexie",
    durable: true,
    async open(suffix = "") {
      name = prefix + suffix;
      db = new Dexie(name, { chromeTransactionDurability: "strict" });
      db.version(1).stores({ t: "[partitionKey+rowKey]" });
      await db.open();
      t = db.table("t");
    },
    insert: (e) => t.add(e),
    update: (e) => t.put({ ...e, updated: true }),
    insertBatch: (es) => t.bulkAdd(es),
    get: (p, r) => t.get([p, r]),
    partition: (p) => t.where("[partitionKey+rowKey]").between(...range(p)).limit(PARTITION).toArray(),
    async close(drop) {
      db.close();
      if (drop) await Dexie.delete(name);
    },
  };
}

/**
 * sqliteOpfsEngine is SQLite in a dedicated Worker on the opfs-sahpool VFS
 * (sqlite-worker.js), a message and its answer per call: a table (pk, rk, body) WITHOUT
 * ROWID whose body is the entity's JSON, each insert its own transaction and a batch one,
 * synchronous=FULL so that an answered write is on disk like Tabletop's and Dexie's. The
 * Worker starts at the first open (readyMs: the wasm loaded, the VFS installed) and stays:
 * a reopen closes and opens the database in it, the engine loaded, as Tabletop's does.
 */
function sqliteOpfsEngine({ sqliteWorkerUrl, log = () => {} }) {
  let sqlite, name;
  const prefix = `sqlite${Date.now().toString(36)}`;
  return {
    name: "SQLite (OPFS)",
    durable: true,
    async open(suffix = "") {
      const first = !sqlite;
      sqlite ??= startSqlite(sqliteWorkerUrl);
      name = prefix + suffix;
      const { journalMode, synchronous } = await sqlite.call("open", name);
      if (synchronous !== 2) throw new Error(`SQLite (OPFS): synchronous is ${synchronous}, not FULL (2)`);
      if (first) log(`sqlite-opfs: journal_mode=${journalMode}, synchronous=FULL`);
    },
    insert: (e) => sqlite.call("insert", e),
    update: (e) => sqlite.call("update", { ...e, updated: true }),
    insertBatch: (es) => sqlite.call("insertBatch", es),
    async get(p, r) {
      const body = await sqlite.call("get", p, r);
      return body === undefined ? undefined : JSON.parse(body);
    },
    partition: async (p) => JSON.parse(await sqlite.call("partition", p, PARTITION)),
    close: (drop) => sqlite.call("close", drop),
  };
}

/** sqlJsEngine is SQLite (sql.js) with typed columns, a (pk, rk) primary key and prepared statements. */
export function sqlJsEngine({ initSqlJs, sqlJsConfig }) {
  let db, ins, get, part;
  const row = (o) => ({ partitionKey: o.pk, rowKey: o.rk, name: o.name, n: o.n, x: o.x, flag: o.flag === 1 });
  return {
    name: "sql.js",
    async open() {
      const SQL = await initSqlJs(sqlJsConfig);
      db = new SQL.Database();
      db.run("CREATE TABLE t (pk TEXT NOT NULL, rk TEXT NOT NULL, name TEXT, n INTEGER, x REAL, flag INTEGER, PRIMARY KEY (pk, rk)) WITHOUT ROWID");
      ins = db.prepare("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?)");
      get = db.prepare("SELECT * FROM t WHERE pk = ? AND rk = ?");
      part = db.prepare("SELECT * FROM t WHERE pk = ? ORDER BY rk LIMIT 1000");
    },
    insert: (e) => ins.run([e.partitionKey, e.rowKey, e.name, e.n, e.x, e.flag ? 1 : 0]),
    get(p, r) {
      get.bind([p, r]);
      const found = get.step() ? row(get.getAsObject()) : undefined;
      get.reset();
      return found;
    },
    partition(p) {
      part.bind([p]);
      const rows = [];
      while (part.step()) rows.push(row(part.getAsObject()));
      part.reset();
      return rows;
    },
    close() {
      [ins, get, part].forEach((s) => s.free());
      db.close();
    },
  };
}

/**
 * lokiEngine is a LokiJS collection with a unique index on pk+rk (one key field) and a
 * binary index on pk. Loki hands out its stored objects, uncopied.
 */
function lokiEngine({ Loki }) {
  let db, coll;
  return {
    name: "LokiJS",
    open() {
      db = new Loki("bench.db");
      coll = db.addCollection("t", { unique: ["key"], indices: ["partitionKey"] });
    },
    insert: (e) => coll.insert({ ...e, key: `${e.partitionKey}\u0000${e.rowKey}` }),
    get: (p, r) => coll.by("key", `${p}\u0000${r}`),
    partition: (p) => coll.chain().find({ partitionKey: p }).simplesort("rowKey").limit(PARTITION).data(),
    close: () => db.close(),
  };
}
