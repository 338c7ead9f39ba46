// Stores: one engine store per database name, persistent in IndexedDB or in memory.
//
// Every tab, one store. Every tab of an origin may open the same persistent store at once.
// Each keeps its own replica of it in its engine and reads from it locally, so a read
// costs the same in every tab; writes are serialized by IndexedDB itself (idb.js). A
// write waits in a queue until this tab's previous commit is done, then runs inside ONE
// read-write IndexedDB transaction: it reads the log entries other tabs committed since
// this replica's sequence number and applies them, applies the queued writes in the engine
// (synchronously, inside the transaction's callback, so the transaction stays open), and
// puts their change sets and the new head. Once the transaction has committed, the change
// sets are posted on a BroadcastChannel named after the store (unless no other tab is
// known: a tab that opens reads the log, and again when a tab answers its greeting), and
// only then do the writes resolve. The other tabs apply what they receive in sequence order; a gap (a message
// missed, a tab that was asleep) is read back from the log. So a conditional write always
// runs on the latest committed state of every tab, and a write that resolved in one tab is
// in the others' replicas as soon as its message arrives.
//
// Durability. A write resolves only once its transaction has committed (durability
// "strict" by default: flushed to disk), so a tab that closes or crashes mid-write loses
// nothing acknowledged. Writes that arrive while a commit is in flight are grouped into the
// next transaction, of up to GROUP_BYTES each. A read runs at once, but while writes
// applied in the engine are waiting for their transaction its answer waits for it; if that
// transaction fails, its writes fail, the replica is reloaded from IndexedDB, and the read
// runs again. So no caller ever sees data that could still be lost.
//
// The commit hook. Every committed, durable change of every tab passes through the
// Store._subscribe listeners of every tab, once, in commit order (the order of the log);
// in the writing tab after it is durable and before its write resolves:
//
//   const unsubscribe = store._subscribe((commit) => { … });
//   commit.changes: [{ table, kind, partitionKey?, rowKey?, etag? }, …]
//     kind: "create" | "upsertMerge" | "upsertReplace" | "updateMerge" | "updateReplace" |
//           "delete" (entities), "createTable" | "deleteTable" | "setAccessPolicy" |
//           "import" (then the change names no keys: the tables it touched changed)
//   commit.records: the engine's records as stored ([{ kind, data }]), [] in memory
//   commit.local: true for a write of this tab, false for another tab's
//   commit.reset: true (with no changes) when the replica was reloaded whole and commits
//                 of other tabs may have been skipped: whatever was read may have changed
//
// It is internal: live queries and sync are built on it.
//
// Key ranges. A persistent store opens in the engine with no key range resident (see
// load.js and idb.js): a call that needs a range answers NeedRange, and the range's pages,
// with the log records that touch them, are loaded into the engine before the call runs
// again. A read loads them in a read-only
// transaction, one at a time with what else changes the replica (other tabs' commits are
// deferred by the engine for keys not resident, and applied after their page loads), after
// catching up when another tab's compaction put newer pages than the replica has reached.
// A read whose range runs past the pages it got (a scan) has the next ones read meanwhile
// (_readAhead). A write loads them inside its own read-write transaction, a slice at a
// time too, the transaction kept open between slices. Once the log since the pages
// passes COMPACT_BYTES, or the log a tab wrote touching one page passes idb.js's
// PAGE_LOG_BYTES (a page a fill keeps writing), that tab rewrites the pages the log touched.

import { loadEngine } from "./engine.js";
import { fromEngine } from "./errors.js";
import { callEach } from "./events.js";
import { damageIn } from "./idb-format.js";
import { openIDBStorage, deleteIDBStorage, Carry } from "./idb.js";
import { openPartial, fromHex, eachCommand, compareBytes, yieldToPage, SLICE_MS } from "./load.js";

const open = new Map(); // name → Promise<Store>, for clients constructed from a name

/**
 * ALONE_MS is how long a tab that opened a store waits for another tab to answer its
 * greeting before it writes as the only tab: in one round trip to IndexedDB instead of
 * two, reading the head in the same round trip as its records are put (idb.js transact).
 * If another tab wrote after all, that transaction fails, the tab's replica is reloaded
 * and the writes run again.
 */
const ALONE_MS = 100;

/**
 * SPECULATE_AFTER is how many commits in a row, with no other tab's between, make a tab
 * that shares its store with other tabs write as a lone tab does, adding its records with
 * no read of the log first (idb.js transact's speculate): one round trip instead of two
 * while it is the only tab writing. If another tab wrote after all, the commit fails
 * whole, the replica is reloaded and the writes run again (_failed), and the count starts
 * over; so tabs that take turns writing keep the round trip that reads the log.
 */
const SPECULATE_AFTER = 3;

/**
 * WRITER_LINGER_MS is how long a tab that shares its store keeps the writer lock (idb.js)
 * after its last commit. A tab that speculates (above) takes the lock as a tab writing
 * alone does, so that once a commit has checked the lease under it, its commits read no
 * lease: one request to IndexedDB each, with other tabs open too. It lets the lock go
 * when it hears another tab (any message), when another tab asks for it ("writer", before
 * a compaction asked for), and this long after its writes stop.
 */
const WRITER_LINGER_MS = 100;

/**
 * DEFER_MS is how long a tab with no commit listener keeps other tabs' commits before it
 * applies them, in one call of the engine for all it received meanwhile (DEFER_MOST at
 * most): a tab left open beside a writer then costs the writer's cores one call per
 * DEFER_MS, not one per commit. Anything that reads or writes the replica applies them
 * first (_exec, _run), so a read sees every commit whose message has arrived, as before.
 */
const DEFER_MS = 20;
const DEFER_MOST = 256;

/** GROUP_BYTES bounds the change sets of one IndexedDB commit (one write may exceed it alone). */
const GROUP_BYTES = 1 << 20;


/** COMPACT_BYTES is how much log, since the pages were written, makes a tab compact. */
const COMPACT_BYTES = 4 << 20;

/**
 * COMPACT_IDLE_MS is how long a tab's writes pause before it compacts a page they made
 * heavy with log (idb.js pageLogHeavy): writes that keep coming are not held up by it.
 */
const COMPACT_IDLE_MS = 200;

/**
 * CACHE_BYTES is the default of openStore's cacheBytes: about how many bytes of stored
 * records (pages and their log) a tab keeps loaded in its engine. Past it, the ranges
 * loaded longest ago are dropped from the engine (core.Store.EvictRange), to be read from
 * IndexedDB again when a call needs them: the engine's memory follows what the app reads
 * now, not what it ever read. One call may load more than it needs (an index scan reads
 * its whole table); the next call past the budget trims back. A wasm memory never
 * shrinks, so the Go heap's peak is what the tab keeps, and the peak follows the budget
 * (bench/memory.js prints both).
 */
const CACHE_BYTES = 32 << 20;

/** LOAD_SLICE is how many pages (of about 64 KiB) one call of a sliced load applies (slicesOf). */
const LOAD_SLICE = 2;

/** SLICED_SETS_BYTES bounds the log records a sliced load hands every slice (slicesOf). */
const SLICED_SETS_BYTES = 256 << 10;

const CHANGE_SET = 1;

/**
 * NeedRange is what a call of a partial store throws when it needs the key range [lo, hi)
 * loaded first; ranges lists [lo, hi) and every further range the engine named with it (a
 * bulk write names the ranges of all the partitions it writes), which a write loads
 * together.
 */
class NeedRange {
  constructor(need) {
    this.ranges = [];
    for (let i = 0; i + 1 < need.length; i += 2) this.ranges.push([fromHex(need[i]), fromHex(need[i + 1])]);
    [[this.lo, this.hi]] = this.ranges;
  }
}

/** EVICT_RECORDS is how many records one call of _evictSlice drops: a few milliseconds' worth. */
const EVICT_RECORDS = 500;

/** copyAnswer reads a binary answer (saveRange's page) out of the engine's memory. */
const copyAnswer = (u8, dv, pos, len) => u8.slice(pos, pos + len);

/** Store is an open database: its tables and entities. Get one from openStore. */
export class Store {
  /** @internal */
  constructor(name, engine, handle, storage, seq = 0) {
    this.name = name;
    this.inMemory = !storage;
    this._engine = engine;
    this._handle = String(handle);
    this._storage = storage;
    this._seq = seq; // the log's sequence number this replica has applied up to (excluded)
    this._logBytes = 0; // bytes of log since the pages, as far as this tab knows
    this._carry = new Carry(); // the carried keys' latest commands, for each log record (idb.js)
    this._listeners = new Set();
    this._errorListeners = new Set(); // on("error")
    this._queue = []; // writes waiting for their transaction, in order
    this._inbox = []; // other tabs' messages waiting for the replica to be free
    this._deferred = []; // other tabs' commit messages kept to apply together (DEFER_MS)
    this._pumping = null; // a Promise while commits, catch-ups or reloads are under way
    this._pending = 0; // writes issued and not settled yet
    this._settled = Promise.resolve(); // settles once the last write issued has
    this._reopening = null; // a Promise while the replica is reloaded after a failure
    this._damaged = undefined; // the DataCorrupted error a compaction met: every write fails with it (_compact)
    this._alone = false; // no other tab has the store open, as far as this tab knows
    this._ownStreak = 0; // this tab's commits since another tab's last one (SPECULATE_AFTER)
    this._cacheBytes = CACHE_BYTES; // see CACHE_BYTES
    this._loaded = []; // the key ranges loaded, oldest first: { lo, hi, bytes }
    this._trimLater = null; // the rest of an eviction, run in a later task (_trim)
    this._compactLater = undefined; // the timer of a compaction once writes pause (_compactWhenIdle)
    this._loadedBytes = 0;
    if (storage && typeof BroadcastChannel === "function") {
      this._channel = new BroadcastChannel(`tabletop:${name}`);
      this._channel.onmessage = (ev) => this._receive(ev.data);
      this._channel.unref?.(); // Node: an open store does not keep the process alive
      // Tabs greet each other; a tab that no other answers within ALONE_MS writes alone.
      this._post({ type: "hello" });
      const quiet = setTimeout(() => (this._alone = !this._heard), ALONE_MS);
      quiet.unref?.();
    }
  }

  /**
   * _alone is whether no other tab has the store open, as far as this tab knows; while it
   * is, the storage holds the store's writer lock (idb.js writeAlone).
   */
  get _alone() {
    return this._isAlone;
  }

  set _alone(on) {
    this._isAlone = on;
    this._storage?.writeAlone(on);
  }

  /**
   * _exec runs one engine operation now, mapping a failure to RestError, or throwing a
   * NeedRange; see Engine.call for decode.
   */
  _exec(op, args, decode) {
    if (this._deferred.length > 0 && op !== "apply") this._applyDeferred();
    try {
      return this._engine.call([op, this._handle, ...args], decode);
    } catch (e) {
      if (e?.need) throw new NeedRange(e.need);
      throw fromEngine(e);
    }
  }

  /**
   * _restartIfFailed starts reloading the replica on a new engine if the engine failed
   * (see Engine._fail; the call that met the failure answered EngineFailed): reads and
   * writes wait for it, and then find what IndexedDB holds. It runs before a read or a
   * group of writes, never inside an IndexedDB transaction. An in-memory store has nothing
   * to reload from: it answers EngineFailed from then on.
   */
  _restartIfFailed() {
    if (this._engine.failed && this._storage && !this._closed) this._reopening ??= this._reload().finally(() => (this._reopening = null));
  }

  /**
   * _load loads pages that idb.js read ({ lo, hi, pages, sets }: the log records that touch
   * them) into the engine, in one call; setsCounted tells that the sets were counted against
   * cacheBytes by an earlier slice of the same read (_loadSliced).
   */
  _load(loaded, setsCounted = false) {
    try {
      this._exec("loadRange", [loaded.lo, loaded.hi, ...loaded.pages, ...loaded.sets]);
    } catch (e) {
      throw e?.code === "EngineFailed" ? e : (damageIn(loaded) ?? e);
    }
    const bytes = bytesOf(loaded.pages) + (setsCounted ? 0 : bytesOf(loaded.sets));
    this._loaded.push({ lo: loaded.lo, hi: loaded.hi, bytes });
    this._loadedBytes += bytes;
  }

  /**
   * _loadSliced loads what a read of pages brought (readPages) a slice at a time
   * (slicesOf), letting the page's event loop run between slices: a read that loads many
   * pages never holds the main thread for all of them.
   */
  async _loadSliced(read) {
    const slices = slicesOf(read);
    for (let i = 0; i < slices.length; i++) {
      if (i > 0) await yieldToPage();
      this._load(...slices[i]);
    }
  }

  /**
   * _noteWritten counts the change sets this tab committed against cacheBytes: each command
   * in the loaded range that holds its key (a write needs its range loaded), so that the
   * range is dropped, with what was written to it, when its turn comes.
   */
  _noteWritten(sets) {
    if (this._loaded.length === 0) return;
    for (const { cs } of sets) {
      eachCommand(cs, (cmd, key) => {
        const range = this._loaded.findLast((r) => compareBytes(r.lo, key) <= 0 && compareBytes(key, r.hi) < 0);
        if (!range) return;
        range.bytes += cmd.length;
        this._loadedBytes += cmd.length;
      });
    }
  }

  /** _forgetLoaded forgets the ranges loaded: the replica was replaced by one with none. */
  _forgetLoaded() {
    this._loaded = [];
    this._loadedBytes = 0;
  }

  /**
   * _trim drops the ranges loaded longest ago from the engine until what stays loaded is
   * under three quarters of cacheBytes (see CACHE_BYTES). It runs after a call and only
   * between the replica's changes, when IndexedDB holds everything the engine applied: no
   * write or load of this tab is under way, and the next call loads what it needs again
   * (a budget smaller than the range a tab works in makes every call load it). It drops
   * SLICE_MS of ranges per task, going on in a later one: an eviction deletes its records
   * one by one, and what one call loaded past the budget (an index scan needs its whole
   * table) took over a second to drop in one task. What is still over cacheBytes when the
   * replica next changes is dropped first (_trimBeforeLoads), so that no load adds to it.
   */
  _trim(resumed = false) {
    if ((!resumed && this._loadedBytes <= this._cacheBytes) || this._pumping || this._reopening || this._closed || this._engine.failed) return;
    if (this._evictSlice((this._cacheBytes * 3) / 4)) this._trimLater ??= yieldToPage().then(() => ((this._trimLater = null), this._trim(true)));
  }

  /**
   * _trimBeforeLoads drops the oldest ranges until what stays loaded is within cacheBytes,
   * SLICE_MS of them per task, as the replica starts to change (_run): the calls before
   * left them (see _trim), and the loads and writes about to run add more. Within one run
   * a read's loads follow each other with no eviction between, so a call that needs more
   * than the budget at once (an index scan of a large table) still gets all of it.
   */
  async _trimBeforeLoads() {
    try {
      while (this._evictSlice(this._cacheBytes)) await yieldToPage();
    } catch {
      // the engine failed: the next call reloads the replica on a new one
    }
  }

  /**
   * _evictSlice drops the ranges loaded longest ago from the engine (core.Store.EvictRange)
   * until what stays loaded is within target bytes, for SLICE_MS at most; it reports
   * whether more is left to drop. A range goes EVICT_RECORDS records per call, from its
   * start: one that writes grew (a table pulled or filled in this tab) may hold far more
   * records than it was loaded with, and a call that dropped it whole held the page's main
   * thread for as long as that took. What a range keeps between calls stays loaded, and
   * its bytes count until the last of it goes.
   */
  _evictSlice(target) {
    const started = performance.now();
    while (this._loaded.length > 0 && this._loadedBytes > target && !this._closed && !this._engine.failed) {
      if (performance.now() - started >= SLICE_MS) return true;
      const range = this._loaded[0];
      const rest = this._exec("evictRange", [range.lo, range.hi, String(EVICT_RECORDS)], copyAnswer).json;
      if (rest.length > 0) {
        range.lo = rest;
        continue;
      }
      this._loaded.shift();
      this._loadedBytes -= range.bytes;
    }
    return false;
  }

  /** _loadRange loads the pages covering the start of a needed range, in turn with what else changes the replica. */
  _loadRange(need) {
    return new Promise((resolve, reject) => {
      this._inbox.push({ type: "load", need, done: (e) => (e ? reject(e) : resolve()) });
      this._pump();
    });
  }

  /**
   * _read runs a read and returns its JSON answer: at once (a string) when no write of this
   * tab is waiting for IndexedDB, else a Promise of it that settles once the writes issued
   * before it have settled (so a tab reads its own writes, and never one that is not
   * durable yet).
   */
  _read(op, ...args) {
    return this._readAs(undefined, op, ...args);
  }

  /** _readAs is _read for an operation with a binary answer, which decode reads (see Engine.call). */
  _readAs(decode, op, ...args) {
    this._restartIfFailed();
    if (this._reopening) return this._reopening.then(() => this._readAs(decode, op, ...args));
    if (this._pending > 0) return this._settled.then(() => this._readAs(decode, op, ...args));
    let out;
    try {
      out = this._exec(op, args, decode).json;
    } catch (e) {
      if (!(e instanceof NeedRange)) throw e;
      return this._loadRange(e).then(() => this._readAs(decode, op, ...args));
    }
    if (this._loadedBytes > this._cacheBytes) this._trim();
    return out;
  }

  /**
   * _write runs a write and resolves with its JSON answer once it is durable. describe
   * maps the answer to the changes the commit hook reports.
   */
  _write(op, args, describe) {
    return this._submit({ op, args, describe });
  }

  /**
   * _writeChain runs writes of op, one per element of argsList, in order, each only if the
   * one before it succeeded (else it fails with that one's error), and returns their
   * promises: the parts of one change too large for one call of the engine, such as a
   * pulled page (sync-parts.js). The parts may commit in more than one transaction.
   */
  _writeChain(op, argsList, describe) {
    let before;
    return argsList.map((args) => this._submit((before = { op, args, describe, after: before })));
  }

  /** _submit runs the write w ({ op, args, describe, after? }): see _write and _writeChain. */
  _submit(w) {
    if (this.inMemory || this._closed) {
      try {
        if (w.after?.error) throw w.after.error;
        const { json, records } = this._exec(w.op, w.args);
        this._emit({ changes: w.describe(json), records, local: true });
        return Promise.resolve(json);
      } catch (e) {
        w.error = e;
        return Promise.reject(e);
      }
    }
    const write = new Promise((resolve, reject) => {
      this._queue.push(Object.assign(w, { resolve, reject }));
      this._pump();
    });
    this._pending++;
    this._settled = write.then(
      () => this._pending--,
      () => this._pending--,
    );
    return write;
  }

  /** _receive takes another tab's message: applied at once when the replica is free and it is next. */
  _receive(msg) {
    if (this._closed) return;
    this._heard = true;
    this._alone = false;
    if (msg.type === "hello") return this._post({ type: "here" });
    if (msg.type === "writer") return void (this._ownStreak = 0); // another tab waits for the writer lock: let go of it (above)
    // "here": a tab that wrote alone until it heard this one posted none of those commits
    // (see _commit): the log has them. Any other answer costs one read of the log's end.
    const free = !this._pumping && this._inbox.length === 0 && msg.type === "commit";
    const last = this._deferred.at(-1);
    const next = last ? msg.from === last.from + last.entries.length : msg.from <= this._seq;
    if (free && next && this._listeners.size === 0) return this._defer(msg);
    this._applyDeferred();
    if (free && msg.from <= this._seq) return this._applyRemote(msg);
    this._inbox.push(msg);
    this._pump();
  }

  /** _defer keeps another tab's commit message, the next after those kept, for _applyDeferred (DEFER_MS). */
  _defer(msg) {
    this._deferred.push(msg);
    if (this._deferred.length >= DEFER_MOST) return this._applyDeferred();
    this._deferring ??= setTimeout(() => {
      try {
        this._applyDeferred();
      } catch {
        // A failed engine: the next call reloads the replica from IndexedDB, which has them.
      }
    }, DEFER_MS);
  }

  /** _applyDeferred applies the commit messages _defer kept, in one call of the engine. */
  _applyDeferred() {
    clearTimeout(this._deferring);
    this._deferring = undefined;
    if (this._deferred.length === 0 || this._closed) return;
    const kept = this._deferred;
    this._deferred = [];
    this._applyRemote({ from: kept[0].from, entries: kept.flatMap((m) => m.entries) });
  }

  /**
   * _pump runs, one at a time, what changes the replica: other tabs' messages, then the
   * queued writes, until neither is left.
   */
  _pump() {
    this._pumping ??= this._run().finally(() => {
      this._pumping = null;
      if (!this._closed && (this._inbox.length > 0 || this._queue.length > 0)) this._pump(); // arrived as the loop ended
      else this._trim(), this._linger();
    });
    return this._pumping;
  }

  /** _linger lets the writer lock go WRITER_LINGER_MS from now, unless a commit comes first or this tab is alone. */
  _linger() {
    clearTimeout(this._lingering);
    if (this._alone) return;
    this._lingering = setTimeout(() => this._alone || this._storage?.writeAlone(false), WRITER_LINGER_MS);
  }

  async _run() {
    this._applyDeferred();
    if (this._storage && !this._reopening) await this._trimBeforeLoads();
    while (!this._closed && (this._inbox.length > 0 || this._queue.length > 0)) {
      if (this._inbox.length > 0) await this._process(this._inbox.shift());
      else await this._commit();
    }
  }

  /** _process handles one message: another tab's commit or compaction, a sync, or a range to load. */
  async _process(msg) {
    if (msg.type === "compacted") {
      this._logBytes = 0;
      this._storage.folded();
    } else if (msg.type === "idle") {
      // Writes queued meanwhile go first; the last of them asks again.
      if (this._queue.length === 0) await this._compact(false).catch((e) => this._reportError(e));
    } else if (msg.type === "load") {
      try {
        for (;;) {
          const read = await this._readPages(msg.need);
          if (!read.behind) {
            this._readAhead(msg.need, read);
            await this._loadSliced(read);
            break;
          }
          this._absorb(await this._storage.catchUp(this._seq));
        }
      } catch (e) {
        msg.done(e);
        return;
      }
      msg.done();
    } else if (msg.type === "commit" && msg.from <= this._seq) {
      this._applyRemote(msg);
    } else {
      // A gap, a sync or a tab's answer: read what is missing from the log.
      try {
        this._absorb(await this._storage.catchUp(this._seq));
      } catch (e) {
        msg.done?.(e);
        return; // the next write or message catches up again
      }
      msg.done?.();
    }
  }

  /**
   * _readPages reads the pages covering the start of the range need (idb.js readPages), or
   * takes those that _readAhead began to read, if they cover need's start and were read at
   * the point of the log the replica is still at.
   */
  async _readPages(need) {
    const ahead = this._ahead;
    this._ahead = undefined;
    if (ahead?.seq === this._seq && compareBytes(ahead.lo, need.lo) <= 0) {
      const read = await ahead.read;
      if (read && !read.behind && ahead.seq === this._seq && compareBytes(need.lo, read.hi) < 0) return read;
    }
    return this._storage.readPages(need.lo, need.hi, this._seq);
  }

  /**
   * _readAhead begins to read the pages that follow read when the range need runs past
   * it (a scan): IndexedDB reads them while the engine loads read, and the scan's next
   * load finds them read (_readPages) instead of waiting for them.
   */
  _readAhead(need, read) {
    if (compareBytes(read.hi, need.hi) >= 0) return;
    const seq = this._seq;
    this._ahead = { seq, lo: read.hi, read: this._storage.readPages(read.hi, need.hi, seq).catch(() => undefined) };
  }

  /** _applyRemote applies the entries of a commit message this replica lacks; from ≤ _seq. */
  _applyRemote(msg) {
    const skip = this._seq - msg.from;
    if (skip >= msg.entries.length) return;
    this._absorb({ nextSeq: msg.from + msg.entries.length, entries: msg.entries.slice(skip) });
  }

  /**
   * _absorb brings the replica up to caught.nextSeq with what idb.js read (or a message
   * carried): entries applied in order, or a whole reload. Synchronous: it runs inside the
   * transaction of a write. It emits the commits it applied.
   */
  _absorb(caught) {
    if (caught.reload || caught.entries.length > 0) this._ownStreak = 0; // another tab wrote
    if (caught.reload) {
      const { changeSets, logBytes, firstSeq, entries } = caught.reload;
      const old = this._handle;
      this._handle = openEngineStore(this._engine, changeSets);
      this._forgetLoaded();
      closeEngineStore(this._engine, old);
      this._logBytes = logBytes;
      this._carry = carryOf(changeSets);
      const from = this._seq;
      this._seq = caught.nextSeq;
      if (from < firstSeq) this._emit({ changes: [], records: [], local: false, reset: true });
      else this._emitRemote(entries.slice(from - firstSeq));
      return;
    }
    if (caught.entries.length === 0) return;
    this._exec("apply", caught.entries.map((e) => e.cs));
    for (const e of caught.entries) this._carry.add(e.cs);
    this._logBytes += bytesOf(caught.entries.map((e) => e.cs));
    this._seq = caught.nextSeq;
    this._emitRemote(caught.entries);
  }

  /** _emitRemote emits other tabs' commits: an entry with changes starts one. */
  _emitRemote(entries) {
    let commit;
    for (const e of entries) {
      if (e.changes || !commit) {
        if (commit) this._emit(commit);
        commit = { changes: e.changes ?? [], records: [], local: false };
      }
      commit.records.push({ kind: CHANGE_SET, data: e.cs });
    }
    if (commit) this._emit(commit);
  }

  /**
   * _commit runs the queued writes in one IndexedDB transaction (see the top of this file)
   * and settles them: SLICE_MS of them at a time in the engine, other tasks of the page
   * running between. A compaction runs alone.
   */
  async _commit() {
    if (this._damaged) {
      for (const w of this._queue.splice(0)) w.reject(this._damaged);
      return;
    }
    this._restartIfFailed();
    if (this._reopening) await this._reopening.catch(() => {});
    if (this._queue[0].op === "compact") {
      const w = this._queue.shift();
      try {
        await this._compact(true);
        w.resolve("");
      } catch (e) {
        w.reject(e);
      }
      return;
    }
    const batch = this._queue;
    this._queue = [];
    let ran = []; // the writes applied in the engine, in order
    let out; // what the transaction stored: { sets }
    let from;
    let shrinking = true;
    let touched = false; // the replica changed in the transaction: reload it if that fails
    let loading = []; // slices of the pages the write below needed, not loaded yet: then it runs again
    const speculate = this._alone || this._ownStreak >= SPECULATE_AFTER;
    clearTimeout(this._lingering);
    try {
      from = await this._storage.transact(this._seq, (caught, loaded, resumed) => {
        if (loaded) {
          loading = loaded.flatMap(slicesOf);
        } else if (!resumed) {
          touched = true;
          this._absorb(caught);
          ran = [];
          shrinking = true;
          out = { sets: [] };
        }
        const started = performance.now();
        for (let i = 0; loading.length > 0; i++) {
          if (i > 0 && performance.now() - started >= SLICE_MS) return { yield: true }; // the rest in a later task
          this._load(...loading.shift());
        }
        let bytes = out.sets.reduce((n, s) => n + s.cs.length, 0);
        const first = ran.length; // the first write of this task
        for (let i = first; i < batch.length; i++) {
          const w = batch[i];
          if (bytes >= GROUP_BYTES || w.op === "compact") break;
          if (i > first && performance.now() - started >= SLICE_MS) return { yield: true }; // the rest in a later task (idb.js runLoading)
          w.commit = w.error = undefined; // a write tried again after a failure
          try {
            if (w.after?.error) throw w.after.error; // the part before it failed (_writeChain)
            const { json, records } = this._exec(w.op, w.args);
            w.json = json;
            w.commit = { changes: w.describe(json), records, local: true };
            let first = true;
            for (const r of records) {
              if (r.kind !== CHANGE_SET) continue;
              bytes += r.data.length;
              this._carry.add(r.data);
              out.sets.push({ cs: r.data, changes: first ? w.commit.changes : undefined, total: this._logBytes + bytes, carry: this._carry.bytes() });
              first = false;
            }
          } catch (e) {
            if (e instanceof NeedRange) return { need: e.ranges }; // it changed nothing
            w.error = e;
          }
          ran.push(w);
          shrinking &&= w.op === "deleteTable" || (w.op === "write" && w.args[1] === "delete");
        }
        return out;
      }, speculate, speculate);
    } catch (error) {
      await this._failed(batch, ran, shrinking && ran.length > 0, touched, error);
      return;
    }
    this._queue.unshift(...batch.slice(ran.length));
    this._seq = from + out.sets.length;
    if (out.sets.length > 0) this._ownStreak++;
    this._logBytes += bytesOf(out.sets.map((s) => s.cs));
    try {
      this._noteWritten(out.sets);
      // What another tab applies of each: a smaller message costs less to post, so the
      // carry and total are left out. A tab writing alone posts nothing, sparing each write
      // the post: a tab that opens reads the log, and reads it again when this one answers
      // its greeting ("here", _receive).
      if (out.sets.length > 0 && !this._alone) this._post({ type: "commit", from, entries: out.sets.map(({ cs, changes }) => (changes ? { cs, changes } : { cs })) });
    } catch (e) {
      // The writes are durable: they settle whatever went wrong after (another tab that
      // missed the message reads the log); the error is reported, not swallowed.
      queueMicrotask(() => {
        throw e;
      });
    }
    for (const w of ran) {
      if (w.error) w.reject(w.error);
      else this._emit(w.commit), w.resolve(w.json);
    }
    // A compaction that fails is tried again after the next commit (a damaged log excepted: _compact).
    if (this._logBytes > COMPACT_BYTES) await this._compact(false).catch((e) => this._reportError(e));
    else this._compactWhenIdle();
  }

  /**
   * _compactWhenIdle compacts, once this tab has not committed for COMPACT_IDLE_MS, if a
   * page carries too much of the log it wrote (idb.js pageLogHeavy); close does it at once.
   */
  _compactWhenIdle() {
    clearTimeout(this._compactLater);
    this._compactLater = setTimeout(() => {
      this._compactLater = undefined;
      this._compactIfHeavy();
    }, COMPACT_IDLE_MS);
  }

  /**
   * _compactIfHeavy compacts if a page carries too much of the log this tab wrote. The
   * question is asked outside the pump: the browser may take long to estimate the quota,
   * and writes meanwhile must not wait for it.
   */
  async _compactIfHeavy() {
    if (!(await this._storage.pageLogHeavy()) || this._closed) return;
    this._inbox.push({ type: "idle" });
    this._pump();
  }

  /**
   * _compact rewrites the pages the log touched (idb.js compact), for the replica as it
   * stands; must tells it to catch up and try until it has compacted, else a tab that
   * wrote meanwhile makes it give up (it compacts after its own next commit). A log found
   * damaged (DataCorrupted: a record gone since the open) fails it and every write after
   * it in this tab, as an open would refuse the store: a write taken now would be stored
   * where no open could read it back.
   */
  async _compact(must) {
    const save = (lo, hi, loaded, most) => {
      for (const l of loaded ?? []) this._load(l);
      try {
        return this._exec("saveRange", [lo, hi, String(most)], copyAnswer).json;
      } catch (e) {
        if (e instanceof NeedRange) return { need: e.ranges };
        throw e;
      }
    };
    try {
      for (let tries = 0; ; tries++) {
        if (must && !this._alone) this._post({ type: "writer" }); // a tab that holds the lock lets it go
        if (await this._storage.compact(this._seq, save, must)) break;
        if (!must || tries >= 10) return;
        this._absorb(await this._storage.catchUp(this._seq));
      }
    } catch (e) {
      if (e?.code === "DataCorrupted") this._damaged = e;
      throw e;
    }
    this._logBytes = 0;
    this._post({ type: "compacted" });
  }

  /**
   * _failed handles a transaction that failed: nothing of it is stored. If it changed the
   * replica, the replica is reloaded from IndexedDB. Writes that only free space and failed
   * for the quota are tried again once, the ballast released. Otherwise the writes that
   * ran fail with the error (an engine error their own), and so does every write issued
   * before the failure was known: writes issued one after the other are never applied
   * with a gap.
   */
  async _failed(batch, ran, shrinking, touched, error) {
    if (touched) {
      this._reopening = this._reload().finally(() => (this._reopening = null));
      await this._reopening.catch(() => {});
    }
    const rest = batch.slice(ran.length);
    if (error?.speculation) {
      // Another tab wrote after all: run the writes again, on the state it left.
      this._alone = false;
      this._ownStreak = 0;
      this._queue.unshift(...ran, ...rest);
      return;
    }
    if (error?.code === "QuotaExceeded" && shrinking && !ran.some((w) => w.retried) && (await this._storage.releaseBallast().catch(() => false))) {
      for (const w of ran) (w.error = undefined), (w.retried = true);
      this._queue.unshift(...ran, ...rest);
      return;
    }
    const later = this._queue;
    this._queue = [];
    for (const w of [...ran, ...rest, ...later]) w.reject(w.error ?? error);
  }

  /** _reload replaces the replica by one loaded from IndexedDB, emitting what others committed meanwhile. */
  async _reload() {
    const from = this._seq;
    const loaded = await this._storage.load(from);
    const old = this._handle, oldEngine = this._engine;
    if (oldEngine.failed) this._engine = await loadEngine(this._engineOptions);
    this._handle = await openPartial(this._engine, loaded.changeSets);
    closeEngineStore(oldEngine, old);
    this._forgetLoaded();
    this._logBytes = loaded.logBytes;
    this._carry = carryOf(loaded.changeSets);
    this._seq = loaded.nextSeq;
    if (from < loaded.firstSeq) this._emit({ changes: [], records: [], local: false, reset: true });
    // Entries from `from` on are other tabs' commits (this tab's failed ones are not stored).
    else this._emitRemote(loaded.entries);
  }

  _post(msg) {
    try {
      this._channel?.postMessage(msg);
    } catch {
      // a closed channel: the other tabs read the log
    }
  }

  /** _emit hands a commit to the _subscribe listeners. */
  _emit(commit) {
    callEach(this._listeners, commit);
  }

  /**
   * on adds a listener of event "error": the errors of work the store does by itself,
   * which no call of the app awaits — an automatic compaction that failed (QuotaExceeded:
   * it is tried again after a later commit; DataCorrupted: every later write fails with
   * it) and the catch-up with other tabs' writes after opening. It returns the store.
   */
  on(event, listener) {
    if (event !== "error") throw new TypeError(`tabletop: Store has no event ${event}`);
    if (typeof listener !== "function") throw new TypeError("tabletop: a listener is a function");
    this._errorListeners.add(listener);
    return this;
  }

  /** off removes a listener that on added. */
  off(event, listener) {
    if (event === "error") this._errorListeners.delete(listener);
    return this;
  }

  /** _reportError hands an error of the store's own work to the "error" listeners; one that throws stops no other. */
  _reportError(error) {
    callEach(this._errorListeners, error);
  }

  /** _subscribe adds a commit listener (see the top of this file); it returns the unsubscribe function. */
  _subscribe(fn) {
    this._applyDeferred(); // commits that arrived before it are not its to hear
    this._listeners.add(fn);
    return () => this._listeners.delete(fn);
  }

  /** _serviceProperties returns the service properties: kept beside the store, or the defaults. */
  async _serviceProperties() {
    this._props ??= (await this._storage?.getMeta("serviceProperties")) ?? defaultProperties();
    return structuredClone(this._props);
  }

  /** _setServiceProperties replaces the service properties that properties sets. */
  async _setServiceProperties(properties = {}) {
    const next = { ...(await this._serviceProperties()) };
    for (const k of ["logging", "hourMetrics", "minuteMetrics", "cors"]) if (properties[k] !== undefined) next[k] = structuredClone(properties[k]);
    await this._storage?.putMeta("serviceProperties", next);
    this._props = next;
  }

  /** compact writes the pages the change log touched now, replacing the log (it also happens by itself). */
  async compact() {
    if (this.inMemory) {
      this._exec("compact", []);
      return;
    }
    await this._write("compact", [], () => []);
  }

  /**
   * sync brings this tab's replica up to every write committed in any tab, reading the log
   * (a write does so by itself; a read answers from what this tab has received).
   */
  async sync() {
    if (this.inMemory) return;
    const error = await new Promise((done) => {
      this._inbox.push({ type: "sync", done });
      this._pump();
    });
    if (error) throw error;
  }

  /** close closes the store and, for a persistent one, releases the database for other tabs. */
  async close() {
    for (const [key, entry] of open) if (entry.store === this) open.delete(key);
    while (this._pumping) await this._pumping; // the writes already issued are committed
    if (this._compactLater !== undefined) {
      clearTimeout(this._compactLater);
      this._compactLater = undefined;
      await this._compactIfHeavy();
      while (this._pumping) await this._pumping;
    }
    this._closed = true;
    clearTimeout(this._lingering);
    clearTimeout(this._deferring);
    this._channel?.close();
    if (this._reopening) await this._reopening.catch(() => {});
    closeEngineStore(this._engine, this._handle); // a failed engine has nothing to close
    this._storage?.close();
  }
}

function defaultProperties() {
  const off = { enabled: false };
  return {
    logging: { version: "1.0", read: false, write: false, delete: false, retentionPolicy: off },
    hourMetrics: { version: "1.0", enabled: false, retentionPolicy: off },
    minuteMetrics: { version: "1.0", enabled: false, retentionPolicy: off },
    cors: [],
  };
}

/** openEngineStore opens a partial store in the engine on the change sets after the pages, in one call; it returns the handle. */
function openEngineStore(engine, changeSets) {
  let handle;
  try {
    handle = String(engine.call(["open", "", "partial"]).json);
    if (changeSets.length > 0) engine.call(["apply", handle, ...changeSets]);
    return handle;
  } catch (e) {
    if (handle) closeEngineStore(engine, handle);
    throw fromEngine(e);
  }
}

/** carryOf is a Carry of the carried keys' commands a replica opened with. */
function carryOf(changeSets) {
  const carry = new Carry();
  for (const cs of changeSets) carry.add(cs);
  return carry;
}

/**
 * slicesOf cuts what a read of pages brought (readPages: { lo, hi, pages, sets, starts,
 * names }) into the arguments of the _load calls that load it LOAD_SLICE pages at a time,
 * each slice its own key range (from its first page's start to the next slice's). Every
 * slice gets the log records that touch the read's pages, and the engine applies those of
 * its own keys; records of more than SLICED_SETS_BYTES in all (a log not compacted for
 * long) make the read one slice instead, as they would be handed again with every slice.
 */
function slicesOf(read) {
  const starts = read.starts;
  if (!starts || read.pages.length <= LOAD_SLICE || bytesOf(read.sets) > SLICED_SETS_BYTES) return [[read]];
  const slices = [];
  for (let i = 0; i < read.pages.length; i += LOAD_SLICE) {
    const j = Math.min(i + LOAD_SLICE, read.pages.length);
    const names = { pages: read.names.pages?.slice(i, j), sets: read.names.sets };
    slices.push([{ lo: starts[i], hi: j < starts.length ? starts[j] : read.hi, pages: read.pages.slice(i, j), sets: read.sets, names }, i > 0]);
  }
  return slices;
}

/** bytesOf sums the lengths of byte arrays. */
function bytesOf(list) {
  return list.reduce((n, b) => n + b.length, 0);
}

function closeEngineStore(engine, handle) {
  try {
    engine.call(["close", handle]);
  } catch {
    // already closed
  }
}

/**
 * openStore opens the store of that name: persistent in IndexedDB unless inMemory is set.
 * Every tab may open it at once (lock: "shared", the default). An exclusive opener
 * (lock: "fail" | "wait" | "steal") keeps every other tab out: while another tab has the
 * store open it fails with RestError code "StoreLocked" after lockTimeout ms ("fail"),
 * waits ("wait"), or takes the store over ("steal"); a sharing tab waits up to lockTimeout
 * for an exclusive holder, then fails with StoreLocked. durability "strict" (default) resolves each write only once the
 * browser has flushed it to disk; "relaxed" once the operating system has it. persist:
 * true asks the browser to keep the origin's storage under pressure
 * (navigator.storage.persist()); store.persisted says whether it agreed.
 * @returns {Promise<Store>}
 */
export async function openStore(name, options = {}) {
  checkName(name);
  const cacheBytes = options.cacheBytes === undefined ? CACHE_BYTES : checkCacheBytes(options.cacheBytes);
  const engine = await loadEngine(options);
  if (options.inMemory) return new Store(name, engine, engineOpenMemory(engine));
  const persisted = options.persist ? await persist() : undefined;
  const storage = await openIDBStorage(name, options);
  try {
    const { changeSets, logBytes, nextSeq } = await storage.load();
    const store = new Store(name, engine, await openPartial(engine, changeSets), storage, nextSeq);
    store._engineOptions = options;
    store._cacheBytes = cacheBytes;
    store._logBytes = logBytes;
    store._carry = carryOf(changeSets);
    store.sync().catch((e) => store._reportError(e)); // what other tabs committed while it opened
    if (persisted !== undefined) store.persisted = persisted;
    return store;
  } catch (e) {
    storage.close();
    throw fromEngine(e);
  }
}

/** checkCacheBytes returns openStore's cacheBytes if it is a number of bytes, else throws a TypeError. */
function checkCacheBytes(n) {
  if (!Number.isSafeInteger(n) || n < 0) throw new TypeError(`tabletop: cacheBytes must be a whole number of bytes, not ${n}`);
  return n;
}

/** persist asks the browser to keep this origin's storage; false where it cannot ask. */
async function persist() {
  try {
    return (await globalThis.navigator?.storage?.persist?.()) ?? false;
  } catch {
    return false;
  }
}

function engineOpenMemory(engine) {
  return engine.call(["open", "", "memory"]).json;
}

/**
 * checkName refuses what cannot be a store name: a connection string or an account URL
 * passed where the SDK would take one.
 */
function checkName(name) {
  if (typeof name !== "string" || name === "") throw new TypeError("tabletop: a store name must be a non-empty string");
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(name) || /(^|;)\s*(AccountKey|AccountName|DefaultEndpointsProtocol|SharedAccessSignature|TableEndpoint|UseDevelopmentStorage)\s*=/i.test(name)) {
    throw new TypeError(`tabletop: "${name.slice(0, 40)}…" looks like a connection string or URL; Tabletop takes a store name (or "memory:name") where the SDK takes those`);
  }
}

/** deleteStore deletes a persistent store's database. Close the store first. */
export function deleteStore(name) {
  checkName(name);
  return deleteIDBStorage(name);
}

/**
 * storeOf resolves what a client was constructed with: a Store as is; a name opens (once)
 * the persistent store of that name; "memory:name" an in-memory one.
 * @returns {Promise<Store>}
 */
export function storeOf(target) {
  if (target instanceof Store) return Promise.resolve(target);
  let entry = open.get(target);
  if (!entry) {
    const inMemory = target.startsWith("memory:");
    const name = inMemory ? target.slice(7) : target;
    const promise = openStore(name, { inMemory });
    entry = { promise };
    promise.then((s) => (entry.store = s), () => open.delete(target));
    open.set(target, entry);
  }
  return entry.promise;
}

/**
 * checkTarget throws, at construction, for what a client cannot be constructed with: not
 * a Store nor a store name, or a connection string or URL where the SDK would take one.
 */
export function checkTarget(target) {
  if (target instanceof Store) return;
  if (typeof target !== "string" || target === "") throw new TypeError("tabletop: a client needs a Store or a store name");
  checkName(target.startsWith("memory:") ? target.slice(7) || "memory" : target);
}

/** closeStores closes every store that clients opened by name. */
export async function closeStores() {
  await Promise.all([...open.values()].map((e) => e.promise.then((s) => s.close(), () => {})));
}
