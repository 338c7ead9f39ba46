// The change feed of a table, at the entry Worker: GET /t()?comp=changes&since=… read
// across the objects of the table's ranges (see worker/rest/README.md, "Pull from Tabletop: the
// change feed").
//
// Each range's object answers its own feed from its own checkpoint; the entry Worker
// keeps them together in a vector checkpoint (vector.mjs) and fills one page of up to
// $top changes from the ranges in turn. The order rule: within a range, changes come in
// (Timestamp, PartitionKey, RowKey) order, as natively; across ranges, a page lists one
// range's changes after another's, starting with the range after the one where the last
// page stopped for want of room, so no range starves the others. Ranges hold disjoint
// keys, so a page still holds each key at most once. The objects' Timestamps come from
// clocks of their own and are not compared across ranges.
import { errorResponse } from "./exchange.mjs";
import { send, retrying } from "./ranges.mjs";
import { decodeVector, encodeVector, sinceAt, fits, epochOf } from "./vector.mjs";
import { filterBounds, beyond, rangeIndex, compareKeys } from "./partition.mjs";
import { SUBSCRIBE_PARAM, TICKET_HEADER } from "./subscribe.mjs";

/** PAGE is the most changes a page holds, and the default $top. */
const PAGE = 1000;

/**
 * HELD_RANGES is the most ranges a waiting request of a split table is held on at once
 * (each range's object holds it); a table in more ranges answers at once, stating a wait
 * of 0, and its readers poll.
 */
const HELD_RANGES = 8;

/** MAX_WAIT is the longest wait, in seconds, an object holds a change feed request (object_js.go's feedWait). */
const MAX_WAIT = 30;

const VALUE = '"value":[';
const DELETED = '],"tabletop.deleted":[';

/** changes answers a change feed request for a table: r is its route. */
export async function changes(env, r, request) {
  const url = new URL(request.url);
  const topText = url.searchParams.get("$top");
  const top = topText === null ? PAGE : /^\d{1,4}$/.test(topText) ? Number(topText) : 0;
  const vector = await decodeVector(url.searchParams.get("since"));
  if (!vector) return errorResponse("since is not a valid checkpoint", 400, "InvalidQueryParameterValue");
  const waitText = url.searchParams.get("wait");
  if (waitText !== null && !/^\d{1,9}$/.test(waitText)) return errorResponse("wait is not a whole number of seconds", 400, "InvalidQueryParameterValue");
  if (top < 1 || top > PAGE) return retrying(env, r, async (map) => passOn(await send(env, map, 0, request, null))); // the handler answers it
  let tries = 0;
  return retrying(env, r, async (map) => {
    if (vector.epoch !== null && vector.epoch !== epochOf(map)) {
      return errorResponse("The table the checkpoint was issued for was deleted since. What the table lacks now was not deleted from it.", 409, "TableReplaced");
    }
    if (!fits(vector, map)) {
      // Ranges only split, so a vector of this table's history fits its map once read again.
      if (tries++ > 0) return errorResponse("The checkpoint was issued by another store: the server's data was replaced since. What the table lacks was not deleted from it.", 409, "CheckpointFromAnotherStore");
      return null; // a vector of a newer map than the one cached: read the map again
    }
    return page(env, map, request, url, vector, top);
  });
}

/** passOn is a range's answer, or null when it was refused (the map moved on). */
function passOn({ res, moved }) {
  return moved ? null : res;
}

// page reads the ranges of map in turn from where vector says, filling one page of up to
// top changes, and answers it; null when a range was refused (the map moved on). A range
// that a $filter bounding PartitionKey excludes is not read: its checkpoint stays. held is
// the wait, in seconds, the request was held already (holdRanges): the page is then
// answered as it is.
async function page(env, map, request, url, vector, top, held) {
  const n = map.ranges.length;
  const bounds = filterBounds(url.searchParams.get("$filter"));
  const home = rangeIndex(map, bounds.lo); // always read, so a page has an answer to build on
  const first = map.ranges.findIndex((x) => x.lo === vector.start);
  const read = new Map(); // range lo → its new checkpoint
  const parts = [];
  // A request may wait for a change (wait=seconds): the object of a table in one range
  // holds it (objects.mjs, hold); across ranges, a page with no change is held on the
  // ranges' objects at once (holdRanges), or, past HELD_RANGES, answered at once, stating
  // a wait of 0, and the client polls.
  const waitAsked = url.searchParams.has("wait");
  let wait = 0;
  const ranges = []; // [index, checkpoint] of each range read
  let count = 0;
  let stop = -1; // the range the page stopped for want of room in (its turn comes last next time)
  let last;
  for (let k = 0; k < n; k++) {
    const i = (first + k) % n;
    if (count >= top) {
      stop = (i + n - 1) % n;
      break;
    }
    const lo = map.ranges[i].lo;
    const hi = map.ranges[i + 1]?.lo ?? null;
    if (i !== home && (beyond(bounds, lo) || (hi !== null && compareKeys(hi, bounds.lo) <= 0))) continue; // no key of the range can match: not woken
    const u = new URL(url);
    u.searchParams.set("since", sinceAt(vector, lo));
    u.searchParams.set("$top", String(top - count));
    if (n > 1) u.searchParams.delete("wait");
    if (n > 1) u.searchParams.delete(SUBSCRIBE_PARAM); // a split table is offered no socket (subscribe.mjs)
    const { res, moved } = await send(env, map, i, request, null, undefined, u.href);
    if (moved) return null;
    if (!res.ok) return res;
    const text = await res.text();
    const body = JSON.parse(text);
    const cut = text.lastIndexOf(DELETED);
    parts.push({ text, values: text.slice(text.indexOf(VALUE) + VALUE.length, cut), deleted: text.slice(cut + DELETED.length, -2) });
    count += body.value.length + body["tabletop.deleted"].length;
    if (n === 1) wait = body["tabletop.wait"] ?? 0;
    read.set(lo, res.headers.get("x-tabletop-checkpoint") ?? "");
    ranges.push([i, read.get(lo)]);
    last = res;
    if (body["tabletop.more"]) {
      stop = i;
      break;
    }
  }
  const next = {
    epoch: epochOf(map),
    start: map.ranges[(stop + 1) % n].lo,
    entries: map.ranges.map(({ lo }) => [lo, read.has(lo) ? read.get(lo) : sinceAt(vector, lo)]),
  };
  if (stop < 0) next.start = vector.start;
  if (n > 1) {
    // A split table waits when it is split in few enough ranges to hold on each: a page
    // with changes states the wait it would have held, as one range's object does.
    const asked = n <= HELD_RANGES ? Math.min(Number(url.searchParams.get("wait")), MAX_WAIT) : 0;
    wait = asked;
    if (held === undefined && count === 0 && asked > 0) {
      const woke = await holdRanges(env, map, request, url, ranges, asked);
      if (woke === null) return null;
      if (woke) return page(env, map, request, url, next, top, asked); // read again from here
    }
  }
  return answer(last, parts, await encodeVector(next), stop >= 0, waitAsked ? wait : undefined);
}

/**
 * holdRanges holds a change feed request that found no change in any of ranges ([index,
 * checkpoint] of map's ranges): it asks each range's object to hold it up to seconds
 * (objects.mjs, hold), and resolves with true once one answers with a change (or fails:
 * the page read again shows why), false when none did in time, null when a range was
 * refused (the map moved on). The objects that did not answer hold on until a write to
 * their range or their time is over; what they answer then is dropped.
 */
function holdRanges(env, map, request, url, ranges, seconds) {
  return new Promise((resolve) => {
    let left = ranges.length;
    for (const [i, since] of ranges) {
      const u = new URL(url);
      u.searchParams.set("since", since);
      u.searchParams.set("$top", "1");
      u.searchParams.set("wait", String(seconds));
      u.searchParams.delete(SUBSCRIBE_PARAM);
      send(env, map, i, request, null, undefined, u.href).then(
        async ({ res, moved }) => {
          if (moved) return resolve(null);
          if (!res.ok) return resolve(true);
          const body = await res.json();
          if (body.value.length + body["tabletop.deleted"].length > 0) return resolve(true);
          if (--left === 0) resolve(false);
        },
        () => resolve(true),
      );
    }
  });
}

// answer builds the page from the ranges' answers: the first's head, the checkpoint and
// more, the wait if the request asked to wait, the ticket of a subscriber socket if the
// object offered one (subscribe.mjs), then every range's entities and deletions.
function answer(last, parts, checkpoint, more, wait) {
  const head = parts[0].text.slice(0, parts[0].text.indexOf('"tabletop.checkpoint":'));
  const join = (key) =>
    parts
      .map((p) => p[key])
      .filter((s) => s !== "")
      .join(",");
  const ticket = last.headers.get(TICKET_HEADER);
  const waited = (wait === undefined ? "" : `,"tabletop.wait":${wait}`) + (ticket ? `,"tabletop.subscribe":${JSON.stringify(ticket)}` : "");
  const body = `${head}"tabletop.checkpoint":${JSON.stringify(checkpoint)},"tabletop.more":${more}${waited},"value":[${join("values")}${DELETED}${join("deleted")}]}`;
  const headers = new Headers(last.headers);
  headers.delete("content-length");
  headers.set("x-tabletop-checkpoint", checkpoint);
  headers.set("x-tabletop-more", String(more));
  return new Response(body, { status: 200, headers });
}
