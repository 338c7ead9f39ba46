// make bench (edge part): the size of the worker's wasm, raw and gzip -9; the latency of
// the first request after a cold start of the local runtime (workerd), with an empty
// store and with a table of stored entities to rebuild; warm request latency, over HTTP
// and through a service binding from a second Worker (the RPC entrypoint); each beside
// the entry Worker's own floor (a request it answers alone, starting no object and no Go)
// measured in the same run. Needs `make worker` first; bench-start.mjs then says where
// a cold start's time goes. Usage: node bench.mjs [--runs 5] [--warm 300] [--rows 1000,10000]
// [--only size,cold,stored,warm,scattered,start] (the parts to run; all by default)
import { readFileSync, statSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { TableClient, generateTableSas } from "@azure/data-tables";
import { spawnSync } from "node:child_process";
import { build } from "esbuild";
import { startEdge, edgeDir, freePort } from "./runtime.mjs";
import { clients, tempDir, credential } from "./test/helpers.mjs";

const { values: opt } = parseArgs({
  options: {
    runs: { type: "string", default: "5" },
    warm: { type: "string", default: "300" },
    rows: { type: "string", default: "1000,10000" },
    only: { type: "string", default: "size,cold,stored,warm,scattered,start" },
  },
});
const ONLY = new Set(opt.only.split(","));
const RUNS = Number(opt.runs);
const WARM = Number(opt.warm);
const ROWS = opt.rows.split(",").map(Number).filter(Boolean);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const ms = (x) => `${x.toFixed(1)} ms`;
const mb = (n) => `${(n / 1e6).toFixed(2)} MB (${(n / 1048576).toFixed(2)} MiB)`;

// procStat is a process's minor page faults and CPU time (user + system, ms) so far, from
// /proc (Linux); null elsewhere.
function procStat(pid) {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return { faults: Number(f[7]), cpu: (Number(f[11]) + Number(f[12])) * 10 };
  } catch {
    return null;
  }
}

async function timed(fn) {
  const t0 = performance.now();
  const res = await fn();
  return [performance.now() - t0, res];
}

function sasFor(table) {
  return generateTableSas(table, credential, { permissions: { query: true, add: true, update: true }, expiresOn: new Date(Date.now() + 3600e3) });
}

async function get(url) {
  const res = await fetch(url, { headers: { accept: "application/json;odata=nometadata" } });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${body}`);
}

// seed fills a table with rows entities in batches of 100 (one partition per batch).
async function seed(url, table, rows) {
  const { service, table: tc } = clients(url);
  await service.createTable(table);
  const client = tc(table);
  for (let b = 0; b < rows / 100; b++) {
    const actions = Array.from({ length: 100 }, (_, i) => ["create", { partitionKey: `p${b}`, rowKey: `r${i}`, n: b * 100 + i, s: "some text of a typical entity" }]);
    await client.submitTransaction(actions);
  }
}

// coldEmpty: a fresh runtime, empty storage; the first request creates a table (account
// object's Go instance starts) and the next inserts an entity (a table object's starts).
async function coldEmpty() {
  const out = { listen: [], floor: [], createTable: [], firstInsert: [], faults: [], cpu: [] };
  for (let r = 0; r < RUNS; r++) {
    const tmp = tempDir();
    const edge = await startEdge({ persistDir: tmp.dir });
    try {
      out.listen.push(edge.readyAt - edge.startedAt);
      out.floor.push((await timed(() => fetch(`${edge.url}/__tabletop/ping`).then((r) => r.text())))[0]);
      const { service, table } = clients(edge.url);
      const before = procStat(edge.pid);
      out.createTable.push((await timed(() => service.createTable("Cold")))[0]);
      const after = procStat(edge.pid);
      if (before && after) {
        out.faults.push(after.faults - before.faults);
        out.cpu.push(after.cpu - before.cpu);
      }
      out.firstInsert.push((await timed(() => table("Cold").createEntity({ partitionKey: "p", rowKey: "r" })))[0]);
    } finally {
      await edge.stop();
      tmp.cleanup();
    }
  }
  return out;
}

// coldStored: a table of rows entities is written, the runtime stopped and started again;
// the first request, a point read, starts the table object's Go instance, which rebuilds
// the store from the object's storage.
async function coldStored(rows) {
  const tmp = tempDir();
  let edge = await startEdge({ persistDir: tmp.dir });
  await seed(edge.url, "Stored", rows);
  await edge.stop();
  const first = [];
  const floor = [];
  try {
    for (let r = 0; r < RUNS; r++) {
      edge = await startEdge({ persistDir: tmp.dir });
      const url = `${edge.url}/devstoreaccount1/Stored(PartitionKey='p0',RowKey='r7')?${sasFor("Stored")}`;
      floor.push((await timed(() => fetch(`${edge.url}/__tabletop/ping`).then((r) => r.text())))[0]);
      first.push((await timed(() => get(url)))[0]);
      await edge.stop();
    }
  } finally {
    await edge.stop();
    tmp.cleanup();
  }
  return { first, floor };
}

// warm: sequential point reads and upserts on a started table object, over HTTP, and
// point reads by a second Worker through its service binding (test/binding/user.mjs).
async function warm() {
  const tmp = tempDir();
  await build({
    entryPoints: [join(edgeDir, "test", "binding", "user.mjs")], outfile: join(edgeDir, "build", "dist", "binding-user.js"),
    bundle: true, format: "esm", platform: "neutral", logLevel: "warning",
  });
  const userPort = await freePort();
  const edge = await startEdge({ persistDir: tmp.dir, user: { module: "binding-user.js", port: userPort } });
  try {
    await seed(edge.url, "Warm", 1000);
    const sas = sasFor("Warm");
    const base = `${edge.url}/devstoreaccount1/Warm`;
    const reads = [];
    const writes = [];
    const pings = [];
    const bound = [];
    const userPings = [];
    for (let i = 0; i < WARM; i++) {
      userPings.push((await timed(() => fetch(`http://127.0.0.1:${userPort}/ping`).then((r) => r.text())))[0]);
      bound.push((await timed(async () => {
        const res = await fetch(`http://127.0.0.1:${userPort}/read/Warm/p${i % 10}/r${i % 100}`);
        if (res.status !== 200) throw new Error(`binding read: ${res.status} ${await res.text()}`);
      }))[0]);
      pings.push((await timed(() => fetch(`${edge.url}/__tabletop/ping`).then((r) => r.text())))[0]);
      reads.push((await timed(() => get(`${base}(PartitionKey='p${i % 10}',RowKey='r${i % 100}')?${sas}`)))[0]);
      writes.push((await timed(async () => {
        const res = await fetch(`${base}(PartitionKey='w',RowKey='r${i % 50}')?${sas}`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ n: i }) });
        if (res.status !== 204) throw new Error(`PUT: ${res.status} ${await res.text()}`);
      }))[0]);
    }
    const burnIn = Math.floor(WARM / 10); // the first requests still compile code
    const cut = (xs) => xs.slice(burnIn);
    return { reads: cut(reads), writes: cut(writes), pings: cut(pings), bound: cut(bound), userPings: cut(userPings) };
  } finally {
    await edge.stop();
    tmp.cleanup();
  }
}

if (ONLY.has("size")) {
  const wasm = readFileSync(join(edgeDir, "build", "app.wasm"));
  const gz = gzipSync(wasm, { level: 9 }).length;
  console.log(`edge: worker wasm ${mb(statSync(join(edgeDir, "build", "app.wasm")).size)} raw, ${mb(gz)} gzip -9   (target ≤ 1.5 MB gzip)`);
}
if (ONLY.has("cold")) {
  const c = await coldEmpty();
  const loadAndFirst = c.listen.map((l, i) => l + c.createTable[i]);
  console.log(`edge: cold start, empty storage (median of ${RUNS}): workerd listening ${ms(median(c.listen))} (its start, the script's load and warm-up included); floor, the entry Worker's first answer of its own ${ms(median(c.floor))}; first request (Create Table, account object starts Go) ${ms(median(c.createTable))}; first insert (table object starts Go) ${ms(median(c.firstInsert))}   (target ≤ 50 ms)`);
  console.log(`edge: cold start, workerd's start and its first request together (for a start the request waits for) ${ms(median(loadAndFirst))}`);
  if (c.faults.length) console.log(`edge: cold start, during that first request workerd took ${median(c.faults)} minor page faults and ${median(c.cpu)} ms of CPU (all its threads; /proc's 10 ms ticks)`);
}
for (const rows of ONLY.has("stored") ? ROWS : []) {
  const f = await coldStored(rows);
  console.log(`edge: cold start, table of ${rows} entities stored (median of ${RUNS}): floor ${ms(median(f.floor))}; first point read ${ms(median(f.first))} (min ${ms(Math.min(...f.first))})`);
}
if (ONLY.has("warm")) {
  const w = await warm();
  console.log(`edge: warm, ${w.reads.length} sequential requests: point read median ${ms(median(w.reads))} p90 ${ms(pct(w.reads, 0.9))}; upsert median ${ms(median(w.writes))} p90 ${ms(pct(w.writes, 0.9))}; floor (the entry Worker alone: no object, no Go) median ${ms(median(w.pings))}   (target ≤ 1.5 ms point read)`);
  console.log(`edge: warm, through a service binding from a second Worker: point read median ${ms(median(w.bound))} p90 ${ms(pct(w.bound, 0.9))}; floor (that Worker alone) median ${ms(median(w.userPings))}`);
}

// scattered: upserts to random entities of a 10,000-entity table, each on its own page of
// the object's storage more often than not: what compacting the pages a log touched
// costs the writes (their slowest), beside their median.
async function scattered() {
  const tmp = tempDir();
  const edge = await startEdge({ persistDir: tmp.dir });
  try {
    await seed(edge.url, "Scattered", 10000);
    const client = clients(edge.url).table("Scattered");
    let x = 12345;
    const random = (n) => ((x = (x * 1103515245 + 12345) % 2147483648), x % n);
    const times = [];
    for (let i = 0; i < 2000; i++) {
      const entity = { partitionKey: `p${random(100)}`, rowKey: `r${random(100)}`, n: i, s: "some updated text of an entity" };
      times.push((await timed(() => client.upsertEntity(entity, "Replace")))[0]);
    }
    return times;
  } finally {
    await edge.stop();
    tmp.cleanup();
  }
}

if (ONLY.has("scattered")) {
  const t = await scattered();
  console.log(`edge: ${t.length} upserts to random entities of 10,000: total ${ms(t.reduce((a, b) => a + b, 0))}; median ${ms(median(t))} p99 ${ms(pct(t, 0.99))} max ${ms(Math.max(...t))}`);
}

// Where a cold start's time goes: bench-start.mjs, with V8's lazy wasm compilation (the
// default, as on Cloudflare) and without it.
for (const flags of ONLY.has("start") ? [[], ["--no-wasm-lazy-compilation"]] : []) {
  const res = spawnSync(process.execPath, [...flags, join(edgeDir, "bench-start.mjs")], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  if (res.status !== 0) throw new Error(`bench-start.mjs ${flags.join(" ")} failed`);
  process.stdout.write(res.stdout.replace(/^(?=.)/gm, "edge: "));
}
