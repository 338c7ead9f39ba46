// The module's long calls leave the page's main thread free, in Chromium, under a
// PerformanceObserver of long tasks: full reads of a store already loaded (pages that
// are answered at once yield to the page every few milliseconds), and an index scan of a
// table larger than the memory budget (what it loaded past the budget is dropped a slice
// per task). The bound is loose, 150 ms, for a machine running other work; the code
// before either change took several hundred milliseconds in one task on each.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "./serve.js";
import { launch } from "./chromium.js";
import { fill } from "./fill.js";

const web = join(dirname(fileURLToPath(import.meta.url)), "..");
const ROWS = 30000;
const BOUND_MS = 150;

/** open opens the store "sliced" in a new tab of b, with options, as window.app. */
async function open(b, site, options) {
  const page = await b.ctx.newPage();
  await page.goto(`${site.url}browser/blank.html`);
  await page.evaluate(async (options) => {
    const T = await import("/tabletop.js");
    const store = await T.openStore("sliced", options);
    const longest = async (fn) => {
      const tasks = [];
      const observer = new PerformanceObserver((list) => tasks.push(...list.getEntries().map((e) => e.duration)));
      observer.observe({ type: "longtask" });
      const out = await fn();
      await new Promise((r) => setTimeout(r, 100)); // the observer's last entries
      observer.disconnect();
      return { out, longest: Math.max(0, ...tasks), tasks: tasks.length };
    };
    window.app = { store, c: new T.TableClient(store, "things"), longest };
  }, options);
  return page;
}

test("a full read and an index scan past the budget never hold the page for long", { timeout: 180_000 }, async (t) => {
  const site = await serve(web);
  const b = await launch(await mkdtemp(join(tmpdir(), "tabletop-sliced-")));
  t.after(async () => (await b.close(), site.close()));
  const filler = await open(b, site, {});
  await fill(filler, ROWS);
  await filler.close();

  // Pages of loaded ranges: the second read finds every range loaded (the default budget
  // holds the whole store) and is answered page after page with nothing to wait for.
  const reader = await open(b, site, {});
  const read = await reader.evaluate(async () => {
    const all = async () => {
      let n = 0;
      for await (const e of window.app.c.listEntities()) {
        if (e.n !== Number(e.rowKey)) throw new Error(`${e.rowKey} holds ${e.n}`);
        n++;
      }
      return n;
    };
    await all();
    // Three reads in a row: with nothing to wait for, they would run in one task.
    return window.app.longest(async () => (await all()) + (await all()) + (await all()));
  });
  assert.equal(read.out, 3 * ROWS);
  t.diagnostic(`3 reads of ${ROWS} loaded entities: ${read.tasks} long tasks, longest ${read.longest.toFixed(0)} ms`);
  assert.ok(read.longest < BOUND_MS, `a task of ${read.longest.toFixed(0)} ms during a read of loaded pages`);
  await reader.evaluate(() => window.app.store.close());

  // An index scan needs its whole table: about 30 times a 1 MiB budget, dropped after.
  const scanner = await open(b, site, { cacheBytes: 1 << 20 });
  const scan = await scanner.evaluate(async () => {
    const { c, store, longest } = window.app;
    await c.createIndex("n");
    const found = [];
    const out = await longest(async () => {
      for await (const e of c.listEntities({ queryOptions: { filter: "n lt 3" } })) found.push(e.n);
      for (let i = 0; i < 400 && store._loadedBytes > 1 << 20; i++) await new Promise((r) => setTimeout(r, 10));
      return found;
    });
    return { ...out, loaded: store._loadedBytes };
  });
  assert.deepEqual(scan.out, [0, 1, 2]);
  t.diagnostic(`index scan past the budget: ${scan.tasks} long tasks, longest ${scan.longest.toFixed(0)} ms`);
  assert.ok(scan.loaded <= 1 << 20, `${scan.loaded} bytes still loaded after the scan`);
  assert.ok(scan.longest < BOUND_MS, `a task of ${scan.longest.toFixed(0)} ms during an index scan past the budget`);
});
