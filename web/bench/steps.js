// `node bench/steps.js`: where the time of one point read, and of one 1,000-entity query
// page, goes, step by step: the whole call as the harness times it (random keys made per
// call, awaited, checked) and through the public API, the store's synchronous read, the
// engine call, writing the request frame, Go's work with the crossing, reading the binary
// answer into the SDK's shape, and an empty call (the crossing alone). Under Node by
// default; with --chromium in Debian's Chromium (playwright-core), in the benchmark's page
// served from web/ on a free port of 127.0.0.1, where sql.js's point read and query are
// timed beside them, as the harness makes them, and the harness's loop alone (a read that
// answers at once). --dist loads dist/tabletop.js, the module the harness loads, in place
// of tabletop.js.
//
// Every step runs once untimed first (the browser optimises the code meanwhile), then
// each line is the best of 5 passes, in µs per call; the steps overlap (the engine call
// includes the three after it). runSteps is what runs in either place.
import { entity, pk, rk, random, sqlJsEngine, PARTITION } from "./harness.js";

/** N is the number of entities, and of point reads per pass. */
const N = 10000;

/** QUERIES is the number of 1,000-entity query pages per pass. */
const QUERIES = 50;

/**
 * runSteps times the steps with the module T (tabletop.js) and values (src/values.js),
 * logging a line per step, and resolves with { label: µs }. With env.initSqlJs (and
 * env.sqlJsConfig) it times sql.js too.
 */
export async function runSteps(T, values, env = {}, log = console.log) {
  const store = await T.openStore(`steps${Date.now().toString(36)}`, { inMemory: true });
  const client = new T.TableClient(store, "Bench");
  await client.createTable();
  for (let i = 0; i < N; i++) await client.createEntity(entity(i));
  let sql;
  if (env.initSqlJs) {
    sql = sqlJsEngine(env);
    await sql.open();
    for (let i = 0; i < N; i++) sql.insert(entity(i));
  }
  if (PARTITION > N) throw new Error("steps: fewer entities than a partition");
  const out = {};
  let warm = true;
  const time = async (label, count, op) => {
    let best = Infinity;
    for (let pass = 0; pass < (warm ? 1 : 5); pass++) {
      const t = performance.now();
      for (let i = 0; i < count; i++) {
        const r = op(i);
        if (r instanceof Promise) await r;
      }
      best = Math.min(best, ((performance.now() - t) * 1000) / count);
    }
    if (warm) return;
    out[label.trim()] = best;
    log(`${label.padEnd(46)} ${best.toFixed(2)} µs`);
  };
  for (const run of [true, false]) {
    warm = run;
    await steps(T, values, store, client, sql, time);
  }
  sql?.close();
  await store.close();
  return out;
}

/**
 * asHarness returns a harness-like timed operation over get(pk, rk): a random entity's
 * keys made per call, the read awaited and checked, as harness.js's workloads do.
 */
function asHarness(get) {
  const rnd = random(42);
  return async () => {
    const i = Math.floor(rnd() * N);
    const e = await get(pk(i), rk(i));
    if (e?.n !== i || e.name !== `user ${i}`) throw new Error(`steps: get ${i} returned ${JSON.stringify(e)}`);
  };
}

/** steps runs each step with time(label, count, op). */
async function steps(T, values, store, client, sql, time) {
  const keys = Array.from({ length: N }, (_, i) => {
    const e = entity((i * 7919) % N);
    return [e.partitionKey, e.rowKey];
  });
  const engine = store._engine, handle = store._handle, decode = values.entityAnswer();
  const args = (i) => ["getEntity", handle, "Bench", keys[i][0], keys[i][1], ""];
  if (sql) {
    const same = new Map(Array.from({ length: N }, (_, i) => [rk(i), entity(i)]));
    await time("the harness's loop alone", N, asHarness((_, r) => same.get(r)));
    await time("sql.js get, as the harness times it", N, asHarness((p, r) => sql.get(p, r)));
  }
  await time("getEntity, as the harness times it", N, asHarness((p, r) => client.getEntity(p, r)));
  await time("client.getEntity (awaited)", N, (i) => client.getEntity(keys[i][0], keys[i][1]));
  await time("store read, synchronous", N, (i) => store._readAs(decode, "getEntity", "Bench", keys[i][0], keys[i][1], ""));
  await time("engine call, answer read", N, (i) => engine.call(args(i), decode));
  await time("  request frame written", N, (i) => engine._write(args(i)));
  await time("  + Go's work and the crossing", N, (i) => engine._x.tabletop_call(engine._write(args(i))));
  const n = engine._x.tabletop_call(engine._write(args(0)));
  await time("  answer read into the SDK's shape", N, () => engine._read(n, false, decode));
  await time("crossing alone (an empty call)", N, () => engine.call(["close", "0"]));

  const page = values.pageAnswer();
  const part = (q) => pk((q % (N / PARTITION)) * PARTITION);
  const qargs = (q) => ["queryEntities", handle, "Bench", `PartitionKey eq '${part(q)}'`, "", String(PARTITION), "", ""];
  const rows = (q, got) => {
    if (got.length !== PARTITION) throw new Error(`steps: query ${q} returned ${got.length} rows`);
  };
  if (sql) await time("sql.js query of 1,000", QUERIES, (q) => rows(q, sql.partition(part(q))));
  await time("query page of 1,000 (byPage, awaited)", QUERIES, async (q) => {
    const pages = client.listEntities({ queryOptions: { filter: T.odata`PartitionKey eq ${part(q)}` } }).byPage({ maxPageSize: PARTITION });
    rows(q, (await pages.next()).value);
  });
  await time("query engine call, page read", QUERIES, (q) => engine.call(qargs(q), page));
  await time("  + Go's work and the crossing", QUERIES, (q) => engine._x.tabletop_call(engine._write(qargs(q))));
  const qn = engine._x.tabletop_call(engine._write(qargs(0)));
  await time("  page read into the SDK's shape", QUERIES, () => engine._read(qn, false, page));
}

/** stepsChromium runs runSteps in a fresh headless Chromium and resolves with its results. */
async function stepsChromium(dist) {
  const { onBenchPage } = await import("./page.js");
  return onBenchPage((page) =>
    page.evaluate(async (module) => {
      const url = (m) => new URL(m, location.href).href;
      const [T, values, steps] = await Promise.all([module, "../src/values.js", "./steps.js"].map((m) => import(url(m))));
      const sqlJsConfig = { locateFile: (f) => url(`../node_modules/sql.js/dist/${f}`) };
      return steps.runSteps(T, values, { initSqlJs: window.initSqlJs, sqlJsConfig });
    }, dist ? "../dist/tabletop.js" : "../tabletop.js"),
  );
}

if (typeof window === "undefined" && import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes("--chromium")) await stepsChromium(process.argv.includes("--dist"));
  else await runSteps(await import("../tabletop.js"), await import("../src/values.js"));
}
