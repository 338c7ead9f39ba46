// `node bench/rounds.js`: point gets and 1,000-entity queries of Tabletop in memory and of
// sql.js, in Debian's Chromium (playwright-core), timed in short rounds that alternate
// between the two engines in one page, so that the load of a busy machine falls on both
// alike. The same store and workloads as harness.js (10,000 entities of its generator,
// gets of random keys checked as the harness checks them, a query per partition through
// listEntities().byPage()); dist/tabletop.js, as the harness loads it. It prints, per
// call, the best round, the first quartile and the median for each engine, and
// sql.js ÷ Tabletop for each: on a shared machine the best round is the steadiest
// measure, the median the one the harness's rates are closest to. --rounds=N (60 by
// default; the first 10 are not counted, the page's code still being optimised).
import { entity, pk, rk, random, sqlJsEngine, PARTITION } from "./harness.js";

/** N is the number of entities in each engine's store. */
const N = 10000;

/** GETS and QUERIES are the calls per round of each kind, per engine. */
const GETS = 500, QUERIES = 2;

/** SKIP is how many first rounds are left out of the figures. */
const SKIP = 10;

/**
 * runRounds fills both engines, runs the rounds and logs the figures: T is the Tabletop
 * module, env gives initSqlJs and sqlJsConfig as harness.js takes them.
 */
export async function runRounds(T, env, rounds, log) {
  const store = await T.openStore(`rounds${Date.now().toString(36)}`, { inMemory: true });
  const client = new T.TableClient(store, "Bench");
  await client.createTable();
  for (let i = 0; i < N; i++) await client.createEntity(entity(i));
  const sql = sqlJsEngine(env);
  await sql.open();
  for (let i = 0; i < N; i++) sql.insert(entity(i));
  const engines = {
    Tabletop: { get: (p, r) => client.getEntity(p, r), partition: (p) => client.listEntities({ queryOptions: { filter: T.odata`PartitionKey eq ${p}` } }).byPage({ maxPageSize: PARTITION }).next().then((r) => r.value) },
    "sql.js": { get: (p, r) => sql.get(p, r), partition: (p) => sql.partition(p) },
  };
  const times = {};
  for (const [name, e] of Object.entries(engines)) {
    const rnd = random(42);
    e.gets = async () => {
      for (let k = 0; k < GETS; k++) {
        const i = Math.floor(rnd() * N);
        const got = await e.get(pk(i), rk(i));
        if (got?.n !== i || got.name !== `user ${i}`) throw new Error(`rounds: ${name} get ${i} returned ${JSON.stringify(got)}`);
      }
    };
    e.queries = async (round) => {
      for (let k = 0; k < QUERIES; k++) {
        const part = (round * QUERIES + k) % (N / PARTITION);
        const rows = await e.partition(pk(part * PARTITION));
        if (rows.length !== PARTITION || rows[PARTITION - 1].n !== (part + 1) * PARTITION - 1) throw new Error(`rounds: ${name} partition ${part} returned ${rows.length} rows`);
      }
    };
    times[name] = { get: [], query: [] };
  }
  for (let round = 0; round < rounds; round++) {
    for (const [name, e] of Object.entries(engines)) {
      let t = performance.now();
      await e.gets();
      times[name].get.push(((performance.now() - t) * 1000) / GETS);
      t = performance.now();
      await e.queries(round);
      times[name].query.push(((performance.now() - t) * 1000) / QUERIES);
    }
  }
  sql.close();
  await store.close();
  for (const kind of ["get", "query"]) {
    const [tt, sq] = ["Tabletop", "sql.js"].map((name) => figures(times[name][kind].slice(SKIP)));
    const show = (f) => f.map((x) => x.toFixed(kind === "get" ? 2 : 0)).join(" / ");
    log(`${kind} µs (best / q1 / median): Tabletop ${show(tt)}   sql.js ${show(sq)}   sql.js ÷ Tabletop ${sq.map((x, i) => (x / tt[i]).toFixed(2)).join(" / ")}`);
  }
}

/** figures returns the best, first-quartile and median of per-call times. */
function figures(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return [s[0], s[s.length >> 2], s[s.length >> 1]];
}

if (typeof window === "undefined" && import.meta.url === `file://${process.argv[1]}`) {
  const rounds = Number(process.argv.find((a) => a.startsWith("--rounds="))?.slice(9) ?? 60);
  if (!(rounds > SKIP)) throw new Error(`bench/rounds.js: --rounds must be more than ${SKIP}`);
  const { onBenchPage } = await import("./page.js");
  await onBenchPage((page) =>
    page.evaluate(async (rounds) => {
      const url = (m) => new URL(m, location.href).href;
      const [T, r] = await Promise.all(["../dist/tabletop.js", "./rounds.js"].map((m) => import(url(m))));
      const sqlJsConfig = { locateFile: (f) => url(`../node_modules/sql.js/dist/${f}`) };
      await r.runRounds(T, { initSqlJs: window.initSqlJs, sqlJsConfig }, rounds, console.log);
    }, rounds),
  );
}
