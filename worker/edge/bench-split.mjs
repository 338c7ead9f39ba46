// make bench (edge part, splitting): a table grown to --rows entities (default 100,000)
// in local workerd with splitting on (TABLETOP_SPLIT_ENTITIES, --limit, default the
// worker's own default), then, after a restart of the runtime, the cold start of each of
// its objects (the first point read in its range) and each object's memory. Needs `make
// worker` first. Usage: node bench-split.mjs [--rows 100000,1000000] [--limit 20000] [--concurrency 4]
import { parseArgs } from "node:util";
import { startEdge } from "./runtime.mjs";
import { clients, tempDir, stats } from "./test/helpers.mjs";
import { mapOf } from "./test/split-helpers.mjs";
import { SPLIT_ENTITIES } from "./src/split.mjs";

const { values: opt } = parseArgs({
  options: {
    rows: { type: "string", default: "100000" },
    limit: { type: "string", default: String(SPLIT_ENTITIES) },
    concurrency: { type: "string", default: "4" },
  },
});
const LIMIT = Number(opt.limit);
const CONCURRENCY = Number(opt.concurrency);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${x.toFixed(0)} ms`;
const mib = (n) => `${(n / 1048576).toFixed(1)} MiB`;
const sleep = (t) => new Promise((r) => setTimeout(r, t));
const vars = { TABLETOP_DEBUG: "1", TABLETOP_SPLIT_ENTITIES: String(LIMIT) };

// seed writes rows entities in batches of 100, one partition per batch, CONCURRENCY at once.
async function seed(url, rows) {
  const { service, table } = clients(url);
  await service.createTable("Big");
  const client = table("Big");
  let next = 0;
  const worker = async () => {
    for (let b = next++; b < rows / 100; b = next++) {
      const pk = `p${String(b).padStart(6, "0")}`;
      const actions = Array.from({ length: 100 }, (_, i) => ["create", { partitionKey: pk, rowKey: `r${i}`, n: b * 100 + i, s: "some text of a typical entity" }]);
      await client.submitTransaction(actions);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

// settled waits until no split is under way and no range is over the limit's next check.
async function settled(url) {
  for (let i = 0; i < 600; i++) {
    const { pending, map } = await mapOf(url, "Big");
    if (pending.length === 0) return map;
    await sleep(100);
  }
  throw new Error("splits did not settle");
}

/** firstKey is a PartitionKey in range i of map (its lower bound, or the first partition). */
const firstKey = (map, i) => map.ranges[i].lo || "p000000";

for (const rows of opt.rows.split(",").map(Number).filter(Boolean)) {
  const tmp = tempDir();
  let edge = await startEdge({ persistDir: tmp.dir, vars, timeoutMs: 60000 });
  try {
    const t0 = performance.now();
    await seed(edge.url, rows);
    const seedMs = performance.now() - t0;
    const map = await settled(edge.url);
    await edge.stop();

    edge = await startEdge({ persistDir: tmp.dir, vars, timeoutMs: 60000 });
    const { table } = clients(edge.url);
    const client = table("Big");
    const cold = [];
    for (let i = 0; i < map.ranges.length; i++) {
      const t = performance.now();
      await client.getEntity(firstKey(map, i), "r7");
      cold.push(performance.now() - t);
    }
    const objects = [];
    for (const r of map.ranges) objects.push(await stats(edge.url, encodeURIComponent(r.obj.slice(r.obj.indexOf("/") + 1))));
    const entities = objects.map((s) => s.entities);
    const memory = objects.map((s) => s.wasmMemory);
    console.log(
      `edge split: ${rows} entities (limit ${LIMIT} per object) seeded in ${ms(seedMs)} into ${map.ranges.length} objects ` +
        `of ${Math.min(...entities)}–${Math.max(...entities)} entities (sum ${entities.reduce((a, b) => a + b, 0)})`,
    );
    console.log(
      `edge split: after a restart, first point read per object: ${ms(cold[0])} for the first (the account object starts too), ` +
        `then median ${ms(median(cold.slice(1).length ? cold.slice(1) : cold))}, max ${ms(Math.max(...cold))}; ` +
        `Go linear memory per object median ${mib(median(memory))}, max ${mib(Math.max(...memory))}`,
    );
  } finally {
    await edge.stop();
    tmp.cleanup();
  }
}
