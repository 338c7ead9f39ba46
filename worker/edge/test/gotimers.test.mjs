// A Go instance of the worker wasm, in Node, with its long timers deferred
// (src/gotimers.mjs): buntdb's one-second ticker never becomes a JavaScript timer, so an
// idle object has nothing pending, and it fires at the next call once due. Needs make worker.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import { edgeDir, DEV_ACCOUNTS } from "../runtime.mjs";
import { kvStorage } from "../src/storage.mjs";
import { serveFrame } from "../src/frame.mjs";
import { deferLongTimers, LONG_TIMER_MS } from "../src/gotimers.mjs";
import { accountKeys, signedRequest } from "../src/restcall.mjs";

const { fakeStorage } = createRequire(import.meta.url)("./fakestorage.cjs");
await import(join(edgeDir, "build", "wasm_exec.js"));

// Every setTimeout the test's process is asked for, by delay.
const delays = [];
const realSetTimeout = globalThis.setTimeout;
globalThis.setTimeout = (fn, ms, ...args) => {
  delays.push(ms);
  return realSetTimeout(fn, ms, ...args);
};
const longTimeouts = () => delays.filter((ms) => ms >= LONG_TIMER_MS).length;

const go = new Go();
const timers = deferLongTimers(go);
const binding = { account: "devstoreaccount1", storage: kvStorage(fakeStorage()) };
let ready;
const isReady = new Promise((resolve) => (ready = resolve));
const module = await WebAssembly.compile(readFileSync(join(edgeDir, "build", "app.wasm")));
const instance = new WebAssembly.Instance(module, { ...go.importObject, workers: { ready: () => ready() } });
globalThis.context = { env: { TABLETOP_ACCOUNTS: DEV_ACCOUNTS }, ctx: {}, binding };
const exit = go.run(instance);
await isReady;
assert.equal(binding.startError, undefined);

after(async () => {
  go.exit = () => {}; // the exit code the "exit" operation gives is expected
  timers.fireDue();
  binding.call("exit", "", () => {});
  await exit;
  globalThis.setTimeout = realSetTimeout;
});

/** get reads an entity of table Timers through the request frame and returns the answer's status line. */
async function get() {
  const key = accountKeys(DEV_ACCOUNTS).get("devstoreaccount1");
  const req = await signedRequest({ account: "devstoreaccount1", key, method: "GET", path: "/Timers(PartitionKey='p',RowKey='r')" });
  let head = `${req.method} ${req.url}\n`;
  for (const [k, v] of req.headers) head += `${k}: ${v}\n`;
  timers.fireDue(); // as GoInstance.serve does
  const [answer] = serveFrame(instance.exports, instance.exports.mem, head, new Uint8Array());
  return answer.split("\n")[0];
}

test("a started instance waits on a deferred timer, not on a JavaScript one", () => {
  assert.ok(timers.pending, "Go waits for buntdb's ticker");
  assert.equal(longTimeouts(), 0, `setTimeout delays asked for: ${delays}`);
});

test("a due timer fires at the next call, and Go waits for the next tick the same way", async () => {
  const asked = go._nextCallbackTimeoutID;
  timers.fireDue(); // not due yet: Go is not resumed
  assert.equal(go._nextCallbackTimeoutID, asked);
  await new Promise((resolve) => realSetTimeout(resolve, 1100));
  timers.fireDue();
  assert.ok(go._nextCallbackTimeoutID > asked, "the ticker ran and asked for its next tick");
  assert.ok(timers.pending);
  await new Promise((resolve, reject) => binding.call("ensureTable", "Timers", (_, err) => (err ? reject(new Error(err)) : resolve())));
  assert.equal(longTimeouts(), 0, `setTimeout delays asked for: ${delays}`);
  assert.equal(await get(), "404"); // the instance serves as before
});
