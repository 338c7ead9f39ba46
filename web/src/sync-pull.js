// The pull of a TableSync (see sync.js): Tabletop's change feed when the endpoint has
// it, else Query Entities filtered on Timestamp plus a key reconciliation, as
// worker/rest/README.md, "Sync protocol", describes. Each page is applied with its
// checkpoint (the engine's syncPull, in parts: see apply), so a pull resumes from the last
// page applied.
// What the pull deletes locally, and when it stops instead, is in sync-lost.js.

import { remoteError } from "./sync-rest.js";
import { pageParts } from "./sync-parts.js";
import { ADOPTING, checkFeed, feedAnswer, lostAnswer, lostError, continuationOf } from "./sync-lost.js";

const PAGE = 1000; // entities per pull request, unless options.pageSize says otherwise
const OVERLAP_MS = 5 * 60_000; // how far before its mark a Timestamp pull starts

/**
 * pull brings the remote changes after sync's checkpoint into the local table: from the
 * change feed, or by Timestamp without it. A 410 CheckpointExpired (or
 * sync._reconcileNext) makes it a reconciliation (see reconcileFeed); a table adopting its
 * remote table (sync-lost.js) reconciles with every local key.
 */
export async function pull(sync, store, totals) {
  const table = sync.client.tableName;
  const { checkpoint } = JSON.parse(await store._read("syncState", table));
  if (checkpoint === ADOPTING) return adopt(sync, store, totals);
  if (checkpoint.startsWith("mark:") || sync._noFeed) return pullByTimestamp(sync, store, checkpoint, totals);
  sync._status({ pull: "changes" });
  if (sync._reconcileNext) {
    await checkFeed(sync, checkpoint); // the table must still be the one the checkpoint names
    if (await reconcileFeed(sync, store, totals)) return;
  }
  let since = checkpoint.replace(/^feed:/, "");
  for (;;) {
    const res = await sync.remote.changes(since, pageSize(sync), sync._range);
    const kind = feedAnswer(res, since, "pull");
    if (kind === "expired" && (await reconcileFeed(sync, store, totals))) return;
    if (kind !== "ok") {
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
 * Query Entities, and deletes the synced local entities it did not list (every local
 * entity it did not list, adopting), storing the end checkpoint in that same transaction.
 * Changes after the end are read again next time (an entity already at its ETag is
 * skipped); a reconciliation interrupted midway stores nothing and starts over. Query
 * Entities, not the feed, lists the table, because a server that keeps no deletion
 * records (retention 0) refuses every feed checkpoint but the start, so a feed of more
 * than one page could never be read to its end there. It answers false, having done
 * nothing, at an endpoint without the feed.
 */
async function reconcileFeed(sync, store, totals, adopting = false) {
  sync._reconcileNext = false;
  let end = "";
  for (;;) {
    const res = await sync.remote.changes(end, 1000, "PartitionKey lt ''");
    const kind = feedAnswer(res, end, "pull (finding the end of the change feed)");
    if (kind === "none") return false;
    if (kind === "expired") throw remoteError(res, "pull (finding the end of the change feed)");
    const page = JSON.parse(res.text);
    end = page["tabletop.checkpoint"];
    if (!page["tabletop.more"]) break;
  }
  const listed = new Set();
  let next = null;
  do {
    const res = await sync.remote.query(sync._range, undefined, pageSize(sync), next);
    if (!res.ok) throw lostAnswer(res, "pull (reconciliation)") ?? remoteError(res, "pull (reconciliation)");
    for (const e of JSON.parse(res.text).value) listed.add(keyOf(e.PartitionKey, e.RowKey));
    totals.pulled += (await apply(sync, store, res.text, "", "")).changed.length;
    sync.emit("progress", { phase: "pull", ...totals });
    next = continuationOf(res.headers);
  } while (next);
  await deleteUnlisted(sync, store, await heldKeys(sync, store, adopting), listed, "feed:" + end, adopting);
  return true;
}

/**
 * adopt takes the remote table as it is, for a table whose replica forgot it
 * (sync-lost.js): with the change feed, a reconciliation that deletes every local entity
 * the table lacks; without, a key reconciliation that does so, storing the start of a
 * Timestamp pull with it, then that pull.
 */
async function adopt(sync, store, totals) {
  if (!sync._noFeed && (await reconcileFeed(sync, store, totals, true))) return;
  sync._noFeed = true;
  sync._status({ pull: "timestamp" });
  const start = "mark:" + JSON.stringify({ mark: "", next: null, max: "" });
  await reconcileKeys(sync, store, { adopting: true, checkpoint: start });
  return pullByTimestamp(sync, store, start, totals);
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
    if (!res.ok) throw lostAnswer(res, "pull") ?? remoteError(res, "pull");
    let max = state.max;
    for (const e of JSON.parse(res.text).value) if (stamp(e.Timestamp) > max) max = stamp(e.Timestamp);
    const next = continuationOf(res.headers);
    state = next ? { ...state, next, max } : { mark: max || state.mark, next: null, max: "" };
    const answer = await apply(sync, store, res.text, "set", "mark:" + JSON.stringify(state));
    totals.pulled += answer.changed.length;
    sync.emit("progress", { phase: "pull", ...totals });
  } while (state.next);
  const every = sync.options.reconcileInterval ?? 0;
  if (sync._reconcileNext || Date.now() - sync._lastReconcile >= every) await reconcileKeys(sync, store);
}

/**
 * reconcileKeys lists the remote keys and deletes the synced local entities not among them
 * (adopting: every local entity, storing checkpoint with the deletions). A remote table
 * that lists none while this device holds synced entities is no evidence: it stops the
 * sync (RemoteTableEmpty, see sync-lost.js) unless adopting.
 */
async function reconcileKeys(sync, store, { adopting = false, checkpoint } = {}) {
  sync._reconcileNext = false;
  const listed = new Set();
  let next = null;
  do {
    const res = await sync.remote.query(sync._range, "PartitionKey,RowKey", pageSize(sync), next);
    if (!res.ok) throw lostAnswer(res, "key reconciliation") ?? remoteError(res, "key reconciliation");
    for (const e of JSON.parse(res.text).value) listed.add(keyOf(e.PartitionKey, e.RowKey));
    next = continuationOf(res.headers);
  } while (next);
  const held = await heldKeys(sync, store, adopting);
  if (listed.size === 0 && held.length > 0 && !adopting) {
    throw lostError("RemoteTableEmpty", `a key reconciliation found the remote table empty while this device holds ${held.length} entities synced from it`);
  }
  await deleteUnlisted(sync, store, held, listed, checkpoint, adopting);
  sync._lastReconcile = Date.now();
}

/** heldKeys lists the keys in range of the synced local entities (adopting: of every local entity). */
async function heldKeys(sync, store, adopting) {
  const keys = JSON.parse(await store._read("syncKeys", sync.client.tableName, adopting ? "all" : ""));
  return keys.filter(([pk]) => sync._inRange(pk));
}

/**
 * deleteUnlisted deletes every held key a full pass did not list, unless it is pending
 * (and, unless adopting, it has a remote ETag); with checkpoint, it stores it in the same
 * transaction.
 */
async function deleteUnlisted(sync, store, held, listed, checkpoint, adopting = false) {
  const gone = held.filter(([pk, rk]) => !listed.has(keyOf(pk, rk)));
  if (gone.length === 0 && checkpoint === undefined) return;
  const body = JSON.stringify({ value: [], "tabletop.deleted": gone.map(([PartitionKey, RowKey]) => ({ PartitionKey, RowKey })) });
  return apply(sync, store, body, checkpoint === undefined ? "" : "set", checkpoint ?? "", adopting ? "" : "1");
}

/**
 * apply applies a pulled page (and its checkpoint) and resolves, once it is durable, with
 * the engine's summary. A page of more than PART_ITEMS entities and deletions goes in
 * parts (sync-parts.js), each applied only if the one before was, the checkpoint with the
 * last: usually all in one local transaction, and where they take more than one, a part
 * applied again after an interruption changes nothing (an entity already at its remote
 * ETag is skipped, a deleted one is gone).
 */
async function apply(sync, store, body, mode, checkpoint, onlySynced = "") {
  const table = sync.client.tableName;
  const parts = pageParts(body);
  const last = parts.length - 1;
  const argsOf = (part, i) => (i === last ? [table, part, mode, checkpoint, onlySynced] : [table, part, "", "", onlySynced]);
  const describe = (j) => JSON.parse(j).changed.map(([partitionKey, rowKey, deleted]) => ({ table, kind: deleted ? "delete" : "upsertReplace", partitionKey, rowKey, remote: true }));
  const answers = (await Promise.all(store._writeChain("syncPull", parts.map(argsOf), describe))).map((j) => JSON.parse(j));
  return { ...answers[last], changed: answers.flatMap((a) => a.changed), entities: answers.reduce((n, a) => n + a.entities, 0) };
}

export function keyOf(pk, rk) {
  return `${pk.length}:${pk}${rk}`;
}

/** stamp normalizes a Timestamp text to 7 fractional digits, so texts compare as times. */
function stamp(ts) {
  const m = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d+))?Z$/.exec(ts ?? "");
  return m ? `${m[1]}.${(m[2] ?? "").padEnd(7, "0")}Z` : "";
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
