// Where warm import → ready goes in Chromium: serves web/, loads a page, imports the module
// to an open in-memory store with a table (as the benchmark's "import → ready" does), then
// reloads the page and does it again under a trace (CDP Tracing, the v8.wasm and
// devtools.timeline categories), and prints each phase per reload and their medians.
//
//   node bench/import.js [--reloads=5] [--entry=dist/tabletop.js,...] [--new-tab] [--trace-dir=DIR]
//
// --entry=tabletop.js times the source's modules instead of the one-file build; several
// entries, comma-separated, are timed side by side, one after the other in each round;
// --new-tab opens each load in a new tab (a new renderer process, without V8's in-process
// module cache) instead of reloading the page; --trace-dir keeps each reload's trace (open it in chrome://tracing or Perfetto).
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { serve } from "../browser/serve.js";

const web = new URL("../", import.meta.url).pathname;
const args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const categories = ["v8.wasm", "disabled-by-default-v8.wasm.detailed", "devtools.timeline", "disabled-by-default-devtools.timeline", "blink", "blink.user_timing", "loading", "toplevel"];

/** phases turns one reload's trace events into named durations in ms (see the README's "Size and speed"). */
export function phases(events) {
  const mark = (name) => events.find((e) => e.name === name && e.cat.includes("blink.user_timing"))?.ts;
  const one = (name, pred = () => true) => events.find((e) => e.name === name && pred(e));
  const sum = (name) => events.filter((e) => e.name === name).reduce((s, e) => s + (e.dur ?? 0), 0);
  const sent = one("ResourceSendRequest", (e) => e.args?.data?.url?.endsWith(".wasm"));
  const start = mark("tt:start"), imported = mark("tt:imported"), engine = mark("tt:engine"), ready = mark("tt:ready");
  const send = sent?.ts, response = one("ResourceReceiveResponse", (e) => sent && e.args?.data?.requestId === sent.args.data.requestId);
  const finish = one("wasm.FinishStreaming"), body = one("ResponseBodyLoader::DidFinishLoadingBody"), build = one("wasm.InstanceBuilder.Build");
  const ms = (us) => (us === undefined || Number.isNaN(us) ? NaN : us / 1000);
  return {
    "import of the JS": ms(imported - start),
    "wasm: request → response": ms(response?.ts - send),
    "wasm: bytes taken in": ms(finish?.ts - response?.ts),
    "  of which main thread": ms(sum("wasm.OnBytesReceived")),
    "wasm: finish streaming": ms(finish?.dur),
    "wasm: body loader done": ms(body?.dur),
    "wasm: instantiate": ms(build?.dur),
    "Go start": ms(engine - (build ? build.ts + build.dur : NaN)),
    "open store, table": ms(ready - engine),
    "total": ms(ready - start),
    "compiled code from cache": one("CacheHit") || one("wasm.GetNativeModuleFromCache") ? 1 : 0,
    "functions compiled": events.filter((e) => e.name === "wasm.CompileLazy" || e.name === "wasm.CompileFunction").length,
  };
}

/** traceImports runs the page and resolves with { entry: [phases() per reload] }. */
export async function traceImports({ reloads = 5, entries = ["dist/tabletop.js"], newTab = false, traceDir } = {}) {
  const server = await serve(web);
  const profile = await mkdtemp(join(tmpdir(), "tabletop-import-"));
  const ctx = await chromium.launchPersistentContext(profile, { executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", headless: true, args });
  try {
    let page = ctx.pages()[0] ?? (await ctx.newPage());
    let cdp, events = [];
    const attach = async () => {
      cdp = await ctx.newCDPSession(page);
      cdp.on("Tracing.dataCollected", (d) => events.push(...d.value));
    };
    await attach();
    const out = Object.fromEntries(entries.map((e) => [e, []]));
    for (let i = -1; i < reloads; i++) for (const [n, entry] of entries.entries()) {
      if (newTab && i >= 0) {
        const old = page;
        page = await ctx.newPage();
        await old.close();
        await attach();
      }
      await page.goto(`${server.url}browser/blank.html`);
      events = [];
      if (i >= 0) await cdp.send("Tracing.start", { categories: categories.join(","), transferMode: "ReportEvents" });
      await page.evaluate(async (url) => {
        performance.mark("tt:start");
        const T = await import(url);
        performance.mark("tt:imported");
        await T.loadEngine();
        performance.mark("tt:engine");
        const store = await T.openStore("import", { inMemory: true });
        await new T.TableClient(store, "Bench").createTable();
        performance.mark("tt:ready");
        await store.close();
      }, new URL(entry, server.url).href);
      if (i < 0) continue; // the first load compiles; the reloads are the warm ones
      const done = new Promise((r) => cdp.once("Tracing.tracingComplete", r));
      await cdp.send("Tracing.end");
      await done;
      if (traceDir) await writeFile(join(traceDir, `import-${n}-${i}.json`), JSON.stringify(events));
      out[entry].push(phases(events));
    }
    return out;
  } finally {
    await ctx.close();
    server.close();
    await rm(profile, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const opt = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const results = await traceImports({ reloads: Number(opt("reloads") ?? 5), entries: opt("entry")?.split(","), newTab: process.argv.includes("--new-tab"), traceDir: opt("trace-dir") });
  const median = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];
  const fmt = (v) => (Number.isNaN(v) ? "—" : v.toFixed(1));
  for (const [entry, runs] of Object.entries(results)) {
    console.log(`\n${entry}, warm${process.argv.includes("--new-tab") ? ", each load in a new tab" : ""} (load average ${loadavg()[0].toFixed(1)}):\n`);
    console.log(`| phase (ms) | ${runs.map((_, i) => `reload ${i + 1}`).join(" | ")} | median |`);
    console.log(`| --- |${" ---: |".repeat(runs.length + 1)}`);
    for (const k of Object.keys(runs[0])) console.log(`| ${k} | ${runs.map((r) => fmt(r[k])).join(" | ")} | ${fmt(median(runs.map((r) => r[k])))} |`);
  }
}
