// The stateless entry Worker: it finds the Durable Object that answers a request and hands
// the request over. It holds no Go instance and no state. It refuses a request with no
// or malformed credentials itself (door.mjs); every signature is checked in the object, in
// the same Go handler the native server runs.
import { route, batchRoute, accountNames, objectName } from "./route.mjs";
import { OBJECT_HEADER, tableStub, accountStub } from "./objects.mjs";
import { forwardTable, subscribe } from "./ranges.mjs";
import { isSubscription } from "./subscribe.mjs";
import { errorResponse, headerLines, serviceError } from "./exchange.mjs";
import { refusal } from "./door.mjs";
import { readBody, dropRest, BodyRefused } from "./body.mjs";
import { withCors } from "./cors.mjs";
import { started, spareReady } from "./gohost.mjs";
import { warmUp, warmed } from "./warmup.mjs";

export { TableObject, AccountObject } from "./objects.mjs";
export { Tabletop } from "./rpc.mjs"; // the Workers RPC entrypoint for service bindings

// Each isolate readies its first object's Go start as it loads the script (warmup.mjs).
warmUp();

// NO_ACCOUNTS answers every request of a worker deployed without TABLETOP_ACCOUNTS: it
// serves no account, the development account included, until one is configured.
const NO_ACCOUNTS =
  "Server failed to authenticate the request. This Tabletop worker has no account configured: " +
  "set the TABLETOP_ACCOUNTS secret (wrangler secret put TABLETOP_ACCOUNTS, name:base64key[:key2];…).";

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const accounts = served(env);
    const res = await serve(request, env, url, accounts);
    if (accounts.length === 0) return res;
    return withCors(env, route(request.method, request.url, accounts).account, request, res);
  },
};

/** serve answers request (its URL url) for the accounts served. */
async function serve(request, env, url, accounts) {
  try {
    const path = url.pathname;
    if (path === "/__tabletop/ping") return new Response("pong");
    if (env.TABLETOP_DEBUG === "1" && path.startsWith("/__tabletop/")) return await debug(request, env);
    if (accounts.length === 0) return errorResponse(NO_ACCOUNTS, 403, "AuthenticationFailed");
    if (isSubscription(request, url)) return await subscribe(env, route(request.method, request.url, accounts), request, url); // its ticket authorizes it
    const refused = refusal(request, url, accounts);
    if (refused) return refused;
    let r = route(request.method, request.url, accounts);
    const body = await readBody(request);
    if (r.batch) r = { ...batchRoute(body ? new TextDecoder().decode(body) : "", request.url, accounts), batch: true };
    if (!r.table) return await toAccount(env, r.account, request, body);
    const { method, headers } = request;
    const forwarded = { method, url: request.url, object: objectName(r.account, r.table), lines: headerLines(headers, INTERNAL), origin: headers.has("origin") };
    return await forwardTable(env, r, forwarded, body);
  } catch (err) {
    if (!(err instanceof BodyRefused)) return errorResponse(err);
    await dropRest(request);
    return serviceError(request, url, err);
  }
}

/** INTERNAL are the headers the glue passes between its parts: a client's own are dropped. */
const INTERNAL = new Set([OBJECT_HEADER]);

/** toAccount hands a request to the account object, with its body read (bytes or null). */
function toAccount(env, account, request, body) {
  const headers = new Headers(request.headers);
  headers.set(OBJECT_HEADER, account);
  const bodyless = request.method === "GET" || request.method === "HEAD";
  return accountStub(env, account).fetch(new Request(request, { headers, body: bodyless ? null : body }));
}

let accounts = { value: undefined, names: [] };

/** served is the names of the accounts served, read from TABLETOP_ACCOUNTS once per value. */
function served(env) {
  const value = env.TABLETOP_ACCOUNTS;
  if (value !== accounts.value) accounts = { value, names: accountNames(value) };
  return accounts.names;
}

// GET /__tabletop/ping answers "pong" from the entry Worker alone: a health check that
// starts no object. When TABLETOP_DEBUG is "1" (the test runtime sets it; wrangler.toml
// does not), debug answers GET /__tabletop/stats/{account}[/{table}] with an object's
// counters, /__tabletop/exit/… ends its Go instance, /__tabletop/started says how many
// Go instances this isolate has started (with how its warm-up went and whether a spare
// instance waits), and /__tabletop/map/{account}/{table} gives a
// table's partition map, with the splits left unsettled, before it settles them.
async function debug(request, env) {
  const [, , what, account, table] = new URL(request.url).pathname.split("/").map(decodeURIComponent);
  if (what === "started") return Response.json({ started: started.count, warmUp: warmed.outcome, spare: spareReady() });
  if (what === "map") return Response.json(await accountStub(env, account).debugMap(account, table));
  if ((what !== "stats" && what !== "exit") || !account) return new Response("not found", { status: 404 });
  const stub = table ? tableStub(env, account, table) : accountStub(env, account);
  return Response.json(what === "stats" ? await stub.stats(account, table) : { exited: await stub.exitGo(account) });
}
