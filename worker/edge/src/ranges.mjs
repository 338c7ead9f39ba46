// Routing a table's requests by its partition map, at the entry Worker.
//
// The map comes from the account object and is cached here, per isolate. Each request to
// a table object goes by RPC (TableObject.handle) and says which range it was routed to
// and, when it concerns one partition, which (see partition.mjs). An object that does not
// serve that range, or whose part of it is moving to another object, refuses it; the
// entry Worker then reads the map again and tries again, with a short backoff, for up to
// RETRY_MS, and finally answers 503 ServerBusy, which every Azure SDK retries.
//
//   one partition (an entity path, an insert's body, a batch, a $filter pinning
//   PartitionKey)                      → the range holding the key
//   Query Entities across partitions   → the ranges in key order, pages filled across
//                                        them; NextPartitionKey/NextRowKey say where to go on
//   Set Table ACL                      → every range (each object checks SAS policies)
//   the change feed                    → every range, in turn (feed.mjs)
//   the rest (Get Table ACL, …)        → the first range
import { accountStub, OBJECT_HEADER, MOVED_HEADER } from "./objects.mjs";
import { readTicket, refuseTicket, notOffered } from "./subscribe.mjs";
import { objectName } from "./route.mjs";
import { errorResponse, toResponse } from "./exchange.mjs";
import { changes } from "./feed.mjs";
import { compareKeys, rangeIndex, spanOf, pathKey, bodyKey, batchKey, filterKey, filterBounds, beyond, decodeToken, encodeToken, feedParts, joinFeeds } from "./partition.mjs";

/** RETRY_MS bounds how long a request waits for a range that is moving. */
export const RETRY_MS = 30000;

/** PAGE is the most entities one Query Entities answer holds, as in Azure. */
const PAGE = 1000;

const maps = new Map();

/** tableMap is the partition map of a table, from the cache unless fresh. */
async function tableMap(env, account, table, fresh) {
  const name = objectName(account, table);
  let map = maps.get(name);
  if (!map || fresh) {
    map = await accountStub(env, account).partitionMap(account, table);
    maps.set(name, map);
  }
  return map;
}

/**
 * forwardTable answers a request for a table: r is its route, request { method, url,
 * object, lines, origin } (the object name the table's requests are addressed by, the
 * head's header lines, whether it has an Origin header), body its bytes (or null).
 */
export async function forwardTable(env, r, request, body) {
  const url = new URL(request.url);
  const text = body ? new TextDecoder().decode(body) : "";
  const comp = url.searchParams.get("comp");
  if (comp === "acl" && request.method === "PUT") return everyRange(env, r, request, body);
  if (r.batch) return keyed(env, r, request, body, batchKey(text));
  let path = url.pathname;
  try {
    path = decodeURIComponent(path);
  } catch {
    // the handler answers it
  }
  const key = pathKey(path);
  if (comp === "changes") return changes(env, r, request);
  if (key !== undefined || comp) return keyed(env, r, request, body, key);
  if (request.method === "POST") return keyed(env, r, request, body, bodyKey(text));
  const pinned = filterKey(url.searchParams.get("$filter"));
  if (request.method !== "GET" || pinned !== undefined) return keyed(env, r, request, body, pinned);
  return scan(env, r, request);
}

/**
 * send hands the request to range i of map, by RPC (TableObject.handle: the head and body
 * as Go reads them, no HTTP between the Worker and the object), and tells whether the
 * object refused it.
 */
export async function send(env, map, i, request, body, key, url = request.url) {
  const span = spanOf(map, i);
  const stub = env.TABLES.get(objectId(env, span.obj));
  const out = await stub.handle({
    object: request.object,
    method: request.method,
    head: `${request.method} ${url}\n${request.lines}`,
    body: body ?? EMPTY,
    range: [span.lo, span.hi, span.obj],
    key: key ?? null,
    origin: request.origin,
  });
  if (out.moved) return { res: null, moved: true };
  return { res: toResponse(out.head, out.body, request.method), moved: false };
}

const EMPTY = new Uint8Array(0);

/** IDS bounds how many object ids objectId keeps. */
const IDS = 10000;

const ids = new Map();

/** objectId is the id of the table object named name, derived once per isolate (up to IDS of them). */
function objectId(env, name) {
  let id = ids.get(name);
  if (!id) {
    if (ids.size >= IDS) ids.clear();
    id = env.TABLES.idFromName(name);
    ids.set(name, id);
  }
  return id;
}

/**
 * subscribe hands an upgrade to a subscriber socket (subscribe.mjs) to the object of a
 * table in one range, once its ticket is checked: a bad ticket wakes no object. r is its
 * route, url its URL. A table split across objects is not offered sockets.
 */
export async function subscribe(env, r, request, url) {
  const object = r.table ? objectName(r.account, r.table) : "";
  if (!object || !(await readTicket(env, object, url.searchParams.get("subscribe")))) return refuseTicket(request, url);
  return retrying(env, r, async (map) => {
    if (map.ranges.length !== 1) return notOffered(request, url);
    const headers = new Headers(request.headers);
    headers.set(OBJECT_HEADER, object);
    const res = await env.TABLES.get(objectId(env, spanOf(map, 0).obj)).fetch(new Request(request.url, { headers }));
    return res.headers.has(MOVED_HEADER) ? null : res; // the object's range moved: read the map again
  });
}

/** retrying calls attempt(map) until it is not refused, reading the map again after each refusal. */
export async function retrying(env, r, attempt) {
  const deadline = Date.now() + RETRY_MS;
  for (let n = 0; ; n++) {
    const map = await tableMap(env, r.account, r.table, n > 0);
    const out = await attempt(map);
    if (out) return out;
    if (Date.now() > deadline) return errorResponse("The table's partition is moving; retry the request.", 503, "ServerBusy");
    await new Promise((resolve) => setTimeout(resolve, Math.min(5 << n, 200)));
  }
}

/** keyed sends a request to the range of key (the first range when key is undefined). */
function keyed(env, r, request, body, key) {
  return retrying(env, r, async (map) => {
    const { res, moved } = await send(env, map, key === undefined ? 0 : rangeIndex(map, key), request, body, key);
    return moved ? null : res;
  });
}

/** everyRange sends a request to every range in turn, and answers with the first's answer. */
function everyRange(env, r, request, body) {
  return retrying(env, r, async (map) => {
    let first;
    for (let i = 0; i < map.ranges.length; i++) {
      const { res, moved } = await send(env, map, i, request, body);
      if (moved) return null;
      if (i === 0) first = res;
      if (!res.ok) return res;
    }
    return first;
  });
}

/**
 * scan answers Query Entities across partitions: it reads the ranges in key order from
 * where the request's continuation points (or the first range a $filter bounding
 * PartitionKey can match in) to the last range that filter can match in, filling one
 * page of $top (or 1000) entities,
 * and ends the page with the continuation of the object it stopped in, or with a token
 * naming the next range's lower bound.
 */
async function scan(env, r, request) {
  const url = new URL(request.url);
  const topText = url.searchParams.get("$top");
  const top = topText === null ? PAGE : /^\d{1,4}$/.test(topText) ? Number(topText) : 0;
  const at = position(url);
  if (!at || top < 1 || top > PAGE) return keyed(env, r, request, null, undefined); // the handler answers it
  const bounds = filterBounds(url.searchParams.get("$filter"));
  if (!at.resume && compareKeys(bounds.lo, at.key) > 0) at.key = bounds.lo; // no range before the filter's can match
  const parts = [];
  let count = 0;
  let last;
  const out = await retrying(env, r, async (map) => {
    for (let i = rangeIndex(map, at.key); i < map.ranges.length; i++) {
      const u = new URL(url);
      u.searchParams.set("$top", String(top - count));
      u.searchParams.delete("NextPartitionKey");
      u.searchParams.delete("NextRowKey");
      if (at.resume) for (const [k, v] of Object.entries(at.resume)) u.searchParams.set(k, v);
      const { res, moved } = await send(env, map, i, request, null, undefined, u.href);
      if (moved) return null;
      if (!res.ok) return { res };
      last = res;
      const feed = feedParts(await res.text());
      if (!feed) return { res: errorResponse("a table object answered a query with no feed") };
      parts.push(feed);
      count += feed.items === "" ? 0 : JSON.parse(`[${feed.items}]`).length;
      const npk = res.headers.get("x-ms-continuation-NextPartitionKey");
      if (npk) return { next: [npk, res.headers.get("x-ms-continuation-NextRowKey") ?? ""] };
      const after = map.ranges[i + 1];
      if (!after || beyond(bounds, after.lo)) return { next: null }; // nor any range past the filter's
      Object.assign(at, { key: after.lo, resume: null });
      if (count >= top) return { next: [encodeToken("S", after.lo), encodeToken("S", "")] };
    }
    return { next: null };
  });
  if (out instanceof Response) return out;
  if (out.res) return out.res;
  return page(last, parts, out.next);
}

/**
 * position is where a query starts: { key, resume } with the range key and the
 * continuation to hand its object, or undefined for a token no one made.
 */
function position(url) {
  const npk = url.searchParams.get("NextPartitionKey");
  const nrk = url.searchParams.get("NextRowKey");
  if (!npk && !nrk) return { key: "", resume: null };
  const tok = decodeToken(npk);
  if (tok?.kind === "S") return { key: tok.key, resume: null };
  if (tok?.kind === "P") return { key: tok.key, resume: { NextPartitionKey: npk, NextRowKey: nrk ?? "" } };
  return undefined;
}

/** page builds one answer of the feeds read, ending with continuation next ([pk, rk] or null). */
function page(last, parts, next) {
  const headers = new Headers(last.headers);
  headers.delete("content-length");
  headers.delete("x-ms-continuation-NextPartitionKey");
  headers.delete("x-ms-continuation-NextRowKey");
  if (next) {
    headers.set("x-ms-continuation-NextPartitionKey", next[0]);
    headers.set("x-ms-continuation-NextRowKey", next[1]);
  }
  return new Response(joinFeeds(parts), { status: 200, headers });
}
