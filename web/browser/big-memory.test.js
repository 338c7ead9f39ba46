// A persistent store read and written past 2 GiB of the engine's memory, in Chromium:
// Go's addresses above 2^31 reach JavaScript as negative i32s, and every call must still
// answer right (the engine reads them unsigned).
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "./serve.js";
import { launch } from "./chromium.js";

const web = join(dirname(fileURLToPath(import.meta.url)), "..");

test("a store past 2 GiB of engine memory answers every call right", { timeout: 240_000 }, async (t) => {
  const server = await serve(web);
  t.after(() => server.close());
  const b = await launch(await mkdtemp(join(tmpdir(), "tabletop-big-")));
  t.after(() => b.close());
  const page = await b.ctx.newPage();
  await page.goto(`${server.url}browser/blank.html`);
  const out = await page.evaluate(async () => {
    const T = await import("/tabletop.js");
    const engine = await T.loadEngine();
    // A budget past what the test writes: the engine keeps it all, and its memory grows.
    const store = await T.openStore("big", { cacheBytes: 2 ** 40 });
    const c = new T.TableClient(store, "Big");
    await c.createTable();
    // Entities of 14 binary properties of 64 KiB, the most Azure allows of each: the
    // engine's memory passes 2 GiB after some hundreds.
    const blob = (i, k) => new Uint8Array(65536).fill((i * 14 + k) % 251);
    const entity = (pk, i) => {
      const e = { partitionKey: pk, rowKey: String(i).padStart(5, "0") };
      for (let k = 0; k < 14; k++) e[`b${k}`] = blob(i, k);
      return e;
    };
    let n = 0;
    while (engine._x.mem.buffer.byteLength <= 2 ** 31 + (256 << 20)) await c.createEntity(entity("p", n++));
    const check = (e, i) => e.b13.length === 65536 && e.b13[65535] === (i * 14 + 13) % 251 && e.b0[0] === (i * 14) % 251;
    const errors = [];
    const expect = (ok, what) => ok || errors.push(what);
    // Point reads, a whole partition in pages, a write and its read, after the threshold.
    for (const i of [0, n >> 1, n - 1]) expect(check(await c.getEntity("p", String(i).padStart(5, "0")), i), `get ${i}`);
    await c.createEntity(entity("q", 7));
    expect(check(await c.getEntity("q", "00007"), 7), "get after a write past 2 GiB");
    let listed = 0;
    for await (const e of c.listEntities({ queryOptions: { filter: "PartitionKey eq 'p'" } })) expect(check(e, listed++), `list ${listed}`);
    expect(listed === n, `listed ${listed} of ${n}`);
    await store.close();
    return { n, memory: engine._x.mem.buffer.byteLength, errors: errors.slice(0, 5) };
  });
  assert.ok(out.memory > 2 ** 31, `engine memory ${out.memory}`);
  assert.deepEqual(out.errors, [], `${out.n} entities written past 2 GiB`);
});
