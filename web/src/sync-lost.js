// When the remote table may be lost. A sync deletes a local entity only on positive
// evidence that it was deleted remotely: a 404 ResourceNotFound from a table that exists, a
// deletion in the change feed of the same store and table incarnation, or a key
// reconciliation against a table that is neither missing nor suspiciously emptied. Evidence
// that can also mean "misconfigured", "not there yet" or "the server was reset" stops the
// sync instead, with an Error whose code names it (remoteLost: true):
//
//   TableNotFound              a 404 other than ResourceNotFound: the remote table is missing
//   TableReplaced              the change feed's 409: the table was deleted since the checkpoint
//   CheckpointFromAnotherStore the change feed's 409, or an endpoint that no longer knows the
//                              checkpoint it issued: the server's data was replaced
//   RemoteTableEmpty           without the change feed (Azure, Azurite), the remote table is
//                              empty while this device holds entities it synced from it
//
// The stop is stored with the local table (as its checkpoint, "lost:{json}"), so every
// later sync stops the same way, offline and across reloads, until the application
// decides with options.onRemoteLost (for the TableSync, or one sync):
//   "stop"  (the default) keep stopping;
//   "push"  push every local entity to the remote table (created if missing) as new, then
//           pull it whole: what the remote table lacks, it gets from this device;
//   "adopt" take the remote table (created if missing) as it is: local entities it lacks are
//           deleted and queued local changes dropped.

import { remoteError } from "./sync-rest.js";

/** REMOTE_LOST lists the values of options.onRemoteLost. */
export const REMOTE_LOST = ["stop", "push", "adopt"];

const LOST = "lost:";

/** ADOPTING is the checkpoint of a table adopting its remote table, until the full pass ends. */
export const ADOPTING = "adopt:";

/** lostError makes the Error a sync stops with when the remote table may be lost. */
export function lostError(code, detail, statusCode = 0) {
  const message =
    `tabletop sync: stopped, the remote table may be lost (${code}): ${detail}. Every local entity and queued ` +
    `change is kept, and nothing is synced until the application decides: sync({ onRemoteLost: "push" }) ` +
    `pushes this device's copy to the remote table, "adopt" takes the remote table as it is`;
  return Object.assign(new Error(message), { code, statusCode, remoteLost: true, detail });
}

/**
 * lostAnswer is the Error a remote answer means when it says the table may be lost (a 404
 * other than ResourceNotFound; a change feed's 409 TableReplaced or
 * CheckpointFromAnotherStore), null for any other answer.
 */
export function lostAnswer(res, what) {
  const replaced = res.code === "TableReplaced" || res.code === "CheckpointFromAnotherStore";
  if ((res.status === 404 && res.code !== "ResourceNotFound") || (res.status === 409 && replaced)) {
    return lostError(res.code, `${what} was answered ${res.status} ${res.code}`, res.status);
  }
  return null;
}

/**
 * feedAnswer classifies a change feed answer to a request from since: "ok", "expired" (410:
 * same store and table, deletion records purged), or "none" (an endpoint without the feed,
 * asked from the start). It throws the lost Error for a lost table, and for an endpoint that
 * no longer knows the checkpoint it issued; a remote error for a failure.
 */
export function feedAnswer(res, since, what = "the change feed") {
  if (res.status === 410) return "expired";
  const lost = lostAnswer(res, what);
  if (lost) throw lost;
  if (res.status >= 500 || res.status === 401 || res.status === 403) throw remoteError(res, what);
  if (res.ok && res.text.includes('"tabletop.checkpoint"')) return "ok";
  if (!since) return "none";
  throw lostError("CheckpointFromAnotherStore", `the endpoint that issued this device's checkpoint answered ${res.status} ${res.code ?? ""} for it`, res.status);
}

/** storedLost is the Error a stored checkpoint holds, null when it holds none. */
export function storedLost(checkpoint) {
  if (!checkpoint.startsWith(LOST)) return null;
  const { code, detail, statusCode } = JSON.parse(checkpoint.slice(LOST.length));
  return lostError(code, detail, statusCode);
}

/** keepLost stores a lost Error as the local table's checkpoint, in place of the one it had. */
export async function keepLost(sync, store, e) {
  const checkpoint = LOST + JSON.stringify({ code: e.code, detail: e.detail, statusCode: e.statusCode });
  await store._write("syncPull", [sync.client.tableName, '{"value":[]}', "set", checkpoint, ""], () => []);
}

/**
 * recover carries out the application's decision after a stop (see the top of this file):
 * the local replica is queued whole for the push ("push") or set to adopt the remote table
 * ("adopt"), and the remote table is created if it was missing.
 */
export async function recover(sync, store, decision, e) {
  const table = sync.client.tableName;
  if (decision === "push") await store._write("syncRequeue", [table], () => []);
  else await store._write("syncForget", [table, ADOPTING], () => []);
  sync._noFeed = false;
  if (e.statusCode === 404) await sync.remote.createTable();
}

/**
 * checkFeed asks the change feed whether the checkpoint still names this store's table, by
 * a request no key matches, before a push: a push to a table created again meets 404
 * ResourceNotFound for every entity it had, which would otherwise read as deletions. It
 * answers true when the feed vouches for the table, false when it cannot (no feed checkpoint).
 */
export async function checkFeed(sync, checkpoint) {
  if (!checkpoint.startsWith("feed:") || checkpoint === "feed:") return false;
  const since = checkpoint.slice("feed:".length);
  feedAnswer(await sync.remote.changes(since, 1, "PartitionKey lt ''"), since, "the change feed (checking the table)");
  return true;
}

/**
 * checkNotEmpty throws RemoteTableEmpty when the remote table (within the sync's key range)
 * holds no entity while this device holds entities synced from it: asked before a push
 * where no change feed vouches for the table, since the push would fill a table emptied or
 * created again and the key reconciliation after it would take what it lacks for deleted.
 */
export async function checkNotEmpty(sync, store, what) {
  let next = null;
  do {
    const res = await sync.remote.query(sync._range, "PartitionKey,RowKey", 1, next);
    if (!res.ok) throw lostAnswer(res, "a query") ?? remoteError(res, "a query");
    if (JSON.parse(res.text).value.length > 0) return;
    next = continuationOf(res.headers);
  } while (next);
  const held = JSON.parse(await store._read("syncKeys", sync.client.tableName)).filter(([pk]) => sync._inRange(pk)).length;
  if (held > 0) throw lostError("RemoteTableEmpty", `the remote table is empty ${what} while this device holds ${held} entities synced from it`);
}

/** continuationOf reads a query's continuation, null at the last page. */
export function continuationOf(headers) {
  const pk = headers.get("x-ms-continuation-NextPartitionKey");
  if (!pk) return null;
  return [pk, headers.get("x-ms-continuation-NextRowKey") ?? ""];
}
