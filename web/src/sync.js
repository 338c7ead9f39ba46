// TableSync replicates a local table (or a PartitionKey range of it) with a table of a
// remote Azure Table endpoint, as worker/rest/README.md, "Sync protocol" describes:
//
//   const sync = new TableSync(client, { url, table, credential });
//   sync.on("status", (s) => …); sync.on("conflict", (c) => …);
//   await sync.sync();          // push the outbox, then pull from the checkpoint
//   sync.start({ interval });   // and again on every local change, on every remote one
//                               // (live: sync-live.js) or periodically, with backoff
//
// The local side lives in the engine (core/replica): the outbox of keys changed
// locally, written in the same transaction (hence the same IndexedDB commit) as the
// change; the remote ETag each synced entity derives from; and the pull checkpoint,
// stored with the page it came with. So a write acknowledged locally is pushed whenever
// the page is next online, whatever happened to it meanwhile, and a pull interrupted at
// any point resumes from the last page applied.
//
// Push sends each pending key with If-Match on its remote ETag (Insert when there is
// none); a conflict (409, 412, 404) reads the server's version and is resolved: first,
// a server version equal to the local one is our own earlier push whose answer was lost,
// adopted silently; else options.resolve(conflict) decides: "remote" (the default: the
// server wins, the local change is dropped), "local" (pushed again over the server's
// version), or an entity (a merge, written locally and pushed). Every conflict is
// emitted as a "conflict" event with its resolution.
//
// Pull reads Tabletop's change feed (deletions included) when the endpoint has it;
// otherwise (Azure, Azurite) Query Entities filtered on Timestamp, plus a key
// reconciliation (a full pass of the keys) to find remote deletions. A 410
// CheckpointExpired, or options.reconcile, makes the pull reconcile.
//
// Local data is deleted only on positive evidence of a remote delete. Evidence that the
// remote table may be lost (missing, deleted or created again, a server whose data was
// replaced, an emptied table without the change feed) stops the sync instead, keeping
// every local entity and queued change, until the application decides
// (options.onRemoteLost, see sync-lost.js).
//
// status.pending is the number of queued local changes at every moment: the engine keeps
// the count, read again after every commit that touches the table (local writes, offline
// too, and each acknowledged push).

import { RemoteTable, remoteError } from "./sync-rest.js";
import { fromWire } from "./values.js";
import { SyncEmitter, watchPending, countPending } from "./sync-status.js";
import { MAX_BATCH } from "./sync-batch.js";
import { entityPath } from "./sync-rest.js";
import { pull, rangeFilter } from "./sync-pull.js";
import { REMOTE_LOST, checkFeed, checkNotEmpty, keepLost, lostAnswer, recover, storedLost } from "./sync-lost.js";
import { watch, unlisten, pullBegins } from "./sync-live.js";

const PUSH_PAGE = 200; // outbox keys read at a time
const PUSH_CONCURRENCY = 8; // push requests in flight

/** TableSync replicates one local table with a remote one (see the top of this file). */
export class TableSync extends SyncEmitter {
  /**
   * @param client the local TableClient
   * @param options { url, table?, credential?, resolve?, partitionKeyRange?: { start?, end? },
   *   reconcileInterval? (ms between key reconciliations without the change feed, 0: every sync),
   *   pageSize? (entities per pull request, 1 to 1000, default 1000), fetch?, WebSocket?
   *   (live sync's sockets: globalThis.WebSocket by default, null for none),
   *   onRemoteLost? ("stop", the default, "push" or "adopt": see sync-lost.js) }
   */
  constructor(client, options = {}) {
    super();
    if (!options.url) throw new TypeError("tabletop: TableSync needs options.url, the remote account endpoint");
    checkDecision(options.onRemoteLost);
    this.client = client;
    this.remote = new RemoteTable(options.url, options.table ?? client.tableName, options.credential, options);
    this.options = options;
    this._range = rangeFilter(options.partitionKeyRange);
    this._running = null;
    this._again = false;
    this._lastReconcile = 0;
  }

  /**
   * track creates the local table if needed and marks it as replicated: from then on
   * (and for the entities it already holds) every local change is queued for the push.
   * sync does it first; call it before writing to have an empty app's table ready.
   */
  async track() {
    await this._local();
  }

  /**
   * _local returns the local store, the table created and tracked for sync (again, if
   * the application deleted the table meanwhile: that forgets its sync state, and the
   * next pull starts from the beginning).
   */
  async _local() {
    const store = await this.client._store();
    await this.client.createTable();
    await store._write("syncTrack", [this.client.tableName], () => []);
    this._unwatch ??= watchPending(this, store);
    countPending(this, store);
    return store;
  }

  /**
   * sync pushes the outbox then pulls, once; concurrent calls share one run (and a call
   * during a run makes it run once more). It resolves with { pushed, pulled, conflicts }
   * and rejects with an Error with the Azure code (or "NetworkError") when it fails; with
   * remoteLost: true when the remote table may be lost (see sync-lost.js), which
   * options.onRemoteLost ("push" or "adopt") decides for this run.
   */
  sync(options = {}) {
    if (options.reconcile) this._reconcileNext = true;
    checkDecision(options.onRemoteLost);
    if (options.onRemoteLost) this._decision = options.onRemoteLost;
    if (this._running) {
      this._again = true;
      return this._running;
    }
    this._running = this._run().finally(() => (this._running = null));
    return this._running;
  }

  async _run() {
    const totals = { pushed: 0, pulled: 0, conflicts: 0 };
    let store;
    let recovered = false; // a decision is carried out once per run: the same stop after it stops
    do {
      this._again = false;
      this._status({ syncing: true });
      try {
        store = await this._local();
        await this._resume(store);
        await this._push(store, totals);
        await this._pull(store, totals);
        this._status({ syncing: false, online: true, error: null, lastSync: new Date(), pending: await this._pending(store) });
      } catch (caught) {
        let e = caught;
        if (e.remoteLost && store) {
          try {
            if (!recovered && this._decided() !== "stop") {
              recovered = true;
              await this._recover(store, e);
              this._again = true;
              continue;
            }
            await this._keepLost(store, e);
          } catch (failed) {
            e = failed;
          }
        }
        const error = { code: e.code, statusCode: e.statusCode, message: e.message, remoteLost: e.remoteLost === true };
        this._status({ syncing: false, online: e.code !== "NetworkError", error });
        this.emit("error", e);
        throw e;
      }
    } while (this._again);
    return totals;
  }

  /** _decided is the application's decision when the remote table may be lost. */
  _decided() {
    return this._decision ?? this.options.onRemoteLost ?? "stop";
  }

  /** _resume stops again a sync stopped before (sync-lost.js), unless the application decided. */
  async _resume(store) {
    const lost = storedLost(await this._checkpoint(store));
    if (!lost) return;
    if (this._decided() === "stop") throw lost;
    await this._recover(store, lost);
  }

  /** _recover carries out the application's decision on the stop e (sync-lost.js recover). */
  async _recover(store, e) {
    await recover(this, store, this._decided(), e);
    this._decision = undefined;
  }

  /** _keepLost stores the stop e with the local table, unless a stop is stored already. */
  async _keepLost(store, e) {
    if (!storedLost(await this._checkpoint(store))) await keepLost(this, store, e);
  }

  async _checkpoint(store) {
    return JSON.parse(await store._read("syncState", this.client.tableName)).checkpoint;
  }

  async _pending(store) {
    return JSON.parse(await store._read("syncState", this.client.tableName)).pending;
  }

  // ---- push ----

  /**
   * _push pushes the outbox, a page at a time. Before the first push it checks that the
   * remote table is the one the local copy came from (sync-lost.js): the change feed
   * vouches for it, or else the table is not empty while this device holds entities synced
   * from it. Only then is a 404 ResourceNotFound taken for a remote deletion.
   */
  async _push(store, totals) {
    const table = this.client.tableName;
    let after = ["", ""];
    let checked = false;
    for (;;) {
      const items = JSON.parse(await store._read("syncOutbox", table, after[0], after[1], String(PUSH_PAGE)));
      if (items.length === 0) return;
      after = [items.at(-1).pk, items.at(-1).rk];
      const inRange = items.filter((it) => this._inRange(it.pk));
      if (!checked && inRange.length > 0) {
        if (!(await checkFeed(this, await this._checkpoint(store)))) await checkNotEmpty(this, store, "before a push");
        checked = true;
      }
      await pool(batches(inRange), PUSH_CONCURRENCY, (group) => this._pushGroup(store, group, totals));
      this.emit("progress", { phase: "push", ...totals });
    }
  }

  _inRange(pk) {
    const r = this.options.partitionKeyRange;
    return !r || ((r.start === undefined || pk >= r.start) && (r.end === undefined || pk < r.end));
  }

  /**
   * _pushGroup pushes items of one partition as one entity group transaction; if it
   * fails (a conflict in it, most likely), nothing was applied and each is pushed alone.
   */
  async _pushGroup(store, items, totals) {
    const ops = items.filter((it) => it.body !== "" || it.base !== "");
    if (ops.length < 2) {
      for (const it of items) await this._pushOne(store, it, totals);
      return;
    }
    const subs = await this.remote.batch(ops.map((it) => pushOp(this.remote.table, it))).catch((e) => {
      throw lostAnswer({ status: e.statusCode, code: e.code }, "$batch") ?? e;
    });
    if (!subs) {
      for (const it of items) await this._pushOne(store, it, totals);
      return;
    }
    totals.pushed += ops.length;
    const etags = new Map(ops.map((it, i) => [it, it.body === "" ? "" : subs[i].etag ?? ""]));
    const args = [this.client.tableName];
    for (const it of items) args.push(it.pk, it.rk, it.local, etags.get(it) ?? "");
    await store._write("syncAck", args, () => []);
  }

  /** _pushOne pushes one outbox item as worker/rest/README.md's table of pushes says. */
  async _pushOne(store, it, totals) {
    let res;
    if (it.body === "" && it.base === "") return this._ack(store, it, "");
    if (it.body === "") res = await this.remote.remove(it.pk, it.rk, it.base);
    else if (it.base === "") res = await this.remote.insert(it.body);
    else res = await this.remote.replace(it.pk, it.rk, it.body, it.base);
    if (res.ok) {
      totals.pushed++;
      return this._ack(store, it, it.body === "" ? "" : res.headers.get("ETag") ?? "");
    }
    const lost = lostAnswer(res, `the push of (${it.pk}, ${it.rk})`);
    if (lost) throw lost;
    if (it.body === "" && res.status === 404) return this._ack(store, it, ""); // deleted on both sides
    if (res.status === 409 || res.status === 412 || res.status === 404) return this._conflict(store, it, res, totals);
    throw remoteError(res, `push of (${it.pk}, ${it.rk})`);
  }

  _ack(store, it, remoteETag) {
    return store._write("syncAck", [this.client.tableName, it.pk, it.rk, it.local, remoteETag], () => []);
  }

  /** _conflict reads the server's version and resolves (see the top of this file). */
  async _conflict(store, it, res, totals) {
    const table = this.client.tableName;
    const got = await this.remote.get(it.pk, it.rk);
    const what = `read of (${it.pk}, ${it.rk}) after a conflict`;
    if (!got.ok && (lostAnswer(got, what) || got.status !== 404)) throw lostAnswer(got, what) ?? remoteError(got, what);
    const serverBody = got.ok ? got.text : "";
    const serverETag = got.ok ? got.headers.get("ETag") ?? JSON.parse(got.text)["odata.etag"] : "";
    if ((await store._read("syncSame", table, it.pk, it.rk, serverBody)) === "true") {
      return this._ack(store, it, serverETag); // our own push whose answer was lost
    }
    totals.conflicts++;
    const conflict = {
      table,
      partitionKey: it.pk,
      rowKey: it.rk,
      code: res.code,
      statusCode: res.status,
      local: it.body ? fromWire(JSON.parse(it.body)) : null,
      remote: got.ok ? fromWire(JSON.parse(got.text)) : null,
    };
    let choice = "remote";
    if (this.options.resolve) choice = (await this.options.resolve(conflict)) ?? "remote";
    if (choice === "remote") {
      // Taken only if the local copy is still the version pushed (else the next push meets it).
      await store._write("syncTakeRemote", [table, it.pk, it.rk, it.local, serverBody, serverETag], (taken) =>
        taken === "true" ? [{ table, kind: serverBody ? "upsertReplace" : "delete", partitionKey: it.pk, rowKey: it.rk, remote: true }] : [],
      );
    } else {
      if (choice !== "local") await this.client.upsertEntity({ ...choice, partitionKey: it.pk, rowKey: it.rk }, "Replace");
      await store._write("syncRebase", [table, it.pk, it.rk, serverETag], () => []);
      this._again = true; // push the kept version in the next round
    }
    this.emit("conflict", { ...conflict, resolution: choice === "remote" || choice === "local" ? choice : "merge" });
  }

  // ---- pull (sync-pull.js) ----

  _pull(store, totals) {
    pullBegins(this); // a wake of the socket before now is a change this pull reads
    return pull(this, store, totals);
  }

  // ---- running by itself ----

  /**
   * start syncs now, after each local change of the table (debounced), as soon as the
   * remote table changes where the endpoint tells (live, the default: sync-live.js), else
   * every interval ms (default 30 s), and when the browser comes back online; a failure
   * is retried with exponential backoff (1 s doubling to 60 s). stop() ends it.
   */
  start({ interval = 30_000, debounce = 50, live = true } = {}) {
    if (this._timer !== undefined) return this;
    this._backoff = 0;
    const tick = (delay) => {
      clearTimeout(this._timer);
      this._timer = setTimeout(run, delay);
    };
    const next = () => {
      this._watching?.abort();
      if (this._timer === undefined) return; // stopped during the sync
      if (!live) return tick(interval);
      const ctl = (this._watching = new AbortController());
      watch(this, ctl.signal).then(
        (w) => ctl.signal.aborted || this._timer === undefined || tick(w === "changed" ? 0 : interval),
        () => ctl.signal.aborted || this._timer === undefined || backoff(), // offline: sync again soon
      );
    };
    const backoff = () => {
      this._backoff = Math.min((this._backoff || 500) * 2, 60_000);
      tick(this._backoff * (0.75 + Math.random() / 2));
    };
    // A run during a run shares it (sync) and the run under way goes once more: one watch
    // follows it, not one for each caller. Two would abort each other, and the one
    // aborted may have been the one to see the socket's wake.
    let watched;
    const run = () => {
      const running = this.sync();
      if (running === watched) return;
      watched = running;
      running.then(
        () => ((this._backoff = 0), next()),
        (e) => {
          if (this._timer === undefined) return; // stopped during the sync
          if (e.remoteLost) tick(interval); // stopped until the application decides
          else backoff();
        },
      );
    };
    this._kick = () => tick(debounce);
    Promise.resolve(this.client._store()).then((store) => {
      if (this._timer === undefined) return;
      this._unsubscribe = store._subscribe((commit) => {
        if (commit.changes.some((c) => !c.remote && c.table?.toLowerCase() === this.client.tableName.toLowerCase() && c.partitionKey !== undefined)) this._kick();
      });
    });
    globalThis.addEventListener?.("online", this._kick);
    globalThis.addEventListener?.("offline", (this._offline = () => this._status({ online: false })));
    this._timer = setTimeout(run, 0);
    return this;
  }

  /**
   * stop ends what start began, and the updates of status.pending after local writes
   * (until the next track or sync). A sync in flight finishes: the promise resolves when it
   * has, whatever its outcome, which status and the "error" event report.
   */
  stop() {
    clearTimeout(this._timer);
    this._timer = undefined;
    this._watching?.abort();
    unlisten(this);
    this._unsubscribe?.();
    this._unwatch?.();
    this._unwatch = undefined;
    globalThis.removeEventListener?.("online", this._kick);
    globalThis.removeEventListener?.("offline", this._offline);
    return Promise.resolve(this._running).then(
      () => {},
      () => {},
    );
  }
}

/** checkDecision throws a TypeError unless d is a value of onRemoteLost (or undefined). */
function checkDecision(d) {
  if (d !== undefined && !REMOTE_LOST.includes(d)) throw new TypeError(`tabletop: onRemoteLost must be "stop", "push" or "adopt", not ${JSON.stringify(d)}`);
}

/** pushOp is the $batch operation that pushes an outbox item (see _pushOne). */
function pushOp(table, it) {
  if (it.body === "") return { method: "DELETE", path: entityPath(table, it.pk, it.rk), etag: it.base };
  if (it.base === "") return { method: "POST", path: table, body: it.body };
  return { method: "PUT", path: entityPath(table, it.pk, it.rk), body: it.body, etag: it.base };
}

/** batches splits outbox items (in key order) into runs of one partition, of at most MAX_BATCH. */
function batches(items) {
  const out = [];
  for (const it of items) {
    const last = out.at(-1);
    if (last && last[0].pk === it.pk && last.length < MAX_BATCH) last.push(it);
    else out.push([it]);
  }
  return out;
}

/** pool runs fn over items with at most n in flight; it rejects with the first failure once all settled. */
async function pool(items, n, fn) {
  let i = 0;
  let failure;
  const worker = async () => {
    while (i < items.length && !failure) {
      const it = items[i++];
      try {
        await fn(it);
      } catch (e) {
        failure ??= e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  if (failure) throw failure;
}

