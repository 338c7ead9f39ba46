// Warm point reads of two builds of the edge bundle side by side: node bench-warm.mjs
// --against DIR [--rounds 6] [--reads 200]. DIR is another build's worker/edge/build/dist
// (for instance an older commit's, exported with git archive and built with its build.sh).
// Each round starts each build in turn on a table of 1,000 entities and times sequential
// point reads and the entry Worker's own floor (GET /__tabletop/ping, no object, no Go),
// interleaved, so both builds meet the same load; it prints the medians of every round.
import { parseArgs } from "node:util";
import { startEdge } from "./runtime.mjs";
import { clients, tempDir, credential } from "./test/helpers.mjs";
import { generateTableSas } from "@azure/data-tables";

const { values: opt } = parseArgs({ options: { against: { type: "string" }, rounds: { type: "string", default: "6" }, reads: { type: "string", default: "200" } } });
if (!opt.against) throw new Error("usage: node bench-warm.mjs --against DIR [--rounds 6] [--reads 200]");
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed(fn) {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

// round starts the bundle in dist, seeds a table and returns the medians of reads and floor.
async function round(dist) {
  const tmp = tempDir();
  const edge = await startEdge({ persistDir: tmp.dir, dist });
  try {
    const { service, table } = clients(edge.url);
    await service.createTable("Warm");
    for (let b = 0; b < 10; b++) {
      await table("Warm").submitTransaction(Array.from({ length: 100 }, (_, i) => ["create", { partitionKey: `p${b}`, rowKey: `r${i}`, n: i, s: "some text of a typical entity" }]));
    }
    const sas = generateTableSas("Warm", credential, { permissions: { query: true }, expiresOn: new Date(Date.now() + 3600e3) });
    const reads = [];
    const floor = [];
    for (let i = 0; i < Number(opt.reads); i++) {
      floor.push(await timed(() => fetch(`${edge.url}/__tabletop/ping`).then((r) => r.text())));
      reads.push(
        await timed(async () => {
          const res = await fetch(`${edge.url}/devstoreaccount1/Warm(PartitionKey='p${i % 10}',RowKey='r${i % 100}')?${sas}`, { headers: { accept: "application/json;odata=nometadata" } });
          if (res.status !== 200) throw new Error(`read: ${res.status} ${await res.text()}`);
          await res.text();
        }),
      );
    }
    const cut = Math.floor(reads.length / 10); // the first reads still compile code
    return { read: median(reads.slice(cut)), floor: median(floor.slice(cut)) };
  } finally {
    await edge.stop();
    tmp.cleanup();
  }
}

const builds = { this: undefined, against: opt.against };
const out = { this: [], against: [] };
for (let r = 0; r < Number(opt.rounds); r++) {
  for (const [name, dist] of r % 2 ? Object.entries(builds).reverse() : Object.entries(builds)) out[name].push(await round(dist));
}
for (const [name, rounds] of Object.entries(out)) {
  const reads = rounds.map((x) => x.read);
  const floors = rounds.map((x) => x.floor);
  const over = rounds.map((x) => x.read - x.floor);
  console.log(
    `edge warm point read, ${name === "this" ? "this build" : opt.against}: median of round medians ${median(reads).toFixed(2)} ms, floor ${median(floors).toFixed(2)} ms; ` +
      `read minus floor by round ${over.map((x) => x.toFixed(2)).join(", ")} (median ${median(over).toFixed(2)} ms)`,
  );
}
