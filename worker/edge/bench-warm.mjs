// Warm point reads of two builds of the edge bundle side by side: node bench-warm.mjs
// --against DIR [--rounds 6] [--reads 200]. DIR is another build's worker/edge/build/dist
// (for instance an older commit's, exported with git archive and built with its build.sh).
// Each round starts both builds at once, each in its own workerd on a table of 1,000
// entities, and times sequential point reads and the entry Worker's own floor (GET
// /__tabletop/ping, no object, no Go), one build's then the other's at each step (in
// alternating order), so both meet the same load from one moment to the next; it prints
// the medians of every round. It also prints the load average at the start and the end:
// on a shared machine, compare the two builds' read minus floor, not the absolute figures.
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { startEdge } from "./runtime.mjs";
import { clients, tempDir, credential } from "./test/helpers.mjs";
import { generateTableSas } from "@azure/data-tables";

const { values: opt } = parseArgs({ options: { against: { type: "string" }, rounds: { type: "string", default: "6" }, reads: { type: "string", default: "200" } } });
if (!opt.against) throw new Error("usage: node bench-warm.mjs --against DIR [--rounds 6] [--reads 200]");
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const load = () => loadavg().map((x) => x.toFixed(2)).join(" ");

async function timed(fn) {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

// start starts the bundle in dist on a table of 1,000 entities and returns it with a SAS.
async function start(dist) {
  const tmp = tempDir();
  const edge = await startEdge({ persistDir: tmp.dir, dist });
  try {
    const { service, table } = clients(edge.url);
    await service.createTable("Warm");
    for (let b = 0; b < 10; b++) {
      await table("Warm").submitTransaction(Array.from({ length: 100 }, (_, i) => ["create", { partitionKey: `p${b}`, rowKey: `r${i}`, n: i, s: "some text of a typical entity" }]));
    }
  } catch (err) {
    await edge.stop();
    tmp.cleanup();
    throw err;
  }
  const sas = generateTableSas("Warm", credential, { permissions: { query: true }, expiresOn: new Date(Date.now() + 3600e3) });
  return { edge, tmp, sas, reads: [], floor: [] };
}

// step times one floor request and one point read of build b.
async function step(b, i) {
  b.floor.push(await timed(() => fetch(`${b.edge.url}/__tabletop/ping`).then((r) => r.text())));
  b.reads.push(
    await timed(async () => {
      const res = await fetch(`${b.edge.url}/devstoreaccount1/Warm(PartitionKey='p${i % 10}',RowKey='r${i % 100}')?${b.sas}`, { headers: { accept: "application/json;odata=nometadata" } });
      if (res.status !== 200) throw new Error(`read: ${res.status} ${await res.text()}`);
      await res.text();
    }),
  );
}

// round starts both builds and returns, for each, the medians of its reads and floor.
async function round(dists) {
  const builds = [];
  try {
    for (const dist of dists) builds.push(await start(dist));
    for (let i = 0; i < Number(opt.reads); i++) {
      for (const b of i % 2 ? [...builds].reverse() : builds) await step(b, i);
    }
    const cut = Math.floor(Number(opt.reads) / 10); // the first reads still compile code
    return builds.map((b) => ({ read: median(b.reads.slice(cut)), floor: median(b.floor.slice(cut)) }));
  } finally {
    for (const b of builds) {
      await b.edge.stop();
      b.tmp.cleanup();
    }
  }
}

const names = ["this", "against"];
const out = { this: [], against: [] };
console.log(`load average at the start: ${load()}`);
for (let r = 0; r < Number(opt.rounds); r++) {
  const dists = r % 2 ? [opt.against, undefined] : [undefined, opt.against];
  const [a, b] = await round(dists);
  out[r % 2 ? "against" : "this"].push(a);
  out[r % 2 ? "this" : "against"].push(b);
}
for (const name of names) {
  const rounds = out[name];
  const reads = rounds.map((x) => x.read);
  const floors = rounds.map((x) => x.floor);
  const over = rounds.map((x) => x.read - x.floor);
  console.log(
    `edge warm point read, ${name === "this" ? "this build" : opt.against}: median of round medians ${median(reads).toFixed(2)} ms, floor ${median(floors).toFixed(2)} ms; ` +
      `read minus floor by round ${over.map((x) => x.toFixed(2)).join(", ")} (median ${median(over).toFixed(2)} ms)`,
  );
}
console.log(`load average at the end: ${load()}`);
