// The pull of a TableSync (see sync.js): Tabletop's change feed when the endpoint has
// it, else Query Entities filtered on Timestamp plus a key reconciliation, as the
// README's "Sync protocol" describes. Each page is applied with its checkpoint in one
// local transaction (the engine's syncPull), so a pull resumes from the last page applied.

import { remoteError } from "./sync-rest.js";

const PAGE = 1000; // entities per pull request, unless options.pageSize says otherwise
const OVERLAP_MS = 5 * 60_000; // how far before its mark a Timestamp pull starts

/**
 * pull brings the remote changes after sync's checkpoint into the local table: from the
 * change feed, or by Timestamp without it. A 410 CheckpointExpired (or
 * sync._reconcileNext) makes it a reconciliation (see reconcileFeed).
 */
export async function pull(sync, store, totals) {
  const table = sync.client.tableName;
  const { checkpoint } = JSON.parse(await store._read("syncState", table));
  if (checkpoint.startsWith("mark:") || sync._noFeed) return pullByTimestamp(sync, store, checkpoint, totals);
  sync._status({ pull: "changes" });
  if (sync._reconcileNext) return reconcileFeed(sync, store, totals);
  let since = checkpoint.replace(/^feed:/, "");
  for (;;) {
    const res = await sync.remote.changes(since, pageSize(sync), sync._range);
    if (res.status === 410) return reconcileFeed(sync, store, totals);
    if (res.status >= 500 || res.status === 403 || res.status === 401) throw remoteError(res, "pull");
    if (!res.ok || !res.text.includes('"tabletop.checkpoint"')) {
      sync._noFeed = true; // an endpoint without the change feed
      return pullByTimestamp(sync, store, checkpoint, totals);
    }
    const answer = await apply(sync, store, res.text, "feed", "");
    totals.pulled += answer.changed.length;
    since = answer.checkpoint;
    sync.emit("progress", { phase: "pull", ...totals });
    if (!answer.more) break;
  }
}

/**
 * reconcileFeed replaces an expired checkpoint. It first finds the end of the change
 * feed as it is now (reading it with a filter no key matches: the server examines
 * up to 100,000 changes per request and returns none), then reads the whole table with
 * Query Entities, and deletes the synced local entities it did not list, storing the end
 * checkpoint in that same transaction. Changes after the end are read again next time
 * (an entity already at its ETag is skipped); a reconciliation interrupted midway stores
 * nothing and starts over. Query Entities, not the feed, lists the table, because a
 * server that keeps no deletion records (retention 0) refuses every feed checkpoint but
 * the start, so a feed of more than one page could never be read to its end there.
 */
async function reconcileFeed(sync, store, totals) {
  sync._reconcileNext = false;
  let end = "";
  for (;;) {
    const res = await sync.remote.changes(end, 1000, "PartitionKey lt ''");
    if (!res.ok) throw remoteError(res, "pull (finding the end of the change feed)");
    const page = JSON.parse(res.text);
    end = page["tabletop.checkpoint"];
    if (!page["tabletop.more"]) break;
  }
  const listed = new Set();
  let next = null;
  do {
    const res = await sync.remote.query(sync._range, undefined, pageSize(sync), next);
    if (!res.ok) throw remoteError(res, "pull (reconciliation)");
    for (const e of JSON.parse(res.text).value) listed.add(keyOf(e.PartitionKey, e.RowKey));
    totals.pulled += (await apply(sync, store, res.text, "", "")).changed.length;
    sync.emit("progress", { phase: "pull", ...totals });
    next = continuation(res.headers);
  } while (next);
  await deleteUnlisted(sync, store, listed, "feed:" + end);
}

/**
 * pullByTimestamp pulls without the change feed: Query Entities with Timestamp ge
 * (mark − overlap), the mark raised only after a whole pass; then, when due, a key
 * reconciliation. Its checkpoint, "mark:{json}", also keeps an interrupted pass's
 * continuation, so a reload resumes it.
 */
async function pullByTimestamp(sync, store, checkpoint, totals) {
  sync._status({ pull: "timestamp" });
  let state = checkpoint.startsWith("mark:") ? JSON.parse(checkpoint.slice(5)) : { mark: "", next: null, max: "" };
  const from = state.mark ? new Date(Date.parse(state.mark) - OVERLAP_MS).toISOString() : "";
  const filter = and(from && `Timestamp ge datetime'${from}'`, sync._range);
  do {
    const res = await sync.remote.query(filter, undefined, pageSize(sync), state.next);
    if (!res.ok) throw remoteError(res, "pull");
    let max = state.max;
    for (const e of JSON.parse(res.text).value) if (stamp(e.Timestamp) > max) max = stamp(e.Timestamp);
    const next = continuation(res.headers);
    state = next ? { ...state, next, max } : { mark: max || state.mark, next: null, max: "" };
    const answer = await apply(sync, store, res.text, "set", "mark:" + JSON.stringify(state));
    totals.pulled += answer.changed.length;
    sync.emit("progress", { phase: "pull", ...totals });
  } while (state.next);
  const every = sync.options.reconcileInterval ?? 0;
  if (sync._reconcileNext || Date.now() - sync._lastReconcile >= every) await reconcileKeys(sync, store);
}

/** reconcileKeys lists the remote keys and deletes the synced local entities not among them. */
async function reconcileKeys(sync, store) {
  sync._reconcileNext = false;
  const listed = new Set();
  let next = null;
  do {
    const res = await sync.remote.query(sync._range, "PartitionKey,RowKey", pageSize(sync), next);
    if (!res.ok) throw remoteError(res, "key reconciliation");
    for (const e of JSON.parse(res.text).value) listed.add(keyOf(e.PartitionKey, e.RowKey));
    next = continuation(res.headers);
  } while (next);
  await deleteUnlisted(sync, store, listed);
  sync._lastReconcile = Date.now();
}

/**
 * deleteUnlisted deletes every synced local entity in range that a full pass did not
 * list, unless it is pending; with checkpoint, it stores it in the same transaction.
 */
async function deleteUnlisted(sync, store, listed, checkpoint) {
  const table = sync.client.tableName;
  const gone = JSON.parse(await store._read("syncKeys", table)).filter(([pk, rk]) => sync._inRange(pk) && !listed.has(keyOf(pk, rk)));
  if (gone.length === 0 && checkpoint === undefined) return;
  const body = JSON.stringify({ value: [], "tabletop.deleted": gone.map(([PartitionKey, RowKey]) => ({ PartitionKey, RowKey })) });
  return apply(sync, store, body, checkpoint === undefined ? "" : "set", checkpoint ?? "", "1");
}

/**
 * apply applies a pulled page (and its checkpoint) in one local transaction and
 * resolves, once it is durable, with the engine's summary.
 */
async function apply(sync, store, body, mode, checkpoint, onlySynced = "") {
  const table = sync.client.tableName;
  const json = await store._write("syncPull", [table, body, mode, checkpoint, onlySynced], (j) =>
    JSON.parse(j).changed.map(([partitionKey, rowKey, deleted]) => ({ table, kind: deleted ? "delete" : "upsertReplace", partitionKey, rowKey, remote: true })),
  );
  return JSON.parse(json);
}

export function keyOf(pk, rk) {
  return `${pk.length}:${pk}${rk}`;
}

/** stamp normalizes a Timestamp text to 7 fractional digits, so texts compare as times. */
function stamp(ts) {
  const m = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d+))?Z$/.exec(ts ?? "");
  return m ? `${m[1]}.${(m[2] ?? "").padEnd(7, "0")}Z` : "";
}

function continuation(headers) {
  const pk = headers.get("x-ms-continuation-NextPartitionKey");
  if (!pk) return null;
  return [pk, headers.get("x-ms-continuation-NextRowKey") ?? ""];
}

export function rangeFilter(r) {
  if (!r) return "";
  const q = (s) => `'${s.replaceAll("'", "''")}'`;
  return and(r.start !== undefined && `PartitionKey ge ${q(r.start)}`, r.end !== undefined && `PartitionKey lt ${q(r.end)}`);
}

function and(...parts) {
  return parts.filter(Boolean).join(" and ");
}

function pageSize(sync) {
  return sync.options.pageSize ?? PAGE;
}
