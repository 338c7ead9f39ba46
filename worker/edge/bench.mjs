// make bench (edge part): the size of the worker's wasm, raw and gzip -9; the latency of
// the first request after a cold start of the local runtime (workerd), with an empty
// store and with a table of stored entities to rebuild; and warm request latency. Needs
// `make worker` first. Usage: node bench.mjs [--runs 5] [--warm 300] [--rows 1000,10000]
import { readFileSync, statSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { TableClient, generateTableSas } from "@azure/data-tables";
import { startEdge, edgeDir } from "./runtime.mjs";
import { clients, tempDir, credential } from "./test/helpers.mjs";

const { values: opt } = parseArgs({
  options: { runs: { type: "string", default: "5" }, warm: { type: "string", default: "300" }, rows: { type: "string", default: "1000,10000" } },
});
const RUNS = Number(opt.runs);
const WARM = Number(opt.warm);
const ROWS = opt.rows.split(",").map(Number).filter(Boolean);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const ms = (x) => `${x.toFixed(1)} ms`;
const mb = (n) => `${(n / 1e6).toFixed(2)} MB (${(n / 1048576).toFixed(2)} MiB)`;

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
  const out = { listen: [], createTable: [], firstInsert: [] };
  for (let r = 0; r < RUNS; r++) {
    const tmp = tempDir();
    const edge = await startEdge({ persistDir: tmp.dir });
    try {
      out.listen.push(edge.readyAt - edge.startedAt);
      const { service, table } = clients(edge.url);
      out.createTable.push((await timed(() => service.createTable("Cold")))[0]);
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
  try {
    for (let r = 0; r < RUNS; r++) {
      edge = await startEdge({ persistDir: tmp.dir });
      const url = `${edge.url}/devstoreaccount1/Stored(PartitionKey='p0',RowKey='r7')?${sasFor("Stored")}`;
      first.push((await timed(() => get(url)))[0]);
      await edge.stop();
    }
  } finally {
    await edge.stop();
    tmp.cleanup();
  }
  return first;
}

// warm: sequential point reads and upserts on a started table object.
async function warm() {
  const tmp = tempDir();
  const edge = await startEdge({ persistDir: tmp.dir });
  try {
    await seed(edge.url, "Warm", 1000);
    const sas = sasFor("Warm");
    const base = `${edge.url}/devstoreaccount1/Warm`;
    const reads = [];
    const writes = [];
    const pings = [];
    for (let i = 0; i < WARM; i++) {
      pings.push((await timed(() => fetch(`${edge.url}/__tabletop/ping`).then((r) => r.text())))[0]);
      reads.push((await timed(() => get(`${base}(PartitionKey='p${i % 10}',RowKey='r${i % 100}')?${sas}`)))[0]);
      writes.push((await timed(async () => {
        const res = await fetch(`${base}(PartitionKey='w',RowKey='r${i % 50}')?${sas}`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ n: i }) });
        if (res.status !== 204) throw new Error(`PUT: ${res.status} ${await res.text()}`);
      }))[0]);
    }
    const burnIn = Math.floor(WARM / 10); // the first requests still compile code
    return { reads: reads.slice(burnIn), writes: writes.slice(burnIn), pings: pings.slice(burnIn) };
  } finally {
    await edge.stop();
    tmp.cleanup();
  }
}

const wasm = readFileSync(join(edgeDir, "build", "app.wasm"));
const gz = gzipSync(wasm, { level: 9 }).length;
console.log(`edge: worker wasm ${mb(statSync(join(edgeDir, "build", "app.wasm")).size)} raw, ${mb(gz)} gzip -9   (target ≤ 2 MB gzip)`);
const c = await coldEmpty();
console.log(`edge: cold start, empty storage (median of ${RUNS}): workerd listening ${ms(median(c.listen))}; first request (Create Table, account object starts Go) ${ms(median(c.createTable))}; first insert (table object starts Go) ${ms(median(c.firstInsert))}   (target ≤ 50 ms)`);
for (const rows of ROWS) {
  const f = await coldStored(rows);
  console.log(`edge: cold start, table of ${rows} entities stored (median of ${RUNS}): first point read ${ms(median(f))} (min ${ms(Math.min(...f))})`);
}
const w = await warm();
console.log(`edge: warm, ${w.reads.length} sequential requests: point read median ${ms(median(w.reads))} p90 ${ms(pct(w.reads, 0.9))}; upsert median ${ms(median(w.writes))} p90 ${ms(pct(w.writes, 0.9))}   (target ≤ 2 ms)`);
console.log(`edge: floor, the entry Worker alone answering (no object, no Go): median ${ms(median(w.pings))}`);
