// make bench (edge part): where a cold start's time goes, step by step, for the worker wasm
// (build/app.wasm) in Node's V8, with no runtime around it: compiling the module (V8
// compiles wasm functions lazily, on their first call, unless --no-wasm-lazy-compilation),
// instantiating it, running Go until the object's store is open (Go runtime and package
// initialisation, then the store), and the first requests. Each step is timed twice: for
// the first Go instance in a fresh process (which also compiles every function it runs)
// and for a second instance of the same module (compiled code reused), the difference
// being the compile cost. Local workerd's timers do not advance while wasm runs, so the
// steps cannot be timed there; bench.mjs measures the whole request in workerd.
//
// Each step also counts the minor page faults it took (first touches of fresh memory:
// wasm memory, compiled code, V8's heaps), and the run measures what one costs on this
// machine. Beside the program, the same steps are timed for a Go program that only
// starts (FLOOR_GO below, built into a temporary directory): the floor any Go wasm start
// stands on, whatever the program does.
//
// A third program is the worker itself, built again with main.stopAt set to "main" (see
// main_js.go): it stops where main begins, so its init step is the runtime's start plus
// this program's package initialisation, and the worker's init minus it is the opening of
// the store. Each step's CPU time (all of Node's threads: V8 compiles wasm and collects
// garbage on others) is printed beside its wall time, a steadier figure on a loaded machine.
//
// Usage: node bench-start.mjs            (each run is a fresh Node process; WASM=path
//        times another build of the program, RUNS=n sets the number of runs)
//        node --no-wasm-lazy-compilation bench-start.mjs
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";
import { spawnSync } from "node:child_process";
import { edgeDir, DEV_ACCOUNTS } from "./runtime.mjs";
import { kvStorage } from "./src/storage.mjs";
import { serveFrame } from "./src/frame.mjs";
import { signedRequest, accountKeys } from "./src/restcall.mjs";

const require = createRequire(import.meta.url);
const RUNS = Number(process.env.RUNS ?? 5);

// FLOOR_GO is a Go program that starts, tells the host it is ready, and waits: no
// package beyond the runtime and syscall/js.
const FLOOR_GO = `package main

import "syscall/js"

//go:wasmimport workers ready
func ready()

func main() {
	js.Global().Get("context").Get("binding").Set("started", true)
	ready()
	select {}
}
`;

if (process.argv[2] !== "--child" && process.argv[2] !== "--floor" && process.argv[2] !== "--main") {
  const children = (mode, env) => {
    const rows = [];
    for (let r = 0; r < RUNS; r++) {
      const res = spawnSync(process.execPath, [...process.execArgv, import.meta.filename, mode], { encoding: "utf8", env: { ...process.env, ...env } });
      if (res.status !== 0) throw new Error(res.stderr);
      rows.push(JSON.parse(res.stdout));
    }
    return rows;
  };
  const rows = children("--child", {});
  const floorDir = mkdtempSync(join(tmpdir(), "tabletop-floor-"));
  let floor, atMain;
  try {
    writeFileSync(join(floorDir, "main.go"), FLOOR_GO);
    writeFileSync(join(floorDir, "go.mod"), "module floor\n\ngo 1.24\n");
    const built = spawnSync("go", ["build", "-trimpath", "-ldflags=-s -w", "-o", "floor.wasm", "."], { cwd: floorDir, encoding: "utf8", env: { ...process.env, GOOS: "js", GOARCH: "wasm", GOFLAGS: "" } });
    if (built.status !== 0) throw new Error(`build the floor program: ${built.stderr}`);
    const packed = spawnSync("go", ["run", "../../scripts/packdata", join(floorDir, "floor.wasm")], { cwd: edgeDir, encoding: "utf8" }); // as build.sh packs the worker's
    if (packed.status !== 0) throw new Error(`pack the floor program: ${packed.stderr}`);
    floor = children("--floor", { WASM: join(floorDir, "floor.wasm") });
    const builtMain = spawnSync("go", ["build", "-trimpath", "-ldflags=-s -w -X main.stopAt=main", "-o", join(floorDir, "main.wasm"), "."], { cwd: edgeDir, encoding: "utf8", env: { ...process.env, GOOS: "js", GOARCH: "wasm" } });
    if (builtMain.status !== 0) throw new Error(`build the worker stopping at main: ${builtMain.stderr}`);
    const packedMain = spawnSync("go", ["run", "../../scripts/packdata", join(floorDir, "main.wasm")], { cwd: edgeDir, encoding: "utf8" });
    if (packedMain.status !== 0) throw new Error(`pack the worker stopping at main: ${packedMain.stderr}`);
    atMain = children("--main", { WASM: join(floorDir, "main.wasm") });
  } finally {
    rmSync(floorDir, { recursive: true, force: true });
  }
  const median = (k, rs = rows) => [...rs.map((r) => r[k])].sort((a, b) => a - b)[Math.floor(rs.length / 2)];
  const f = (k, rs = rows) => `${median(k, rs).toFixed(1)} ms (CPU ${median(`${k}Cpu`, rs).toFixed(1)} ms, ${median(`${k}Faults`, rs)} page faults)`;
  const flags = process.execArgv.join(" ") || "V8 defaults (lazy wasm compilation)";
  console.log(`start-up in Node, ${flags}, median of ${RUNS} fresh processes (minor page faults of each step beside it):`);
  console.log(`  compile module ${f("compile")}; first instance: instantiate ${f("instantiate1")}, Go init until the store is open ${f("init1")}, first request ${f("request1")}, second request ${f("request1b")}`);
  console.log(`  second instance of the same module: instantiate ${f("instantiate2")}, Go init ${f("init2")}, first request ${f("request2")}`);
  const perFault = rows.map((r) => (r.touch * 1000) / Math.max(1, r.touchFaults)).sort((a, b) => a - b)[Math.floor(rows.length / 2)];
  console.log(`  the same worker stopped where main begins (the runtime and our package initialisation, no store): instantiate ${f("instantiate1", atMain)}, Go init ${f("init1", atMain)}`);
  console.log(`  a Go program that only starts (the runtime's floor): compile module ${f("compile", floor)}; instantiate ${f("instantiate1", floor)}, Go init ${f("init1", floor)}; second instance: instantiate ${f("instantiate2", floor)}, Go init ${f("init2", floor)}`);
  console.log(`  a page fault (first touch of a 4 KiB page) costs ${perFault.toFixed(1)} µs on this machine (16 MiB of fresh memory filled: ${f("touch")})`);
  process.exit(0);
}

// --child: one measurement in this fresh process.
await import(join(edgeDir, "build", "wasm_exec.js"));
const { fakeStorage } = require("./test/fakestorage.cjs");
const bytes = readFileSync(process.env.WASM ?? join(edgeDir, "build", "app.wasm"));
const out = {};
// time runs one step and records its wall time, its CPU time (all threads) and the minor
// page faults it took (each first touch of a page of memory: wasm memory, compiled code,
// the JavaScript heap).
const time = async (name, fn) => {
  const f0 = process.resourceUsage().minorPageFault;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const v = await fn();
  out[name] = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  out[`${name}Cpu`] = (cpu.user + cpu.system) / 1000;
  out[`${name}Faults`] = process.resourceUsage().minorPageFault - f0;
  return v;
};

const module = await time("compile", () => WebAssembly.compile(bytes));
if (process.argv[2] === "--floor" || process.argv[2] === "--main") {
  for (const n of ["1", "2"]) {
    const go = new Go();
    const binding = {};
    let ready;
    const isReady = new Promise((resolve) => (ready = resolve));
    const instance = await time(`instantiate${n}`, () => new WebAssembly.Instance(module, { ...go.importObject, workers: { ready: () => ready() } }));
    await time(`init${n}`, async () => {
      globalThis.context = { env: {}, ctx: {}, binding };
      go.run(instance);
      await isReady;
    });
    if (process.argv[2] === "--floor" && !binding.started) throw new Error("the floor program did not start");
  }
  process.stdout.write(JSON.stringify(out));
  process.exit(0);
}
const go1 = await start("1");
const put1 = await prepare("PUT", "/bench(PartitionKey='p',RowKey='r')", '{"n":1}');
const get1 = await prepare("GET", "/bench(PartitionKey='p',RowKey='r')");
const put2 = await prepare("PUT", "/bench(PartitionKey='p',RowKey='r')", '{"n":2}');
await time("request1", () => serve(go1, put1));
await time("request1b", () => serve(go1, get1));
const go2 = await start("2");
await time("request2", () => serve(go2, put2));
// What one page fault costs on this machine: first touch of 16 MiB of fresh memory.
await time("touch", () => new Uint8Array(16 << 20).fill(1));
process.stdout.write(JSON.stringify(out));
process.exit(0);

/** start instantiates the module and runs Go until it is ready, timing each step; it returns the exports and memory serve needs. */
async function start(n) {
  const go = new Go();
  const storage = fakeStorage();
  const binding = { account: "devstoreaccount1", storage: kvStorage(storage) };
  let ready;
  const isReady = new Promise((resolve) => (ready = resolve));
  const instance = await time(`instantiate${n}`, () => new WebAssembly.Instance(module, { ...go.importObject, workers: { ready: () => ready() } }));
  await time(`init${n}`, async () => {
    globalThis.context = { env: { TABLETOP_ACCOUNTS: DEV_ACCOUNTS }, ctx: {}, binding };
    go.run(instance);
    await isReady;
  });
  if (binding.startError) throw new Error(binding.startError);
  // The table, outside the timed steps (as a stored table would be).
  await new Promise((resolve, reject) => binding.call("ensureTable", "bench", (_, err) => (err ? reject(new Error(err)) : resolve())));
  return { exports: instance.exports, memory: instance.exports.mem };
}

/** prepare signs one request with the account's key, in the bridge's form (outside the timed steps). */
async function prepare(method, path, body) {
  const key = accountKeys(DEV_ACCOUNTS).get("devstoreaccount1");
  const req = await signedRequest({ account: "devstoreaccount1", key, method, path, body });
  let head = `${req.method} ${req.url}\n`;
  for (const [k, v] of req.headers) head += `${k}: ${v}\n`;
  return { head, data: new Uint8Array(await req.arrayBuffer()) };
}

/** serve sends one prepared request and checks its status. */
async function serve({ exports, memory }, { head, data }) {
  const [answer] = serveFrame(exports, memory, head, data);
  if (!/^20[04]\n/.test(answer)) throw new Error(`${head.split("\n")[0]}: ${answer}`);
}
