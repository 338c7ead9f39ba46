// Starts one Go instance of the worker wasm named by the first argument, as a Durable
// Object's first start does (an empty storage, the development account), waits until its
// store is open, and exits: what startup_test.go runs under
// `node --trace-wasm-compilation-times` to see which functions the start compiles. The
// second argument is Go's wasm_exec.js. Not a test file itself (node --test runs *.test.mjs).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { DEV_ACCOUNTS } from "../runtime.mjs";
import { kvStorage } from "../src/storage.mjs";

const require = createRequire(import.meta.url);
const { fakeStorage } = require("./fakestorage.cjs");
const [wasm, wasmExec] = process.argv.slice(2);
await import(wasmExec);

const go = new Go();
const binding = { account: "devstoreaccount1", storage: kvStorage(fakeStorage()) };
let ready;
const isReady = new Promise((resolve) => (ready = resolve));
const module = await WebAssembly.compile(readFileSync(wasm));
const instance = new WebAssembly.Instance(module, { ...go.importObject, workers: { ready: () => ready() } });
globalThis.context = { env: { TABLETOP_ACCOUNTS: DEV_ACCOUNTS }, ctx: {}, binding };
go.run(instance);
await isReady;
if (binding.startError) {
  console.error(binding.startError);
  process.exit(1);
}
process.exit(0);
