// A Go instance of the worker wasm, in Node, with its long timers deferred
// (src/gotimers.mjs): buntdb's one-second ticker never becomes a JavaScript timer, so an
// idle object has nothing pending, and it fires at the next call once due. Needs make worker.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { deferLongTimers, LONG_TIMER_MS } from "../src/gotimers.mjs";
import { startGo, stopGo, serveSigned } from "./nodego.mjs";

// Every setTimeout the test's process is asked for, by delay.
const delays = [];
const realSetTimeout = globalThis.setTimeout;
globalThis.setTimeout = (fn, ms, ...args) => {
  delays.push(ms);
  return realSetTimeout(fn, ms, ...args);
};
const longTimeouts = () => delays.filter((ms) => ms >= LONG_TIMER_MS).length;

let timers;
const instance = await startGo("Timers", (go) => (timers = deferLongTimers(go)));
const { go, exports } = instance;
after(async () => {
  timers.fireDue();
  await stopGo(instance);
  globalThis.setTimeout = realSetTimeout;
});

test("a started instance waits on a deferred timer, not on a JavaScript one", () => {
  assert.ok(timers.pending, "Go waits for buntdb's ticker");
  assert.equal(longTimeouts(), 0, `setTimeout delays asked for: ${delays}`);
});

test("a due timer fires at the next call, and Go waits for the next tick the same way", async () => {
  const asked = go._nextCallbackTimeoutID;
  timers.fireDue(); // not due yet: Go is not resumed
  assert.equal(go._nextCallbackTimeoutID, asked);
  await new Promise((resolve) => realSetTimeout(resolve, 1100));
  timers.fireDue(); // as GoInstance does before each call
  assert.ok(go._nextCallbackTimeoutID > asked, "the ticker ran and asked for its next tick");
  assert.ok(timers.pending);
  assert.equal(longTimeouts(), 0, `setTimeout delays asked for: ${delays}`);
  const [status] = await serveSigned(exports, "GET", "/Timers(PartitionKey='p',RowKey='r')");
  assert.equal(status, 404); // the instance serves as before
});
