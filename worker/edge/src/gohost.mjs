// Starts and talks to the long-lived Go instance of one Durable Object.
//
// syumai/workers' stock shim starts a Go instance per request; here the compiled module is
// imported once per isolate and instantiated once per object (the isolate's first object
// in an instance made as the script loaded: prepareSpare). The runtime context is in
// syumai/workers' shape ({env, ctx, binding}); Go reads it once, while it starts, which is
// synchronous here.
import "../build/wasm_exec.js";
import wasm from "../build/app.wasm";
import { kvStorage } from "./storage.mjs";
import { serveFrame } from "./frame.mjs";
import { deferLongTimers } from "./gotimers.mjs";

/**
 * GoInstance is a started Go instance: serve answers requests, call runs internal
 * operations. If the program ends or traps, what is pending fails and the instance
 * reports itself exited, so that the object starts a new one from its storage. Its long
 * timers fire before its next call, once due, not on time (gotimers.mjs).
 */
export class GoInstance {
  constructor(go, exports, binding, exit, timers) {
    this.go = go;
    this.exports = exports;
    this.binding = binding;
    this.timers = timers;
    this.broken = false;
    this.exit = exit.then(() => {
      throw new Error("the Go program exited");
    });
    this.exit.catch(() => {});
  }

  /** exited tells whether the Go program has ended or trapped (it then serves nothing more). */
  get exited() {
    return this.go.exited || this.broken;
  }

  /** memoryBytes is the size of the instance's linear memory (it never shrinks). */
  get memoryBytes() {
    return this.go.mem.buffer.byteLength;
  }

  /**
   * serve answers one request, given as head (a string) and body (a Uint8Array), with
   * [head, body], in one synchronous call into Go (frame.mjs). It throws if the instance
   * has exited, or if the call fails or traps (the instance is then broken).
   */
  serve(head, body) {
    if (this.exited) throw new Error("the Go program exited");
    try {
      this.timers.fireDue();
      return serveFrame(this.exports, this.exports.mem, head, body);
    } catch (err) {
      this.broken = true;
      throw err;
    }
  }

  /** call runs an internal operation (see worker/edge/object, Internal) and resolves to its result. */
  call(op, arg = "") {
    return this.guard((done, fail) => this.binding.call(op, arg, (res, err) => (err ? fail(new Error(`${op}: ${err}`)) : done(res))));
  }

  // guard runs one call into Go, racing it with the program's end; a trap marks the
  // instance broken.
  guard(start) {
    const answer = new Promise((resolve, reject) => {
      try {
        this.timers.fireDue();
        start(resolve, reject);
      } catch (err) {
        this.broken = true;
        reject(err);
      }
    });
    return Promise.race([answer, this.exit]);
  }
}

/** started counts the Go instances started in this isolate (the debug route reports it). */
export const started = { count: 0 };

/**
 * startGo starts a Go instance for the object whose state (ctx) is given, serving account
 * from the object's storage, in the spare instance if there is one (prepareSpare). It
 * resolves once the store is loaded.
 */
export function startGo({ env, ctx, account }) {
  started.count++;
  const made = spare ?? instantiate();
  spare = undefined;
  return runGo(made, { env, ctx, binding: { account, storage: kvStorage(ctx.storage) } });
}

/** spare is a module instance made ahead of need, which the next startGo runs. */
let spare;

/**
 * prepareSpare instantiates the module for the isolate's next startGo, if no spare is
 * waiting. Instantiating copies the module's large static data into a new linear
 * memory, the largest step of a Go instance's start once its code is compiled; done when
 * the script loads (warmup.mjs), it is off the first request's path. It runs no Go.
 */
export function prepareSpare() {
  spare ??= instantiate();
}

/** spareReady tells whether a spare instance waits for the next startGo. */
export function spareReady() {
  return spare !== undefined;
}

/**
 * instantiate makes a module instance that no Go has run in yet: { go, instance, timers,
 * hooks }, hooks.ready being what the program's ready import calls. randomBytes, if
 * given, fills the Uint8Array Go asks to be filled with random bytes, in place of
 * crypto.getRandomValues (warmup.mjs).
 */
export function instantiate(randomBytes) {
  const go = new Go();
  const timers = deferLongTimers(go);
  if (randomBytes) {
    go.importObject.gojs["runtime.getRandomData"] = (sp) => {
      sp >>>= 0;
      const at = Number(go.mem.getBigInt64(sp + 8, true));
      randomBytes(new Uint8Array(go.mem.buffer, at, Number(go.mem.getBigInt64(sp + 16, true))));
    };
  }
  const hooks = { ready() {} };
  const instance = new WebAssembly.Instance(wasm, { ...go.importObject, workers: { ready: () => hooks.ready() } });
  return { go, instance, timers, hooks };
}

/**
 * runGo runs Go in an instance instantiate made, with the runtime context {env, ctx,
 * binding}, and resolves to the started GoInstance once the program is ready.
 */
export async function runGo({ go, instance, timers, hooks }, { env, ctx, binding }) {
  const isReady = new Promise((resolve) => (hooks.ready = resolve));
  const saved = globalThis.context;
  globalThis.context = { env, ctx, binding };
  let exit;
  try {
    exit = go.run(instance);
  } finally {
    globalThis.context = saved;
  }
  await Promise.race([isReady, exit]);
  if (binding.startError) throw new Error(`start tabletop: ${binding.startError}`);
  if (go.exited) throw new Error("start tabletop: the Go program exited");
  return new GoInstance(go, instance.exports, binding, exit, timers);
}
