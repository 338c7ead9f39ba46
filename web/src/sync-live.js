// Live sync. Between syncs, a TableSync running by itself (start) keeps one request on the
// remote table's change feed open: the feed's wait parameter asks the server to hold a
// page with no change until a write is durable (Tabletop's native server holds it up to
// 50 s, the edge up to 30 s). A change answers it, and the sync runs at once; an empty
// answer is asked again. So a change made on another device arrives within a round trip,
// and an idle client makes one request per wait. An endpoint that does not wait
// (tabletop.wait 0: an edge table split across more than 8 objects) or has no change feed
// (Azure, Azurite) is polled every interval instead.

/** LIVE_WAIT is how many seconds a watch asks the server to hold it. */
const LIVE_WAIT = 50;

/**
 * watch waits for the next change of sync's remote table after its checkpoint. It
 * resolves with "changed" (something to pull, or an answer for a sync to report: sync
 * now), "poll" (the endpoint does not wait, or there is no feed checkpoint yet) or
 * "stopped" (signal aborted), and rejects when the request fails (offline).
 */
export async function watch(sync, signal) {
  if (sync._noFeed || sync._noWait) return "poll";
  const store = await sync.client._store();
  const { checkpoint } = JSON.parse(await store._read("syncState", sync.client.tableName));
  if (!checkpoint.startsWith("feed:")) return "poll";
  const since = checkpoint.slice(5);
  for (;;) {
    let res;
    try {
      res = await sync.remote.changes(since, 1, sync._range, { wait: LIVE_WAIT, signal });
    } catch (e) {
      if (signal.aborted) return "stopped";
      throw e;
    }
    if (signal.aborted) return "stopped";
    if (!res.ok) return "changed";
    const page = JSON.parse(res.text);
    if (page.value.length > 0 || page["tabletop.deleted"].length > 0 || page["tabletop.more"]) return "changed";
    if (!(page["tabletop.wait"] > 0)) {
      sync._noWait = true;
      return "poll";
    }
  }
}
