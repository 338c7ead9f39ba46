// `node bench/steps.js`: where the time of one point read goes, under Node, step by step:
// the whole getEntity through the public API, the engine call alone, writing the request
// frame, Go's work with the crossing, and reading the binary answer into the SDK's shape.
// Each line is the best of 5 passes over 10,000 reads of the harness's entities, in µs per
// read; the steps overlap (the engine call includes the three after it).
import { openStore, TableClient } from "../tabletop.js";
import { entityAnswer } from "../src/values.js";
import { entity, PARTITION } from "./harness.js";

const N = 10000;
const store = await openStore("steps", { inMemory: true });
const client = new TableClient(store, "Bench");
await client.createTable();
for (let i = 0; i < N; i++) await client.createEntity(entity(i));
const keys = Array.from({ length: N }, (_, i) => {
  const e = entity((i * 7919) % N);
  return [e.partitionKey, e.rowKey];
});
if (PARTITION > N) throw new Error("steps: fewer entities than a partition");

async function time(label, op) {
  let best = Infinity;
  for (let pass = 0; pass < 5; pass++) {
    const t = performance.now();
    for (let i = 0; i < N; i++) {
      const r = op(i);
      if (r instanceof Promise) await r;
    }
    best = Math.min(best, ((performance.now() - t) * 1000) / N);
  }
  console.log(`${label.padEnd(46)} ${best.toFixed(2)} µs`);
}

const engine = store._engine, handle = store._handle, decode = entityAnswer();
const args = (i) => ["getEntity", handle, "Bench", keys[i][0], keys[i][1], ""];
await time("client.getEntity (awaited)", (i) => client.getEntity(keys[i][0], keys[i][1]));
await time("engine call, answer read", (i) => engine.call(args(i), decode));
await time("  request frame written", (i) => engine._write(args(i)));
await time("  + Go's work and the crossing", (i) => engine._x.tabletop_call(engine._write(args(i))));
const n = engine._x.tabletop_call(engine._write(args(0)));
await time("  answer read into the SDK's shape", () => engine._read(n, false, decode));
await time("crossing alone (an empty call)", () => engine.call(["close", "0"]));
await store.close();
