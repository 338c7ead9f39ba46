// The main thread during a first full read of a persistent store, in Chromium: a store of
// --rows entities of about 200 bytes (default 100,000) is filled and compacted, then a
// new page opens it and reads it all with listEntities while a PerformanceObserver lists
// the long tasks (over 50 ms). It prints the read's time, how many long tasks there were
// and the longest. `node bench/longtasks.js [--rows N]` in web/.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "../browser/serve.js";
import { launch } from "../browser/chromium.js";

const args = process.argv.slice(2);
const rows = Number(args.includes("--rows") ? args[args.indexOf("--rows") + 1] : 100_000);
const site = await serve(new URL("../", import.meta.url).pathname);
const profile = await mkdtemp(join(tmpdir(), "tabletop-longtasks-"));
const b = await launch(profile);
try {
  const filler = await b.ctx.newPage();
  await filler.goto(`${site.url}browser/blank.html`);
  await filler.evaluate(async (rows) => {
    const T = await import("/tabletop.js");
    const store = await T.openStore("longtasks");
    const c = new T.TableClient(store, "things");
    await c.createTable();
    const name = "x".repeat(120);
    for (let i = 0; i < rows; i += 100) {
      await c.submitTransaction(Array.from({ length: 100 }, (_, j) => ["create", { partitionKey: `p${Math.floor(i / 1000) % 100}`, rowKey: String(i + j).padStart(7, "0"), name, n: i + j, ok: true }]));
    }
    await store.compact();
    await store.close();
  }, rows);
  await filler.close();
  const page = await b.ctx.newPage();
  await page.goto(`${site.url}browser/blank.html`);
  const out = await page.evaluate(async () => {
    const T = await import("/tabletop.js");
    await T.loadEngine();
    const tasks = [];
    new PerformanceObserver((list) => tasks.push(...list.getEntries().map((e) => e.duration))).observe({ type: "longtask" });
    const start = performance.now();
    const store = await T.openStore("longtasks");
    let n = 0;
    for await (const _ of new T.TableClient(store, "things").listEntities()) n++;
    const took = performance.now() - start;
    await new Promise((r) => setTimeout(r, 100)); // the observer's last entries
    await store.close();
    return { n, took, tasks: tasks.sort((a, b) => b - a) };
  });
  const top = out.tasks.slice(0, 5).map((d) => `${d.toFixed(0)} ms`).join(", ");
  console.log(`first full read of ${out.n} entities: ${(out.took / 1000).toFixed(2)} s, ${out.tasks.length} long tasks${top ? `, longest ${top}` : ""}`);
} finally {
  await b.close();
  site.close();
  await rm(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }).catch(() => {});
}
