// Cold starts of two builds of the edge bundle side by side: node bench-cold.mjs --against
// DIR [--runs 9]. DIR is another build's worker/edge/build/dist (for instance an older
// commit's, exported with git archive and built with its build.sh). Each run starts
// workerd afresh on empty storage, once with each build in alternating order, and times
// its start (spawn to first answer: the process, the script's load and whatever the
// script does as it loads), the entry Worker's own floor, the first request (Create
// Table: the account object starts Go) and the first insert (the table's object starts
// Go); it prints each build's medians, and the start and first request together, which
// is what a request waits for when the runtime loads the script for it.
import { parseArgs } from "node:util";
import { startEdge } from "./runtime.mjs";
import { clients, tempDir } from "./test/helpers.mjs";

const { values: opt } = parseArgs({ options: { against: { type: "string" }, runs: { type: "string", default: "9" } } });
if (!opt.against) throw new Error("usage: node bench-cold.mjs --against DIR [--runs 9]");
const builds = [
  { name: "this build", dist: undefined }, // startEdge's default, worker/edge/build/dist
  { name: opt.against, dist: opt.against },
];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed(fn) {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

// coldRun starts the build on empty storage and times its start and first requests.
async function coldRun(dist) {
  const tmp = tempDir();
  const edge = await startEdge({ persistDir: tmp.dir, dist });
  try {
    const floor = await timed(() => fetch(`${edge.url}/__tabletop/ping`).then((r) => r.text()));
    const { service, table } = clients(edge.url);
    const create = await timed(() => service.createTable("Cold"));
    const insert = await timed(() => table("Cold").createEntity({ partitionKey: "p", rowKey: "r" }));
    const start = edge.readyAt - edge.startedAt;
    return { start, floor, create, insert, startAndCreate: start + create };
  } finally {
    await edge.stop();
    tmp.cleanup();
  }
}

const rows = new Map(builds.map((b) => [b, []]));
for (let r = 0; r < Number(opt.runs); r++) {
  const order = r % 2 ? [...builds].reverse() : builds;
  for (const b of order) rows.get(b).push(await coldRun(b.dist));
}
for (const [b, runs] of rows) {
  const m = (k) => `${median(runs.map((x) => x[k])).toFixed(1)} ms`;
  console.log(`edge cold start, ${b.name} (medians of ${runs.length}): workerd's start ${m("start")}; floor ${m("floor")}; Create Table ${m("create")}; first insert ${m("insert")}; start and Create Table together ${m("startAndCreate")}`);
}
