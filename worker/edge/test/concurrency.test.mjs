// Concurrency at the edge: each table's Durable Object serializes its writes, so
// read-modify-write cycles with If-Match lose no update however many clients race; and
// two tables' objects make progress side by side.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startEdge } from "../runtime.mjs";
import { clients, tempDir } from "./helpers.mjs";

const WORKERS = 8;
const INCREMENTS = 12;

let tmp, edge, c;
before(async () => {
  tmp = tempDir();
  edge = await startEdge({ persistDir: tmp.dir });
  c = clients(edge.url);
  for (const name of ["CounterA", "CounterB", "CounterC"]) {
    await c.service.createTable(name);
    await c.table(name).createEntity({ partitionKey: "c", rowKey: "c", n: 0 });
  }
});
after(async () => {
  await edge?.stop();
  tmp?.cleanup();
});

// increment adds one to the counter with If-Match, retrying on 412; it returns the number
// of 412s it met and the time it finished.
async function increment(client) {
  for (let conflicts = 0; ; conflicts++) {
    const e = await client.getEntity("c", "c");
    try {
      await client.updateEntity({ partitionKey: "c", rowKey: "c", n: e.n + 1 }, "Replace", { etag: e.etag });
      return { conflicts, at: performance.now() };
    } catch (err) {
      if (err.statusCode !== 412) throw err;
    }
  }
}

// hammer runs WORKERS clients doing INCREMENTS increments each on table name.
async function hammer(name) {
  const client = c.table(name);
  const runs = [];
  for (let w = 0; w < WORKERS; w++) {
    runs.push((async () => {
      const out = [];
      for (let i = 0; i < INCREMENTS; i++) out.push(await increment(client));
      return out;
    })());
  }
  const done = (await Promise.all(runs)).flat();
  return { conflicts: done.reduce((n, d) => n + d.conflicts, 0), times: done.map((d) => d.at) };
}

test("If-Match read-modify-write loses no update on one table, and two tables proceed side by side", async (t) => {
  const start = performance.now();
  const [a, b] = await Promise.all([hammer("CounterA"), hammer("CounterB")]);
  const both = performance.now() - start;
  for (const [name, r] of [["CounterA", a], ["CounterB", b]]) {
    assert.equal((await c.table(name).getEntity("c", "c")).n, WORKERS * INCREMENTS, `${name}: no lost update`);
  }
  assert.ok(a.conflicts + b.conflicts > 0, "the clients did race (some If-Match failed with 412)");
  // Side by side: each table finished increments while the other was still at work.
  const span = (r) => [Math.min(...r.times), Math.max(...r.times)];
  const [a0, a1] = span(a);
  const [b0, b1] = span(b);
  assert.ok(b0 < a1 && a0 < b1, `the two tables' writes overlap in time: A ${a0.toFixed(0)}–${a1.toFixed(0)}, B ${b0.toFixed(0)}–${b1.toFixed(0)} ms`);
  const soloStart = performance.now();
  const solo = await hammer("CounterC");
  const one = performance.now() - soloStart;
  assert.equal((await c.table("CounterC").getEntity("c", "c")).n, WORKERS * INCREMENTS);
  t.diagnostic(`${WORKERS}×${INCREMENTS} If-Match increments: two tables at once ${both.toFixed(0)} ms (${a.conflicts}+${b.conflicts} retries on 412), one table alone ${one.toFixed(0)} ms (${solo.conflicts} retries)`);
});

test("without If-Match the same race loses updates (what the test above would catch)", async (t) => {
  await c.service.createTable("Unguarded");
  const client = c.table("Unguarded");
  await client.createEntity({ partitionKey: "c", rowKey: "c", n: 0 });
  await Promise.all(Array.from({ length: WORKERS }, async () => {
    for (let i = 0; i < INCREMENTS; i++) {
      const e = await client.getEntity("c", "c");
      await client.updateEntity({ partitionKey: "c", rowKey: "c", n: e.n + 1 }, "Replace", { etag: "*" });
    }
  }));
  const n = (await client.getEntity("c", "c")).n;
  t.diagnostic(`unguarded: ${n} of ${WORKERS * INCREMENTS} increments kept`);
  assert.ok(n <= WORKERS * INCREMENTS);
});
