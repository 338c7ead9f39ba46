// Live sync. Between syncs, a TableSync running by itself (start) waits for the remote
// table to change, in one of two ways:
//
// - A subscriber socket, where the endpoint offers one (the edge, for a table in one
//   object): the watch's change feed request asks to wait and to subscribe, and a page
//   with no change comes back at once with a ticket, which opens a WebSocket on the
//   table's object (sync-socket.js, worker/edge/src/subscribe.mjs). The object sends a
//   message when a write is durable, and may be evicted while the socket waits, so an
//   idle client keeps nothing awake or billed. The socket stays open across syncs: a
//   wake during a sync makes the next watch return at once. One that closes is followed
//   by a sync and a new subscription; one that fails to open is retried with the sync's
//   backoff, and after SOCKET_FAILURES in a row the client waits on held requests.
// - A held request, elsewhere: the feed's wait parameter asks the server to hold a page
//   with no change until a write is durable (Tabletop's native server holds it up to
//   50 s, the edge up to 30 s; an endpoint that offers no socket ignores subscribe). A
//   change answers it, and the sync runs at once; an empty answer is asked again.
//
// Either way a change made on another device arrives within a round trip, and nothing is
// lost or applied twice: a wake only starts the ordinary checkpointed pull, and a write
// between the pull and the socket's opening wakes the socket as it opens (the ticket
// holds the object's write position at the page). An endpoint that does not wait
// (tabletop.wait 0: an edge table split across more than 8 objects) or has no change
// feed (Azure, Azurite) is polled every interval instead.
import { FeedSocket } from "./sync-socket.js";

/** LIVE_WAIT is how many seconds a watch asks the server to hold it. */
const LIVE_WAIT = 50;

/** SOCKET_FAILURES is how many sockets in a row may fail to open before a sync stops asking for them. */
const SOCKET_FAILURES = 3;

/**
 * watch waits for the next change of sync's remote table after its checkpoint. It
 * resolves with "changed" (something to pull, or an answer for a sync to report: sync
 * now), "poll" (the endpoint does not wait, or there is no feed checkpoint yet) or
 * "stopped" (signal aborted), and rejects when the request fails (offline) or the socket
 * does not open.
 */
export async function watch(sync, signal) {
  if (sync._noFeed || sync._noWait) return "poll";
  if (sync._socket && !sync._socket.ended) return listen(sync, sync._socket, signal);
  const store = await sync.client._store();
  const { checkpoint } = JSON.parse(await store._read("syncState", sync.client.tableName));
  if (!checkpoint.startsWith("feed:")) return "poll";
  const since = checkpoint.slice(5);
  for (;;) {
    const subscribe = typeof sync.remote.WebSocket === "function" && (sync._socketFailures ?? 0) < SOCKET_FAILURES;
    let res;
    try {
      res = await sync.remote.changes(since, 1, sync._range, { wait: LIVE_WAIT, subscribe, signal });
    } catch (e) {
      if (signal.aborted) return "stopped";
      throw e;
    }
    if (signal.aborted) return "stopped";
    if (!res.ok) return "changed";
    const page = JSON.parse(res.text);
    if (page.value.length > 0 || page["tabletop.deleted"].length > 0 || page["tabletop.more"]) return "changed";
    const ticket = page["tabletop.subscribe"];
    if (subscribe && typeof ticket === "string") return listen(sync, (sync._socket = new FeedSocket(sync.remote.WebSocket, sync.remote.socketURL(ticket))), signal);
    if (!(page["tabletop.wait"] > 0)) {
      sync._noWait = true;
      return "poll";
    }
  }
}

/** listen waits on sync's subscriber socket, counting the sockets that fail to open. */
async function listen(sync, socket, signal) {
  try {
    const out = await socket.next(signal);
    if (socket.opened) sync._socketFailures = 0;
    return out;
  } catch (e) {
    sync._socketFailures = (sync._socketFailures ?? 0) + 1;
    throw e;
  }
}

/** pullBegins tells sync's subscriber socket, if any, that a pull begins (FeedSocket.pullBegins). */
export function pullBegins(sync) {
  sync._socket?.pullBegins();
}

/** unlisten closes sync's subscriber socket, if any (stop). */
export function unlisten(sync) {
  sync._socket?.close();
  sync._socket = undefined;
}
