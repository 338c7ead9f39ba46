// The main thread during the module's longest calls, in Chromium, while a
// PerformanceObserver lists the long tasks (over 50 ms):
// - read: a persistent store of --rows entities of about 200 bytes (default 100,000) is
//   filled and compacted, then a new page opens it and reads it all with listEntities;
// - index: in that store, opened in a new page, createIndex on a property of every
//   entity (a write that loads the whole table, then builds the index);
// - pull: a native server's table of --rows such entities is pulled by a TableSync into
//   an empty persistent store (the change feed, pages of 1,000).
// Each prints its time, how many long tasks there were and the longest.
// `node bench/longtasks.js [--rows N] [--only read,index,pull]` in web/.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TableClient } from "@azure/data-tables";
import { serve } from "../browser/serve.js";
import { launch } from "../browser/chromium.js";
import { allowCORS, cred } from "../browser/live-profile.js";
import { startNative, DEV_KEY } from "../test/servers.js";

const args = process.argv.slice(2);
const flag = (name, def) => (args.includes(name) ? args[args.indexOf(name) + 1] : def);
const rows = Number(flag("--rows", 100_000));
const only = new Set(flag("--only", "read,index,pull").split(","));

/** entity is the i-th entity of a bench table: about 200 bytes stored, 100 partitions. */
const entity = (i) => ({ partitionKey: `p${Math.floor(i / 1000) % 100}`, rowKey: String(i).padStart(7, "0"), name: "x".repeat(120), n: i, ok: true });

/** observed runs fn (source text of an async function of arg) in page, listing long tasks. */
async function observed(page, fn, arg) {
  return page.evaluate(
    async ([fn, arg]) => {
      const T = await import("/tabletop.js");
      await T.loadEngine();
      const tasks = [];
      new PerformanceObserver((list) => tasks.push(...list.getEntries().map((e) => e.duration))).observe({ type: "longtask" });
      const start = performance.now();
      const n = await (0, eval)(`(${fn})`)(T, arg);
      const took = performance.now() - start;
      await new Promise((r) => setTimeout(r, 100)); // the observer's last entries
      return { n, took, tasks: tasks.sort((a, b) => b - a) };
    },
    [fn.toString(), arg],
  );
}

function report(what, out) {
  const top = out.tasks.slice(0, 5).map((d) => `${d.toFixed(0)} ms`).join(", ");
  console.log(`${what} (${out.n} entities): ${(out.took / 1000).toFixed(2)} s, ${out.tasks.length} long tasks${top ? `, longest ${top}` : ""}`);
}

/** fill fills the store "longtasks" with --rows entities in one page, and compacts it. */
async function fill(b, site) {
  const filler = await b.ctx.newPage();
  await filler.goto(`${site.url}browser/blank.html`);
  await filler.evaluate(
    async ([rows, entitySrc]) => {
      const entity = (0, eval)(`(${entitySrc})`);
      const T = await import("/tabletop.js");
      const store = await T.openStore("longtasks");
      const c = new T.TableClient(store, "things");
      await c.createTable();
      for (let i = 0; i < rows; i += 100) await c.submitTransaction(Array.from({ length: 100 }, (_, j) => ["create", entity(i + j)]));
      await store.compact();
      await store.close();
    },
    [rows, entity.toString()],
  );
  await filler.close();
}

/** inNewPage runs fn (see observed) in a new page of the site, reports it as what, and closes the page. */
async function inNewPage(b, site, what, fn) {
  const page = await b.ctx.newPage();
  await page.goto(`${site.url}browser/blank.html`);
  report(what, await observed(page, fn));
  await page.close();
}

/** firstRead reads the filled store all in a new page. */
async function firstRead(b, site) {
  await inNewPage(b, site, "first full read", async (T) => {
    const store = await T.openStore("longtasks");
    let n = 0;
    for await (const _ of new T.TableClient(store, "things").listEntities()) n++;
    await store.close();
    return n;
  });
}

/** indexBuild builds an index on property n of the filled store in a new page, then reads the 1,000 entities of n < 1000 through it. */
async function indexBuild(b, site) {
  await inNewPage(b, site, "index build, then a query through it", async (T) => {
    const store = await T.openStore("longtasks");
    const client = new T.TableClient(store, "things");
    await client.createIndex("n");
    let n = 0;
    for await (const _ of client.listEntities({ queryOptions: { filter: "n lt 1000" } })) n++;
    await store.close();
    return n;
  });
}

/** syncPull fills a native server's table and pulls it into an empty store in a page. */
async function syncPull(b, site) {
  const server = await startNative();
  try {
    await allowCORS(server);
    const remote = new TableClient(server.url, "pulled", cred, { allowInsecureConnection: true });
    await remote.createTable();
    const batches = [];
    for (let i = 0; i < rows; i += 100) batches.push(i);
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let i; (i = batches.shift()) !== undefined; ) await remote.submitTransaction(Array.from({ length: Math.min(100, rows - i) }, (_, j) => ["create", entity(i + j)]));
      }),
    );
    const page = await b.ctx.newPage();
    await page.goto(`${site.url}browser/blank.html`);
    const out = await observed(
      page,
      async (T, [url, key]) => {
        const store = await T.openStore("longtasks-pull");
        const client = new T.TableClient(store, "pulled");
        const sync = new T.TableSync(client, { url, table: "pulled", credential: new T.AzureNamedKeyCredential("devstoreaccount1", key) });
        const { pulled } = await sync.sync();
        await store.close();
        return pulled;
      },
      [server.url, DEV_KEY],
    );
    report("sync pull (change feed)", out);
    await page.close();
  } finally {
    await server.stop();
  }
}

const site = await serve(new URL("../", import.meta.url).pathname);
const profile = await mkdtemp(join(tmpdir(), "tabletop-longtasks-"));
const b = await launch(profile);
try {
  if (only.has("read") || only.has("index")) await fill(b, site);
  if (only.has("read")) await firstRead(b, site);
  if (only.has("index")) await indexBuild(b, site);
  if (only.has("pull")) await syncPull(b, site);
} finally {
  await b.close();
  site.close();
  await rm(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }).catch(() => {});
}
