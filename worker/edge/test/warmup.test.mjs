// An isolate readies its first object's Go start as it loads the script (src/warmup.mjs):
// the Go runtime's start, the store's opening and the path every call shares are compiled
// by a throw-away Go instance, and a spare instance waits for the first object. Counted,
// not timed: V8 prints each wasm function it compiles (--trace-wasm-compilation-times);
// after the warm-up, the first Create Table and insert compile a few functions, without
// it many more: the Go runtime's start, the store's opening and the request path.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { startEdge } from "../runtime.mjs";
import { clients, tempDir } from "./helpers.mjs";

const tmp = tempDir();
after(() => tmp.cleanup());

const state = async (edge) => (await fetch(`${edge.url}/__tabletop/started`)).json();

// compiled is the number of wasm functions workerd has reported compiling so far, once
// its output has stopped growing (V8 writes the lines as it compiles, on other threads too).
async function compiled(edge) {
  const count = () => edge.log().split("\n").filter((l) => l.startsWith("Compiled function")).length;
  let last = -1;
  for (let n = count(); n !== last; n = count()) {
    last = n;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  return last;
}

test("the first calls after a start run Go code the warm-up compiled, in the spare instance", async () => {
  const edge = await startEdge({ persistDir: tmp.dir, v8Flags: ["--trace-wasm-compilation-times"] });
  try {
    assert.deepEqual(await state(edge), { started: 0, warmUp: "done", spare: true });
    const atLoad = await compiled(edge);
    assert.ok(atLoad > 500, `the warm-up compiled the Go start and the request path as the script loaded (${atLoad} functions)`);

    const { service, table } = clients(edge.url);
    await service.createTable("WarmFirst");
    assert.deepEqual(await state(edge), { started: 1, warmUp: "done", spare: false }, "the account object started in the spare");
    const t = table("WarmFirst");
    await t.createEntity({ partitionKey: "p", rowKey: "r", n: 1, s: "text" });
    assert.equal((await state(edge)).started, 2);
    const during = (await compiled(edge)) - atLoad;
    assert.ok(during < 100, `the first Create Table and insert compiled ${during} wasm functions, the warm-up ${atLoad}`);

    // Other kinds of call compile their own code at their first use, and work as ever.
    assert.equal((await t.getEntity("p", "r")).n, 1);
    await t.submitTransaction([["upsert", { partitionKey: "p", rowKey: "r", n: 2 }]]);
    assert.equal((await t.getEntity("p", "r")).n, 2);
  } finally {
    await edge.stop();
  }
});
