// Readies an isolate for its first object while the script loads, before any request
// waits: the Go runtime's start, the store's opening and the shared request path
// compiled, and a module instance made for the first Go start.
//
// V8 compiles a wasm function at its first call, and the code belongs to the module:
// every later instance of the module in the isolate runs it without compiling again. The
// first Go instance an isolate starts therefore paid for compiling the Go runtime's
// start, the store's opening and the request path, most of a cold start (worker/edge/README.md,
// "Where a cold start's time goes"). warmUp pays it as the script loads instead, in a Go
// instance of its own that serves WARM_UP_CALLS over an in-memory store and then ends,
// and makes the spare instance the isolate's first object starts Go in (gohost.mjs,
// prepareSpare). This is work a first request did anyway, moved before it, plus the
// throw-away instance's own: where the runtime loads the script for a request, the load
// and the request together take about as long as before (bench-cold.mjs); where it
// loads the script first (a local runtime, or a warm isolate), the first request is
// fast. The Workers runtime allows a script's global scope 1 second to parse and run
// (Cloudflare's Workers limits, "Worker startup time").
//
// The global scope may generate no random values and set no timers: the throw-away
// instance takes its random bytes from Math.random (it serves no one, so its map seeds
// need no secrecy) and its long timers are deferred like every instance's (gotimers.mjs);
// the Go program sets no shorter one. Nor may it make a Request with a body, so the calls
// cross into Go as heads and bodies (frame.mjs), as an object's do. It touches no
// object's storage: it has an account of its own, served by nothing else.
import { instantiate, runGo, prepareSpare } from "./gohost.mjs";
import { signedHead } from "./restcall.mjs";
import { headerLines, statusOf } from "./exchange.mjs";
import { kvStorage } from "./storage.mjs";

/** ACCOUNT and KEY are the throw-away instance's account and its key. */
const ACCOUNT = "warmup";
const KEY = btoa("tabletop warm-up key, serves no one");

/** TABLE is the table the warm-up calls use. */
const TABLE = "WarmUp";

/** entity is an entity's JSON body with a property of each common type. */
const entity = (rowKey) =>
  JSON.stringify({
    PartitionKey: "p",
    RowKey: rowKey,
    s: "text",
    i: 7,
    d: 1.5,
    b: true,
    l: "9007199254740993",
    "l@odata.type": "Edm.Int64",
    t: "2026-01-02T03:04:05.678Z",
    "t@odata.type": "Edm.DateTime",
    g: "0f8fad5b-d9cb-469f-a165-70867728950e",
    "g@odata.type": "Edm.Guid",
    x: "AAEC",
    "x@odata.type": "Edm.Binary",
  });

/**
 * WARM_UP_CALLS are the calls the warm-up serves: a Create Table and an insert, which run
 * the path every call shares (the request's decoding, Shared Key authentication, a
 * commit, the answer's encoding). Each other kind of call compiles its own code at its
 * first use: serving a point read, a query and the rest too would lengthen the script's
 * load for no gain on a first Create Table (bench-cold.mjs).
 */
const WARM_UP_CALLS = [
  { method: "POST", path: "/Tables", body: JSON.stringify({ TableName: TABLE }) },
  { method: "POST", path: `/${TABLE}`, body: entity("a") },
];

/**
 * WARM_UP_OPS are the operations besides the REST API (worker/edge/object, Internal)
 * that an object's first request asks of Go: an account object's when it gives a table, a
 * table object's as it checks that it holds its table and after a write (the split check).
 */
const WARM_UP_OPS = [["tableName", TABLE], ["ensureTable", TABLE], ["properties"], ["setProperties", ""], ["size"], ["bytes"]];

/**
 * warmed is how the isolate's warm-up went (the debug route reports it): "pending",
 * "done", or "failed: " and the reason.
 */
export const warmed = { outcome: "pending" };

/**
 * warmUp compiles the Go start and the shared request path in a throw-away Go instance,
 * then makes the spare instance. It never rejects: a failure is logged and recorded in
 * warmed, and costs only the first start its compilation.
 */
export async function warmUp() {
  try {
    await serveWarmUpCalls();
    warmed.outcome = "done";
  } catch (err) {
    warmed.outcome = `failed: ${err.message}`;
    console.error(`tabletop: warm-up ${warmed.outcome}`);
  }
  try {
    prepareSpare();
  } catch (err) {
    console.error(`tabletop: no spare instance: ${err.message}`);
  }
}

// serveWarmUpCalls starts a throw-away Go instance, serves WARM_UP_CALLS, runs
// WARM_UP_OPS, and ends it.
async function serveWarmUpCalls() {
  const go = await runGo(instantiate(mathRandomBytes), {
    env: { TABLETOP_ACCOUNTS: `${ACCOUNT}:${KEY}` },
    ctx: {},
    binding: { account: ACCOUNT, storage: kvStorage(memoryStorage()) },
  });
  try {
    for (const call of WARM_UP_CALLS) {
      const { url, headers } = await signedHead({ account: ACCOUNT, key: KEY, ...call });
      const [head] = go.serve(`${call.method} ${url}\n${headerLines(headers)}`, encoder.encode(call.body ?? ""));
      if (statusOf(head) >= 300) throw new Error(`${call.method} ${call.path} answered ${statusOf(head)}`);
    }
    for (const [op, arg] of WARM_UP_OPS) await go.call(op, arg);
  } finally {
    go.go.exit = () => {}; // the exit code of "exit" is expected
    await go.call("exit").catch(() => {});
  }
}

const encoder = new TextEncoder();

/** mathRandomBytes fills view from Math.random, which the global scope allows. */
function mathRandomBytes(view) {
  for (let i = 0; i < view.length; i++) view[i] = (Math.random() * 256) | 0;
}

/**
 * memoryStorage is, in memory, the part of a SQLite-backed Durable Object's storage that
 * kvStorage uses: kv.get, kv.put, kv.delete, kv.list by prefix in key order, and
 * transactionSync (without rollback: the throw-away store is dropped on any failure).
 */
function memoryStorage() {
  const data = new Map();
  return {
    kv: {
      get: (key) => data.get(key),
      put: (key, value) => void data.set(key, value.slice()),
      delete: (key) => data.delete(key),
      *list({ prefix = "" } = {}) {
        for (const k of [...data.keys()].filter((k) => k.startsWith(prefix)).sort()) yield [k, data.get(k)];
      },
    },
    transactionSync: (fn) => fn(),
  };
}
