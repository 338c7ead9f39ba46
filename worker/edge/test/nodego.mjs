// Runs the built worker wasm in Node, with no runtime around it, for the tests that call
// into Go directly. Needs make worker. Not a test file itself (node --test runs *.test.mjs).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import { edgeDir, DEV_ACCOUNTS } from "../runtime.mjs";
import { kvStorage } from "../src/storage.mjs";
import { serveFrame } from "../src/frame.mjs";
import { accountKeys, signedRequest } from "../src/restcall.mjs";

const { fakeStorage } = createRequire(import.meta.url)("./fakestorage.cjs");
await import(join(edgeDir, "build", "wasm_exec.js"));

/**
 * startGo runs one Go instance of the worker wasm over an empty storage, as an object's
 * first start does, or over storage (a fake ctx.storage, fakestorage.cjs) as a restart
 * does, and creates table. prepare(go), if given, runs before the module is instantiated.
 * It resolves to {go, binding, exit, exports}; stopGo ends it.
 */
export async function startGo(table, prepare = () => {}, storage = fakeStorage()) {
  const go = new Go();
  prepare(go);
  const binding = { account: "devstoreaccount1", storage: kvStorage(storage) };
  let ready;
  const isReady = new Promise((resolve) => (ready = resolve));
  const module = await WebAssembly.compile(readFileSync(join(edgeDir, "build", "app.wasm")));
  const instance = new WebAssembly.Instance(module, { ...go.importObject, workers: { ready: () => ready() } });
  globalThis.context = { env: { TABLETOP_ACCOUNTS: DEV_ACCOUNTS }, ctx: {}, binding };
  const exit = go.run(instance);
  await isReady;
  if (binding.startError !== undefined) throw new Error(`start: ${binding.startError}`);
  await new Promise((resolve, reject) => binding.call("ensureTable", table, (_, err) => (err ? reject(new Error(err)) : resolve())));
  return { go, binding, exit, exports: instance.exports };
}

/**
 * stopGo ends an instance startGo started. The program runs until it is told to end, and
 * its timers would keep the test's process alive: it is told, and the timers it left
 * with wasm_exec.js are dropped.
 */
export async function stopGo({ go, binding, exit }) {
  go.exit = () => {}; // the exit code the "exit" operation gives is expected
  binding.call("exit", "", () => {});
  await exit;
  for (const timer of go._scheduledTimeouts.values()) clearTimeout(timer);
}

/**
 * serveSigned signs a request for the development account, sends it through serveFrame
 * and returns [status, headers (a Map by lowercase name), body text].
 */
export async function serveSigned(exports, method, path, { body, headers } = {}) {
  const key = accountKeys(DEV_ACCOUNTS).get("devstoreaccount1");
  const req = await signedRequest({ account: "devstoreaccount1", key, method, path, body, headers });
  let head = `${req.method} ${req.url}\n`;
  for (const [k, v] of req.headers) head += `${k}: ${v}\n`;
  const [h, b] = serveFrame(exports, exports.mem, head, new Uint8Array(await req.arrayBuffer()));
  const [status, ...lines] = h.split("\n");
  const answer = new Map(lines.filter(Boolean).map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
  return [Number(status), answer, new TextDecoder().decode(b)];
}
