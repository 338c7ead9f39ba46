// The module's long calls leave the page's main thread free, in Chromium, under a
// PerformanceObserver of long tasks: full reads of a store already loaded (pages that
// are answered at once yield to the page every few milliseconds), an index scan of a
// table larger than the memory budget (what it loaded past the budget is dropped a slice
// per task), and a sync pull into an empty store past its budget (each page applied in
// parts; the one range its writes grew dropped a few hundred records per call). The bound
// is loose, 150 ms, for a machine running other work; the code before each change took
// several hundred milliseconds in one task on each.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "./serve.js";
import { launch } from "./chromium.js";
import { fill } from "./fill.js";
import { TableClient } from "@azure/data-tables";
import { allowCORS, cred } from "./live-profile.js";
import { startNative, DEV_KEY } from "../test/servers.js";

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

test("a sync pull past the budget never holds the page for long", { timeout: 180_000 }, async (t) => {
  const server = await startNative();
  t.after(() => server.stop());
  await allowCORS(server);
  const remote = new TableClient(server.url, "pulled", cred, { allowInsecureConnection: true });
  await remote.createTable();
  const warm = new TableClient(server.url, "warm", cred, { allowInsecureConnection: true });
  await warm.createTable();
  for (let i = 0; i < 3000; i += 100) await warm.submitTransaction(Array.from({ length: 100 }, (_, j) => ["create", { partitionKey: "w", rowKey: String(i + j), name: "x".repeat(120), n: i + j }]));
  const rows = 2 * ROWS;
  const starts = Array.from({ length: rows / 100 }, (_, i) => i * 100);
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let i; (i = starts.shift()) !== undefined; ) {
        await remote.submitTransaction(Array.from({ length: 100 }, (_, j) => ["create", { partitionKey: `p${Math.floor(i / 1000) % 20}`, rowKey: String(i + j).padStart(7, "0"), name: "x".repeat(120), n: i + j }]));
      }
    }),
  );
  const site = await serve(web);
  const b = await launch(await mkdtemp(join(tmpdir(), "tabletop-sliced-pull-")));
  t.after(async () => (await b.close(), site.close()));
  // A new store has one page, the whole key space, loaded by its first write: every
  // entity pulled after lands in that range, which grows to about twice the budget.
  const puller = await open(b, site, { cacheBytes: 8 << 20 });
  const pull = await puller.evaluate(
    async ([url, key]) => {
      const { c, store, longest } = window.app;
      const T = await import("/tabletop.js");
      const credential = new T.AzureNamedKeyCredential("devstoreaccount1", key);
      // A page's first pull runs the engine's code before V8 has compiled and optimized
      // it, and grows the engine's heap for the first time (its first collection): parts
      // of 60 to 150 ms here, once a page. A pull of 3,000 entities into another table
      // takes that first, so that what is timed is how a pull is sliced.
      await new T.TableSync(new T.TableClient(store, "warm"), { url, table: "warm", credential }).sync();
      const sync = new T.TableSync(c, { url, table: "pulled", credential });
      const out = await longest(async () => {
        const { pulled } = await sync.sync();
        for (let i = 0; i < 400 && store._loadedBytes > 8 << 20; i++) await new Promise((r) => setTimeout(r, 10));
        return pulled;
      });
      let n = 0;
      for await (const e of c.listEntities({ queryOptions: { filter: "PartitionKey eq 'p7'" } })) n += e.n === Number(e.rowKey) ? 1 : 0;
      return { ...out, loaded: store._loadedBytes, p7: n };
    },
    [server.url, DEV_KEY],
  );
  assert.equal(pull.out, rows);
  assert.equal(pull.p7, rows / 20);
  t.diagnostic(`pull of ${rows} past an 8 MiB budget: ${pull.tasks} long tasks, longest ${pull.longest.toFixed(0)} ms`);
  assert.ok(pull.loaded <= 8 << 20, `${pull.loaded} bytes still loaded after the pull`);
  assert.ok(pull.longest < BOUND_MS, `a task of ${pull.longest.toFixed(0)} ms during a sync pull`);
});
