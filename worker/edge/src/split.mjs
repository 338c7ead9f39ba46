// Splitting a table's range between two table objects, run by the account object, which
// keeps the partition maps (storage key MAP + lowercased table). One split at a time per
// account (the account object's serial queue), written down first as an intent (SPLIT +
// lowercased table) so that a crash at any moment is settled before the account object
// serves anything again:
//
//   1. the source object fences [key, hi): it refuses every request for that part (the
//      entry Worker retries), and waits for the requests in flight;
//   2. the new object forgets whatever it held, then imports [key, hi) from the source,
//      chunk by chunk, as stored (Timestamps, ETags and deletion records kept), adopts
//      the source's change feed (its identity and clock: the checkpoints the source
//      issued resume in the new object), and is told its range;
//   3. the map gets the new range and a new version, in one storage write: the switch;
//   4. the source evicts [key, hi), then is told its smaller range, which lifts the fence.
//
// Settling looks only at the map: if it holds the new range, steps 4 run (again: they are
// idempotent); if not, the new object forgets what it imported and the source gets its
// range back unfenced, as if the split never started. Either way the intent goes. No
// acknowledged write is lost or doubled: while the copy runs nothing in [key, hi) is
// written, and after the switch only the new object serves it.
import { objectName } from "./route.mjs";
import { defaultMap, spanOf, splitMap, sameSpan } from "./partition.mjs";

/** MAP is the storage key prefix of the partition maps in the account object. */
export const MAP = "map/";

/** SPLIT is the storage key prefix of a split under way. */
export const SPLIT = "split/";

/** SPLIT_ENTITIES is the default entity count past which a table object asks to be split. */
export const SPLIT_ENTITIES = 20000;

/** SPLIT_BYTES is the default stored size (keys and values) past which a table object asks to be split. */
export const SPLIT_BYTES = 16 << 20;

/**
 * splitLimits are the sizes past which an object splits: { entities } from
 * TABLETOP_SPLIT_ENTITIES (records: entities and deletion records) and { bytes } from
 * TABLETOP_SPLIT_BYTES (the bytes of its stored records); "0" turns either off.
 */
export function splitLimits(env) {
  return {
    entities: whole(env, "TABLETOP_SPLIT_ENTITIES", SPLIT_ENTITIES),
    bytes: whole(env, "TABLETOP_SPLIT_BYTES", SPLIT_BYTES),
  };
}

function whole(env, name, fallback) {
  const v = env[name];
  if (v === undefined || v === "") return fallback;
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${name}: ${JSON.stringify(v)} is not a whole number`);
  return n;
}

/**
 * step pauses between the steps of a split for TABLETOP_SPLIT_STEP_MS when TABLETOP_DEBUG
 * is "1": fault injection, so that a test can kill the runtime at each step.
 */
async function step(env) {
  const ms = env.TABLETOP_DEBUG === "1" ? Number(env.TABLETOP_SPLIT_STEP_MS ?? 0) : 0;
  if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
}

/** objectStub is the stub of the table object named name. */
export function objectStub(env, name) {
  return env.TABLES.get(env.TABLES.idFromName(name));
}

/** args joins the arguments of an internal operation (see worker/edge/object, move.go). */
export function args(...fields) {
  return fields.map((f) => f ?? "").join("\0");
}

/** readMap is a table's partition map as the account object keeps it. */
export function readMap(storage, account, table) {
  return storage.kv.get(MAP + table.toLowerCase()) ?? defaultMap(account, table);
}

/**
 * splitRange splits span of table at the median PartitionKey of its entities, unless the
 * map no longer has that span or it holds fewer than two partitions; it tells whether it
 * split. Run it in the account object's serial queue.
 */
export async function splitRange(ao, account, table, span) {
  const kv = ao.ctx.storage.kv;
  const map = readMap(ao.ctx.storage, account, table);
  const i = map.ranges.findIndex((r) => r.lo === span.lo && r.obj === span.obj);
  if (i < 0 || !sameSpan(spanOf(map, i), span)) return false;
  const reply = await objectStub(ao.env, span.obj).move(account, "splitKey", args(table, span.lo, span.hi));
  const key = reply.split("\0")[1];
  if (!key) return false;
  const intent = { account, table, src: spanOf(map, i), key, dst: `${objectName(account, table)}#${map.version + 1}` };
  kv.put(SPLIT + table.toLowerCase(), intent);
  try {
    await copyAndSwitch(ao, intent);
  } finally {
    await settleSplit(ao, intent);
  }
  return true;
}

// copyAndSwitch runs steps 1 to 3 of a split.
async function copyAndSwitch(ao, { account, table, src, key, dst }) {
  const from = objectStub(ao.env, src.obj);
  const to = objectStub(ao.env, dst);
  await from.fence(account, src, key);
  await step(ao.env);
  await to.forget(account, table);
  await step(ao.env);
  let cursor = args("", "", "");
  for (;;) {
    const [kind, pk, rk, chunk] = (await from.move(account, "export", args(table, key, src.hi, cursor))).split("\0");
    await to.move(account, "import", args(table, chunk));
    await step(ao.env);
    if (!kind) break;
    cursor = args(kind, pk, rk);
  }
  // the new object continues the source's change feed: its checkpoints resume there
  await to.move(account, "adoptFeed", args(table, await from.move(account, "feedState", table)));
  await to.setRange(account, { lo: key, hi: src.hi, obj: dst });
  await step(ao.env);
  const map = readMap(ao.ctx.storage, account, table);
  ao.ctx.storage.kv.put(MAP + table.toLowerCase(), splitMap(map, key, dst));
}

/** settleSplit finishes a split whose switch happened, or undoes one whose switch did not. */
export async function settleSplit(ao, { account, table, src, key, dst }) {
  const map = readMap(ao.ctx.storage, account, table);
  const from = objectStub(ao.env, src.obj);
  if (map.ranges.some((r) => r.obj === dst)) {
    await step(ao.env);
    await from.move(account, "evict", args(table, key, src.hi));
    await step(ao.env);
    await from.setRange(account, { lo: src.lo, hi: key, obj: src.obj });
  } else {
    await objectStub(ao.env, dst).forget(account, table);
    await step(ao.env);
    await from.setRange(account, src);
  }
  ao.ctx.storage.kv.delete(SPLIT + table.toLowerCase());
}

/** splits lists the splits a crash left unsettled. */
export function pendingSplits(storage) {
  return Array.from(storage.kv.list({ prefix: SPLIT }), ([, intent]) => intent);
}

/**
 * resetTable makes a deleted table's next incarnation one range again: every other range's
 * object forgets the table, the first range's object serves every key, and the map
 * starts over at a new version (versions never go back, so a stale cached map is always
 * refused) and a new epoch (so change feed checkpoints from before are refused).
 */
export async function resetTable(ao, account, table) {
  const map = readMap(ao.ctx.storage, account, table);
  if (map.ranges.length === 1 && map.ranges[0].obj === objectName(account, table)) return;
  for (const r of map.ranges.slice(1)) await objectStub(ao.env, r.obj).forget(account, table);
  await objectStub(ao.env, map.ranges[0].obj).setRange(account, null);
  ao.ctx.storage.kv.put(MAP + table.toLowerCase(), defaultMap(account, table, map.version + 1, map.version + 1));
}
