// Where warm import → ready goes in Chromium: serves web/, loads a page, imports the module
// to an open in-memory store with a table (as the benchmark's "import → ready" does), then
// reloads the page and does it again under a trace (CDP Tracing, the v8.wasm and
// devtools.timeline categories), and prints each phase per reload and their medians.
//
//   node bench/import.js [--reloads=5] [--entry=dist/tabletop.js,...] [--new-tab] [--sw] [--cache] [--trace-dir=DIR] [--js-flags=FLAGS] [--warm-up=N]
//   node bench/import.js --steps [--reloads=5] [--wasm=dist/tabletop.wasm]
//   node bench/import.js --cold [--reloads=5] [--entry=dist/tabletop.js,...]
//
// --entry=tabletop.js times the source's modules instead of the one-file build; several
// entries, comma-separated, are timed side by side, one after the other in each round;
// --new-tab opens each load in a new tab (a new renderer process, without V8's in-process
// module cache) instead of reloading the page; --sw times each entry a second time, side
// by side, on a second origin whose pages web/sw.js controls (registered, its shell
// precached in Cache Storage, before the first load), so that the module comes from the
// service worker's cache instead of the HTTP cache (the wasm the worker leaves to the
// network and the HTTP cache: the engine keeps its own copy, see --cache); --trace-dir keeps each
// reload's trace (open it in chrome://tracing or Perfetto); --cache times each entry once
// more, on a third origin, with the engine keeping its wasm in Cache Storage and compiling
// the copy it reads there (loadEngine's wasmCache, the default, which the other runs turn
// off; one-file builds only, such as dist/tabletop.js); --js-flags=FLAGS passes V8
// flags to Chromium (an experiment's only: a page cannot set them), e.g.
// --js-flags=--wasm-caching-threshold=1000 to see whether a path gets Chromium's code cache
// at all; --warm-up=N makes the first, untimed load insert and read N entities and stay
// open 3 s more, so that V8 optimises the hot functions (and may cache the module).
// --steps instead starts the engine step by step, each step one call into the page (the
// wasm's copy in Cache Storage looked up, compiled with compileStreaming, instantiated, Go
// started), and prints each step's time and the renderer's minor page faults, per reload:
// where a warm start's page faults are taken. --cold instead times import → ready in a
// browser started on an empty profile for each load (nothing in any cache: a first
// visit), the entries one after the other in each round, the order rotated.
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { serve } from "../browser/serve.js";

const web = new URL("../", import.meta.url).pathname;
const args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const categories = ["v8.wasm", "disabled-by-default-v8.wasm.detailed", "devtools.timeline", "disabled-by-default-devtools.timeline", "blink", "blink.user_timing", "loading", "toplevel"];

/** phases turns one reload's trace events into named durations in ms (see web/README.md, "Size and speed"). */
export function phases(events, faults = NaN) {
  const mark = (name) => events.find((e) => e.name === name && e.cat.includes("blink.user_timing"))?.ts;
  const one = (name, pred = () => true) => events.find((e) => e.name === name && pred(e));
  const sum = (name) => events.filter((e) => e.name === name).reduce((s, e) => s + (e.dur ?? 0), 0);
  const sent = one("ResourceSendRequest", (e) => e.args?.data?.url?.endsWith(".wasm"));
  const start = mark("tt:start"), imported = mark("tt:imported"), engine = mark("tt:engine"), ready = mark("tt:ready");
  const send = sent?.ts, response = one("ResourceReceiveResponse", (e) => sent && e.args?.data?.requestId === sent.args.data.requestId);
  const flag = (b) => (b ? 1 : 0);
  const streamed = one("v8.wasm.streamFromResponseCallback");
  const finish = one("wasm.FinishStreaming"), body = one("ResponseBodyLoader::DidFinishLoadingBody"), build = one("wasm.InstanceBuilder.Build");
  const ms = (us) => (us === undefined || Number.isNaN(us) ? NaN : us / 1000);
  return {
    "import of the JS": ms(imported - start),
    "wasm: import → response handed to V8": ms(streamed?.ts - imported),
    "wasm: request → response": ms(response?.ts - send),
    "wasm: bytes taken in": ms(finish?.ts - response?.ts),
    "  of which main thread": ms(sum("wasm.OnBytesReceived")),
    "wasm: finish streaming": ms(finish?.dur),
    "wasm: response handed to V8 → compiled": ms(finish && streamed ? finish.ts + finish.dur - streamed.ts : NaN),
    "wasm: body loader done": ms(body?.dur),
    "wasm: instantiate": ms(build?.dur),
    "Go start": ms(engine - (build ? build.ts + build.dur : NaN)),
    "open store, table": ms(ready - engine),
    "total": ms(ready - start),
    "renderer's minor page faults (thousands)": faults / 1000,
    "wasm from the service worker": flag(response?.args?.data?.fromServiceWorker),
    "compiled module from V8's in-process cache": flag(one("CacheHit") || one("wasm.GetNativeModuleFromCache")),
    "compiled module from Chromium's code cache": flag(one("v8.wasm.moduleCacheHit")),
    "compiled module written to Chromium's code cache": flag(one("v8.wasm.cachedModule")),
    "functions compiled": events.filter((e) => e.name === "wasm.CompileLazy" || e.name === "wasm.CompileFunction").length,
  };
}

/**
 * traceImports runs the page and resolves with { name: [phases() per reload] }, name the
 * entry, followed by ", service worker" for its run under web/sw.js (sw true).
 */
export async function traceImports({ reloads = 5, entries = ["dist/tabletop.js"], newTab = false, sw = false, cache = false, traceDir, jsFlags, warmUp = 0 } = {}) {
  const server = await serve(web);
  const swServer = sw ? await serve(web) : undefined; // another port: another origin
  const cacheServer = cache ? await serve(web) : undefined;
  const profile = await mkdtemp(join(tmpdir(), "tabletop-import-"));
  const ctx = await chromium.launchPersistentContext(profile, { executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", headless: true, args: jsFlags ? [...args, `--js-flags=${jsFlags}`] : args });
  try {
    let page = ctx.pages()[0] ?? (await ctx.newPage());
    const runs = entries.map((entry) => ({ name: entry, entry, origin: server.url }));
    if (swServer) {
      await installWorker(page, swServer.url);
      runs.push(...entries.map((entry) => ({ name: `${entry}, service worker`, entry, origin: swServer.url, sw: true })));
    }
    if (cacheServer) runs.push(...entries.map((entry) => ({ name: `${entry}, wasm in Cache Storage`, entry, origin: cacheServer.url, cache: true })));
    let cdp, events = [];
    const attach = async () => {
      cdp = await ctx.newCDPSession(page);
      cdp.on("Tracing.dataCollected", (d) => events.push(...d.value));
    };
    await attach();
    const out = Object.fromEntries(runs.map((r) => [r.name, []]));
    // Each round starts with the next run, so that no run always follows the same one.
    const round = (i) => runs.map((_, k) => runs[(k + Math.max(i, 0)) % runs.length]);
    for (let i = -1; i < reloads; i++) for (const { name, entry, origin, sw, cache } of round(i)) {
      if (newTab && i >= 0) {
        const old = page;
        page = await ctx.newPage();
        await old.close();
        await attach();
      }
      await page.goto(`${origin}browser/blank.html`);
      events = [];
      const faultsBefore = await rendererFaults(profile);
      if (i >= 0) await cdp.send("Tracing.start", { categories: categories.join(","), transferMode: "ReportEvents" });
      await page.evaluate(async ([url, sw, cache, work]) => {
        if (sw && !navigator.serviceWorker.controller) throw new Error("the page is not controlled by sw.js");
        performance.mark("tt:start");
        const T = await import(url);
        performance.mark("tt:imported");
        await T.loadEngine({ wasmCache: cache });
        performance.mark("tt:engine");
        const store = await T.openStore("import", { inMemory: true });
        await new T.TableClient(store, "Bench").createTable();
        performance.mark("tt:ready");
        if (work) {
          // The first load runs the engine's hot code for a while and stays open, so that
          // V8 can optimise it and hand Chromium the module to cache (see --warm-up).
          const c = new T.TableClient(store, "Bench");
          for (let i = 0; i < work; i++) await c.createEntity({ partitionKey: "p", rowKey: String(i), n: i });
          for (let i = 0; i < work; i++) await c.getEntity("p", String(i));
          await new Promise((r) => setTimeout(r, 3000));
        }
        await store.close();
      }, [new URL(entry, origin).href, !!sw, !!cache, i < 0 ? warmUp : 0]);
      const faults = (await rendererFaults(profile)) - faultsBefore;
      if (i < 0 && cache) await stored(page, new URL("tabletop.wasm", new URL(entry, origin)).href);
      if (i < 0) continue; // the first load compiles; the reloads are the warm ones
      const done = new Promise((r) => cdp.once("Tracing.tracingComplete", r));
      await cdp.send("Tracing.end");
      await done;
      if (traceDir) await writeFile(join(traceDir, `import-${runs.findIndex((r) => r.name === name)}-${i}.json`), JSON.stringify(events));
      out[name].push(phases(events, faults));
    }
    return out;
  } finally {
    await ctx.close();
    server.close();
    swServer?.close();
    cacheServer?.close();
    await rm(profile, { recursive: true, force: true });
  }
}

/**
 * rendererFaults is the sum of the minor page faults (/proc/<pid>/stat's minflt) of the
 * renderer processes of the Chromium whose profile is profile: the faults of a load are
 * the difference across it (the page's renderer, reused by a same-origin reload, takes
 * them). NaN where there is no /proc.
 */
async function rendererFaults(profile) {
  try {
    const procs = new Map(); // pid → { ppid, minflt, cmd }
    for (const pid of (await readdir("/proc")).filter((d) => /^\d+$/.test(d))) {
      try {
        const stat = await readFile(`/proc/${pid}/stat`, "latin1");
        const f = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // f[0] is field 3, the state
        procs.set(pid, { ppid: f[1], minflt: Number(f[7]), cmd: await readFile(`/proc/${pid}/cmdline`, "latin1") });
      } catch {
        // the process ended meanwhile
      }
    }
    const browser = [...procs].find(([, p]) => p.cmd.includes(`--user-data-dir=${profile}`) && !p.cmd.includes("--type="))?.[0];
    const ours = (pid) => pid === browser || (procs.has(pid) && pid !== "1" && ours(procs.get(pid).ppid));
    let sum = 0;
    for (const [pid, p] of procs) if (p.cmd.includes("--type=renderer") && ours(pid)) sum += p.minflt;
    return browser ? sum : NaN;
  } catch {
    return NaN;
  }
}

/**
 * stored waits until the page's origin has the engine's wasm at url in Cache Storage (it
 * is stored in the background), so that each entry's first timed load finds its own copy.
 */
async function stored(page, url) {
  await page.evaluate(async (url) => {
    for (let i = 0; i < 300; i++) {
      if ((await (await caches.open("tabletop-engine")).keys()).some((k) => k.url.startsWith(`${url}?`))) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`the engine's wasm ${url} did not reach Cache Storage`);
  }, url);
}

/**
 * installWorker registers web/sw.js on origin (scope: web/, which holds the test page) and
 * waits until it is active, its shell (dist/ among it) precached.
 */
async function installWorker(page, origin) {
  await page.goto(`${origin}browser/blank.html`);
  await page.evaluate(async (url) => {
    const reg = await navigator.serviceWorker.register(url, { scope: "../" });
    const worker = reg.installing ?? reg.waiting ?? reg.active;
    if (worker.state !== "activated") {
      await new Promise((resolve, reject) =>
        worker.addEventListener("statechange", () => (worker.state === "activated" ? resolve() : worker.state === "redundant" && reject(new Error("sw.js failed to install")))),
      );
    }
  }, `${origin}sw.js`);
}

/**
 * faultSteps loads the wasm at path (relative to web/) step by step in reloaded pages and
 * resolves with [{ step: { ms, faults } }] per reload, the first (which stores the wasm in
 * Cache Storage and compiles it) left out.
 */
export async function faultSteps({ reloads = 5, wasm = "dist/tabletop.wasm" } = {}) {
  const server = await serve(web);
  const profile = await mkdtemp(join(tmpdir(), "tabletop-steps-"));
  const ctx = await chromium.launchPersistentContext(profile, { executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", headless: true, args });
  const steps = {
    "wasm_exec.js": async (exec) => void (globalThis.Go || (await import(exec))),
    "Cache Storage lookup": async (url) => {
      const cache = await caches.open("tabletop-steps");
      if (!(await cache.match(url))) await cache.put(url, await fetch(url));
      globalThis.res = await caches.match(url, { cacheName: "tabletop-steps" });
    },
    compileStreaming: async () => void (globalThis.mod = await WebAssembly.compileStreaming(globalThis.res)),
    instantiate: async () => {
      globalThis.go = new globalThis.Go();
      globalThis.inst = await WebAssembly.instantiate(globalThis.mod, globalThis.go.importObject);
    },
    "Go start": async () => void globalThis.go.run(globalThis.inst),
  };
  try {
    const page = ctx.pages()[0] ?? (await ctx.newPage());
    const out = [];
    for (let i = -1; i < reloads; i++) {
      await page.goto(`${server.url}browser/blank.html`);
      const row = {};
      for (const [name, fn] of Object.entries(steps)) {
        const before = await rendererFaults(profile);
        const ms = await page.evaluate(async ([body, arg]) => {
          const t = performance.now();
          await (0, eval)(`(${body})`)(arg);
          return performance.now() - t;
        }, [fn.toString(), name === "wasm_exec.js" ? `${server.url}dist/wasm_exec.js` : new URL(wasm, server.url).href]);
        row[name] = { ms, faults: (await rendererFaults(profile)) - before };
      }
      if (i >= 0) out.push(row);
    }
    return out;
  } finally {
    await ctx.close();
    server.close();
    await rm(profile, { recursive: true, force: true });
  }
}

/**
 * coldImports times import → ready of each entry (relative to web/) in a browser started
 * on an empty profile for each load, and resolves with { entry: [ms per round] }.
 */
export async function coldImports({ reloads = 5, entries = ["dist/tabletop.js"] } = {}) {
  const server = await serve(web);
  const out = Object.fromEntries(entries.map((e) => [e, []]));
  try {
    for (let i = 0; i < reloads; i++) {
      for (let k = 0; k < entries.length; k++) {
        const entry = entries[(k + i) % entries.length];
        const profile = await mkdtemp(join(tmpdir(), "tabletop-cold-"));
        const ctx = await chromium.launchPersistentContext(profile, { executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", headless: true, args });
        try {
          const page = ctx.pages()[0] ?? (await ctx.newPage());
          await page.goto(`${server.url}browser/blank.html`);
          const ms = await page.evaluate(async (url) => {
            const t = performance.now();
            const T = await import(url);
            const store = await T.openStore("import", { inMemory: true });
            await new T.TableClient(store, "Bench").createTable();
            const ms = performance.now() - t;
            await store.close();
            return ms;
          }, new URL(entry, server.url).href);
          out[entry].push(ms);
        } finally {
          await ctx.close();
          await rm(profile, { recursive: true, force: true });
        }
      }
    }
    return out;
  } finally {
    server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}` && process.argv.includes("--cold")) {
  const opt = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const results = await coldImports({ reloads: Number(opt("reloads") ?? 5), entries: opt("entry")?.split(",") });
  const median = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];
  console.log(`\ncold import → ready, a new profile each load (load average ${loadavg()[0].toFixed(1)}): ms\n`);
  const rounds = Object.values(results)[0].length;
  console.log(`| entry | ${Array.from({ length: rounds }, (_, i) => `load ${i + 1}`).join(" | ")} | median |`);
  console.log(`| --- |${" ---: |".repeat(rounds + 1)}`);
  for (const [entry, v] of Object.entries(results)) console.log(`| ${entry} | ${v.map((x) => x.toFixed(1)).join(" | ")} | ${median(v).toFixed(1)} |`);
} else if (import.meta.url === `file://${process.argv[1]}` && process.argv.includes("--steps")) {
  const opt = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const rows = await faultSteps({ reloads: Number(opt("reloads") ?? 5), wasm: opt("wasm") });
  console.log(`\n${opt("wasm") ?? "dist/tabletop.wasm"} started step by step, warm (load average ${loadavg()[0].toFixed(1)}): ms / minor page faults\n`);
  console.log(`| step | ${rows.map((_, i) => `reload ${i + 1}`).join(" | ")} |`);
  console.log(`| --- |${" ---: |".repeat(rows.length)}`);
  for (const k of Object.keys(rows[0])) console.log(`| ${k} | ${rows.map((r) => `${r[k].ms.toFixed(1)} / ${r[k].faults}`).join(" | ")} |`);
} else if (import.meta.url === `file://${process.argv[1]}`) {
  const opt = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const results = await traceImports({ reloads: Number(opt("reloads") ?? 5), entries: opt("entry")?.split(","), newTab: process.argv.includes("--new-tab"), sw: process.argv.includes("--sw"), cache: process.argv.includes("--cache"), traceDir: opt("trace-dir"), jsFlags: opt("js-flags"), warmUp: Number(opt("warm-up") ?? 0) });
  const median = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];
  const fmt = (v) => (Number.isNaN(v) ? "—" : v.toFixed(1));
  for (const [entry, runs] of Object.entries(results)) {
    const how = `${process.argv.includes("--new-tab") ? ", each load in a new tab" : ""}${opt("js-flags") ? `, V8 flags ${opt("js-flags")}` : ""}`;
    console.log(`\n${entry}, warm${how} (load average ${loadavg()[0].toFixed(1)}):\n`);
    console.log(`| phase (ms) | ${runs.map((_, i) => `reload ${i + 1}`).join(" | ")} | median |`);
    console.log(`| --- |${" ---: |".repeat(runs.length + 1)}`);
    for (const k of Object.keys(runs[0])) console.log(`| ${k} | ${runs.map((r) => fmt(r[k])).join(" | ")} | ${fmt(median(runs.map((r) => r[k])))} |`);
  }
}
