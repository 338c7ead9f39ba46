// The runtime is SIGKILLed while a table splits: writers keep a table growing past the
// split limit, and as soon as a split is seen under way (an unsettled split in the
// account object), the runtime is killed, a little later each round, so that the kills
// are swept across the split's steps. After each
// restart every acknowledged write is there once, pages come in key order, and the
// objects of the map hold the table's entities exactly once between them, none fenced.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { startEdge } from "../runtime.mjs";
import { clients, tempDir } from "./helpers.mjs";
import { keyOf, mapOf, readPages, checkObjects } from "./split-helpers.mjs";

const ROUNDS = 16;
const tmp = tempDir();
after(() => tmp.cleanup());

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// STEP_MS pauses the split between its steps (fault injection, honoured only with
// TABLETOP_DEBUG), so that the swept kills land at each of them.
const STEP_MS = 25;

const start = () =>
  startEdge({ persistDir: tmp.dir, vars: { TABLETOP_DEBUG: "1", TABLETOP_SPLIT_ENTITIES: "60", TABLETOP_SPLIT_STEP_MS: String(STEP_MS) } });

test("a crash at any moment of a split loses no acknowledged write and leaves every range served once", async () => {
  let edge = await start();
  try {
    await clients(edge.url).service.createTable("Crashy");
    const acked = new Set();
    const payload = "y".repeat(8000);
    let seq = 0;
    const settled = { forward: 0, back: 0 };
    // writers keeps three writers going until stop() is called or the runtime dies.
    const writers = () => {
      const t = clients(edge.url).table("Crashy");
      let writing = true;
      const writer = async () => {
        while (writing) {
          const i = seq++;
          const e = { partitionKey: `p${String((i * 7919) % 1000).padStart(4, "0")}`, rowKey: String(i), payload };
          try {
            await t.createEntity(e);
          } catch {
            return; // the runtime is gone: this write is not acknowledged
          }
          acked.add(keyOf(e));
        }
      };
      const running = [writer(), writer(), writer()];
      return () => ((writing = false), Promise.all(running));
    };
    // splitSeen resolves once a split is under way.
    const splitSeen = async () => {
      const deadline = Date.now() + 30000;
      while (Date.now() < deadline && (await mapOf(edge.url, "Crashy")).pending.length === 0);
    };

    // One split undisturbed, to time it: the kills are swept from its start to 1.5 times its span.
    let stop = writers();
    await splitSeen();
    const t0 = performance.now();
    while ((await mapOf(edge.url, "Crashy")).pending.length);
    const span = (performance.now() - t0) * 1.5;
    await stop();

    for (let round = 0; round < ROUNDS; round++) {
      stop = writers();
      await splitSeen();
      await sleep((round * span) / (ROUNDS - 1));
      await edge.kill();
      await stop();

      edge = await start();
      const { pending, map: before } = await mapOf(edge.url, "Crashy");
      for (const s of pending) settled[before.ranges.some((r) => r.obj === s.dst) ? "forward" : "back"]++;
      const seen = new Set(await readPages(clients(edge.url).table("Crashy"), 37));
      for (const k of acked) assert.ok(seen.has(k), `round ${round}: acknowledged ${JSON.stringify(k)} is gone`);
      await checkObjects(edge.url, "Crashy", seen.size);
    }
    const { map } = await mapOf(edge.url, "Crashy");
    console.log(
      `${ROUNDS} kills swept over ${span.toFixed(0)} ms: ${settled.back} splits undone, ${settled.forward} finished after the restart; ` +
        `${acked.size} acknowledged writes, ${map.ranges.length} ranges at the end`,
    );
    assert.ok(settled.back >= 1 && settled.forward >= 1, "the kills did not land both before and after a split's switch");
  } finally {
    await edge.stop();
  }
});
