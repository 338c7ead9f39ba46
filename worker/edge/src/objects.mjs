// The Durable Object classes: Go cannot define one, so each is a thin JavaScript class
// around one long-lived Go instance (gohost.mjs) that holds the object's store.
//
// AccountObject: one per account; its store is the table catalog and the service
// properties. It answers Query/Create/Delete Table, service properties and stats, and
// every CORS preflight; it also keeps each table's partition map and runs splits
// (split.mjs). TableObject: one per PartitionKey range of a table (one per table until it
// is split); its store holds the table, the entities of its range and the access
// policies. It answers entity requests, $batch and table ACLs routed to its range, and
// keeps its change feed's subscriber sockets (subscribe.mjs).
//
// A table lives in two objects: its entry in the account object's catalog and the table
// in the table's own object. The catalog decides whether a table exists; a crash must
// leave no table that Query Tables lists but entity requests do not find, nor the reverse.
//
//   create: the catalog entry (the Go handler), one write and nothing else. The table's
//           object gets the table when it first needs it: the first time one of its Go
//           instances serves a request routed by the map, it checks that it holds its
//           table (holds); if not, and once its Go handler has authenticated the request
//           (which fails without the table, changing nothing), it asks the account object
//           (catalogued), which, between creations and deletions, gives it the table if
//           the catalog lists it, and the request is served again.
//   delete: intent → the table object drops the table (its Go handler authenticates) →
//           catalog entry gone → intent gone. The intent is written down first, in the
//           account object's storage, and settled before the account object serves
//           anything after a restart: a delete whose table object dropped the table is
//           rolled forward (the catalog entry goes), otherwise the intent is dropped.
//
// The account object runs creations, deletions and the giving of tables one at a time
// (serial), so a table object is never given a table whose deletion is under way.
import { DurableObject } from "cloudflare:workers";
import { startGo } from "./gohost.mjs";
import { requestHead, requestBody, toResponse, statusOf, errorResponse } from "./exchange.mjs";
import { tableLifecycle, objectName } from "./route.mjs";
import { sameSpan, inSpan, compareKeys } from "./partition.mjs";
import { splitRange, settleSplit, pendingSplits, resetTable, readMap, splitLimits } from "./split.mjs";
import { SOCKETS, WAKE, MOVED_CLOSE, TICKET_HEADER, asksTicket, issueTicket, readTicket, attachmentOf, wake, closeAll, refuseTicket } from "./subscribe.mjs";

/** OBJECT_HEADER carries the object's name ("account" or "account/table") from the entry Worker. */
export const OBJECT_HEADER = "x-tabletop-object";

/** CORS_TTL_MS bounds how stale a table object's copy of the account's CORS rules may be. */
export const CORS_TTL_MS = 5000;

/** TABLE_NAME is Azure's rule for table names; no intent is written nor table given for another name, which fails anyway. */
const TABLE_NAME = /^[A-Za-z][A-Za-z0-9]{2,62}$/;

/** INTENT is the storage key prefix of the account object's unsettled Create/Delete Table. */
export const INTENT = "intent/";

const SKIP = new Set([OBJECT_HEADER]);

/** RANGE is the storage key of a table object's range: { lo, hi, obj, fence? } (see split.mjs). */
const RANGE = "range";

/** WRITES are the methods that may add entities, after which an object may ask to be split. */
const WRITES = new Set(["POST", "PUT", "PATCH", "MERGE"]);

class GoObject extends DurableObject {
  /** instance starts the Go instance once, and again if it ever exits. */
  instance(account) {
    if (this.started && this.current?.exited) this.started = null;
    if (!this.started) this.corsAt = undefined; // a new Go instance has no CORS rules yet
    this.started ??= startGo({ env: this.env, ctx: this.ctx, account }).then(
      (go) => (this.current = go),
      (err) => {
        this.started = null;
        throw err;
      },
    );
    return this.started;
  }

  /** exchange hands request to Go and returns its answer. */
  async exchange(go, request, head = requestHead(request, SKIP)) {
    const body = await requestBody(request);
    const [h, b] = await go.serve(head, body);
    return toResponse(h, b, request.method);
  }

  /** stats reports the Go instance's counters and what the storage holds (tests; see entry.mjs). */
  async stats(account) {
    const go = await this.instance(account);
    const count = (prefix) => Array.from(this.ctx.storage.kv.list({ prefix }), () => 1).length;
    return { ...JSON.parse(await go.call("stats")), wasmMemory: go.memoryBytes, pageKeys: count("page/"), logKeys: count("log/") };
  }

  /** exitGo ends the Go instance as a fatal error would (tests; see entry.mjs). */
  async exitGo(account) {
    const go = await this.instance(account);
    await go.call("exit").catch(() => {});
    return go.exited;
  }
}

/** accountOf is the account in the object header. */
function accountOf(request) {
  return (request.headers.get(OBJECT_HEADER) ?? "").split("/")[0];
}

/** tableStub is the stub of a table's object. */
export function tableStub(env, account, table) {
  return env.TABLES.get(env.TABLES.idFromName(objectName(account, table)));
}

/** accountStub is the stub of an account's object. */
export function accountStub(env, account) {
  return env.ACCOUNTS.get(env.ACCOUNTS.idFromName(account));
}

export class TableObject extends GoObject {
  constructor(ctx, env) {
    super(ctx, env);
    this.inflight = new Set();
    this.held = null; // the Go instance known to hold this object's table (see holds)
    this.drops = 0; // how many times the table was dropped, or may have been
    this.waiters = new Set(); // what hold waits on: called when this object serves a write
    this.boot = crypto.randomUUID(); // with writes, this object's write position (subscribe.mjs)
    this.writes = 0;
    // A subscriber's keep-alive ping is answered by the runtime without waking the object.
    if (typeof WebSocketRequestResponsePair === "function") ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  /**
   * fetch answers a request of the account object (Delete Table), which does not route by
   * the map; the table may be gone after it, so holds checks again.
   */
  async fetch(request) {
    if (request.headers.get("upgrade")?.toLowerCase() === "websocket") return this.subscribe(request);
    try {
      const out = await this.handle({
        object: request.headers.get(OBJECT_HEADER) ?? "",
        method: request.method,
        head: requestHead(request, SKIP),
        body: await requestBody(request),
        range: null,
        key: null,
        origin: request.headers.has("origin"),
      });
      if (statusOf(out.head) < 300) this.wrote(null); // the table is gone: wake every subscriber
      return toResponse(out.head, out.body, request.method);
    } catch (err) {
      return errorResponse(err);
    } finally {
      this.dropped();
    }
  }

  /**
   * subscribe opens a subscriber socket on this object's change feed (an upgrade from the
   * entry Worker, which checked its ticket too; see subscribe.mjs), kept with the
   * WebSocket Hibernation API: the object may be evicted while it stays open. It is woken
   * at once if this object served a write since the page the ticket came with.
   */
  async subscribe(request) {
    const url = new URL(request.url);
    const object = request.headers.get(OBJECT_HEADER) ?? "";
    const ticket = await readTicket(this.env, object, url.searchParams.get("subscribe"));
    if (!ticket) return refuseTicket(request, url);
    const span = this.span(object);
    if (span.lo !== "" || span.hi !== null || span.fence != null) return new Response(null, { status: 409, headers: { [MOVED_HEADER]: "1" } });
    const [client, server] = Object.values(new WebSocketPair());
    this.ctx.acceptWebSocket(server, [SOCKETS]);
    server.serializeAttachment(attachmentOf(ticket));
    if (ticket.p !== this.position()) server.send(WAKE);
    return new Response(null, { status: 101, webSocket: client });
  }

  /** webSocketMessage answers what a subscriber sends: nothing is expected but a ping, which the runtime answers. */
  webSocketMessage(ws, message) {
    if (message === "ping") ws.send("pong");
  }

  /** webSocketClose completes a subscriber's close. */
  webSocketClose(ws, code, reason) {
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, reason);
    } catch {
      // closed already
    }
  }

  /** webSocketError drops a subscriber socket that failed; its client subscribes again. */
  webSocketError(ws) {
    try {
      ws.close(1011, "socket error");
    } catch {
      // closed already
    }
  }

  /** position is this object's write position: a change of it means it served a write. */
  position() {
    return `${this.boot}:${this.writes}`;
  }

  /**
   * handle answers one request (RPC from the entry Worker; fetch above reads the same from
   * an HTTP request): object is the name it was addressed by ("account/table"), head and
   * body as the Go handler reads them, range the [lo, hi, obj] it was routed to (null when
   * it came from the account object, not by the map), key the PartitionKey it concerns
   * (null if none), origin whether it carries an Origin header. It resolves to the Go
   * handler's { head, body }, or to { moved: true } when this object does not serve that
   * range (now).
   */
  async handle({ object, method, head, body, range, key, origin }) {
    const account = object.split("/")[0];
    const table = object.split("/").slice(1).join("/");
    const go = this.running() ?? (await this.instance(account));
    const first = range !== null && !table.includes("#"); // routed by the map to the table's first object
    const lacking = first && this.held !== go && !(await this.holds(go, table)); // awaits nothing once held
    if (origin) await this.refreshCors(go, account);
    const span = this.span(object);
    if (!this.serves(span, range, key)) return { moved: true };
    let [h, b] = go.serve(head, body); // synchronous: nothing else runs in this object meanwhile
    // Lacking the table, the request failed and changed nothing (a batch's failure is
    // inside its 202). Once the handler has authenticated it, the table is asked for.
    if (first && (lacking || tableNotFound(h)) && authenticated(h) && (await this.track(this.obtain(go, account, table)))) {
      [h, b] = go.serve(head, body);
    }
    if (WRITES.has(method) && statusOf(h) < 300) this.maybeSplit(go, account, table, span, body.length);
    if (method !== "GET" && statusOf(h) < 300) this.wrote(key);
    else if (method === "GET" && holdOf(h) > 0 && whole(span) && asksTicket(head.slice(4, head.indexOf("\n")))) {
      h = await this.offerTicket(object, this.position(), head, h); // the position read with the page, before any await
    } else if (method === "GET") [h, b] = await this.hold(go, head, body, h, b);
    return { head: h, body: b };
  }

  /**
   * offerTicket answers a change feed request that found no change and asked to subscribe
   * (subscribe.mjs) with a ticket for a socket, in place of holding it: the answer's head
   * without the hold header, with TICKET_HEADER.
   */
  async offerTicket(object, position, head, h) {
    const ticket = await issueTicket(this.env, object, position, head.slice(4, head.indexOf("\n")));
    const lines = h.replace(HOLD_LINE, "");
    return `${lines}${lines.endsWith("\n") ? "" : "\n"}${TICKET_HEADER}: ${ticket}\n`;
  }

  /**
   * hold keeps a change feed request that found no change and asked to wait (the Go
   * handler's HOLD header gives how many seconds) until this object serves a write, then
   * serves it again, until its answer shows a change or the time is over; it resolves to
   * the last answer, without the header. A held request keeps the object awake; a
   * subscriber socket does not (offerTicket, subscribe.mjs).
   */
  async hold(go, head, body, h, b) {
    const seconds = holdOf(h);
    if (seconds === 0) return [h, b];
    const deadline = Date.now() + seconds * 1000;
    while (await this.nextWrite(deadline - Date.now())) {
      [h, b] = go.serve(head, body);
      if (holdOf(h) === 0) return [h, b];
    }
    return [h.replace(HOLD_LINE, ""), b];
  }

  /** nextWrite resolves with true when this object next serves a write, false after ms. */
  nextWrite(ms) {
    if (ms <= 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (wrote) => (clearTimeout(timer), this.waiters.delete(done), resolve(wrote));
      const timer = setTimeout(() => done(false), ms);
      this.waiters.add(done);
    });
  }

  /**
   * wrote wakes the requests hold keeps and the subscriber sockets whose key range may
   * hold PartitionKey pk (null: any): this object served a write, durable once the output
   * gate lets the answer go; the pull a wake prompts is answered under the same gate.
   */
  wrote(pk) {
    this.writes++;
    for (const done of [...this.waiters]) done(true);
    wake(this.ctx, pk);
  }

  /** running is the Go instance when one is started and has not exited, else null (then instance starts one). */
  running() {
    return this.started && this.current && !this.current.exited ? this.current : null;
  }

  // holds tells whether this object holds the table it is named after, asking Go; a yes
  // is kept for the Go instance (held) until a request of the account object may have
  // dropped the table.
  async holds(go, table) {
    const drops = this.drops;
    const has = (await go.call("tableName", table)) !== "";
    if (has && drops === this.drops) this.held = go; // no Delete Table dropped it meanwhile
    return has;
  }

  // obtain asks the account object for the table this object lacks (catalogued: tables
  // are given to their objects when first needed, see the top of this file), and tells
  // whether it was given.
  async obtain(go, account, table) {
    this.held = null;
    const drops = this.drops;
    const given = await accountStub(this.env, account).catalogued(account, table);
    if (given && drops === this.drops) this.held = go;
    return given;
  }

  /** dropped records that this object no longer holds its table (or may not): holds checks again. */
  dropped() {
    this.held = null;
    this.drops++;
  }

  /** track keeps answer among the requests in flight until it settles (fence waits for them). */
  track(answer) {
    this.inflight.add(answer);
    const done = () => this.inflight.delete(answer);
    answer.then(done, done);
    return answer;
  }

  /** span is the range this object serves: stored by a split, else every key of the table it is addressed by (object). */
  span(object) {
    return this.storedRange() ?? { lo: "", hi: null, obj: object };
  }

  /** storedRange is the range a split stored for this object, or null; read from storage once, then kept. */
  storedRange() {
    if (this.range === undefined) this.range = this.ctx.storage.kv.get(RANGE) ?? null;
    return this.range;
  }

  /** saveRange stores range (null: none) and keeps it. */
  saveRange(range) {
    if (range) this.ctx.storage.kv.put(RANGE, range);
    else this.ctx.storage.kv.delete(RANGE);
    this.range = range;
  }

  // serves tells whether this object answers a request routed to range ([lo, hi, obj];
  // null for one from the account object, not by the map) concerning PartitionKey key
  // (null if none): the range must be this object's, and the key outside the part being
  // moved; a request across the range waits while a part is moving.
  serves(span, range, key) {
    if (range === null) return true;
    const [lo, hi, obj] = range;
    if (!sameSpan(span, { lo, hi, obj })) return false;
    if (key === null) return span.fence == null;
    return inSpan(span, key) && (span.fence == null || compareKeys(key, span.fence) < 0);
  }

  // maybeSplit asks the account object to split this object's range once its store
  // holds more records (entities and deletion records) or more bytes than the split
  // limits (splitLimits). It runs after the answer, and a failure only delays the split. A
  // range that cannot be split (one partition) is asked about again when it has doubled.
  // wrote is the size of the request's body, which bounds how much the store grew.
  maybeSplit(go, account, table, span, wrote) {
    const limits = splitLimits(this.env);
    this.written = (this.written ?? 0) + wrote;
    if ((!limits.entities && !limits.bytes) || span.fence != null || this.asking) return;
    this.asking = true;
    const ask = async () => {
      const over = await this.oversize(go, limits);
      if (over && !(await accountStub(this.env, account).split(account, table, span))) this.refused = over;
    };
    const asked = ask()
      .catch((err) => console.error(`tabletop: split of ${table} not started: ${err.message}`))
      .finally(() => (this.asking = false));
    this.ctx.waitUntil?.(asked);
  }

  // oversize returns the store's size as { records, bytes } when it is past a limit (and
  // twice what a refused split saw), else null. Records are counted in constant time;
  // bytes take a pass over the store, so they are measured only when the last measure plus
  // the bodies written since could pass the limit, and a sixteenth of it was written since.
  async oversize(go, limits) {
    const refused = this.refused ?? { records: 0, bytes: 0 };
    const records = Number(await go.call("size"));
    if (limits.entities && records > limits.entities && records >= refused.records * 2) return { ...refused, records };
    const due = this.measured === undefined || (this.measured + this.written > limits.bytes && this.written >= limits.bytes / 16);
    if (!limits.bytes || !due) return null;
    [this.measured, this.written] = [Number(await go.call("bytes")), 0];
    return this.measured > limits.bytes && this.measured >= refused.bytes * 2 ? { ...refused, bytes: this.measured } : null;
  }

  /** stats adds to the counters the entities of the table this object holds and its range (tests; see entry.mjs). */
  async stats(account, table = "") {
    const name = table.split("#")[0];
    const entities = Number(await (await this.instance(account)).call("count", name));
    const feed = { held: this.waiters.size, subscribers: this.ctx.getWebSockets(SOCKETS).length };
    return { ...(await super.stats(account)), entities, range: this.storedRange(), feed };
  }

  /** move runs an internal operation that moves a span (RPC from the account object; see split.mjs). */
  async move(account, op, arg) {
    return (await this.instance(account)).call(op, arg);
  }

  /** fence stores this object's range with [key, hi) fenced, then waits for the requests in flight (RPC). */
  async fence(account, span, key) {
    this.saveRange({ ...span, fence: key });
    closeAll(this.ctx, MOVED_CLOSE, "the table is being split: pull, then subscribe again");
    await Promise.allSettled([...this.inflight]);
  }

  /** setRange stores the range this object serves; null is every key of the table it is named after (RPC). */
  async setRange(account, span) {
    this.measured = undefined; // the store changed: measure its bytes again
    this.saveRange(span ? { lo: span.lo, hi: span.hi, obj: span.obj } : null);
  }

  /** forget drops the table and the range of an object that no longer serves any of it (RPC). */
  async forget(account, table) {
    this.dropped();
    await (await this.instance(account)).call("forget", table);
    this.saveRange(null);
  }

  /** hasTable tells whether this object holds the table (RPC from the account object). */
  async hasTable(account, name) {
    return (await (await this.instance(account)).call("tableName", name)) !== "";
  }

  /** ensureTable creates the table in this object unless it is there (RPC from the account object; see catalogued). */
  async ensureTable(account, name) {
    await (await this.instance(account)).call("ensureTable", name);
  }

  /**
   * refreshCors hands the account's service properties to the Go instance, which keeps
   * them in memory only, when its copy is older than CORS_TTL_MS. If the account object cannot be reached, the request goes on with the
   * copy it has, and the next one tries again.
   */
  async refreshCors(go, account) {
    if (Date.now() - (this.corsAt ?? -Infinity) < CORS_TTL_MS) return;
    try {
      const raw = await accountStub(this.env, account).properties(account);
      await go.call("setProperties", raw);
      this.corsAt = Date.now();
    } catch (err) {
      console.error(`tabletop: CORS rules of ${account} not refreshed: ${err.message}`);
    }
  }
}

export class AccountObject extends GoObject {
  constructor(ctx, env) {
    super(ctx, env);
    this.queue = Promise.resolve();
  }

  /** ready starts the Go instance and settles every intent a crash left before anything is served. */
  async ready(account) {
    const go = await this.instance(account);
    if (this.settledFor !== go) {
      await this.serial(() => this.settleAll(go, account));
      this.settledFor = go;
    }
    return go;
  }

  /**
   * catalogued gives the table's object the table if the catalog lists it, and tells
   * whether it did (RPC from a table object whose Go handler found no table). It waits
   * for the creations and deletions under way.
   */
  async catalogued(account, table) {
    const go = await this.ready(account);
    return this.serial(async () => (await this.give(go, account, table)) !== "");
  }

  async fetch(request) {
    try {
      const account = accountOf(request);
      const go = await this.ready(account);
      const life = tableLifecycle(request.method, request.url);
      if (life?.op === "create") return await this.serial(() => this.exchange(go, request));
      if (life?.op === "delete") return await this.serial(() => this.deleteTable(go, account, life.table, request));
      return await this.exchange(go, request);
    } catch (err) {
      return errorResponse(err);
    }
  }

  /** partitionMap is the partition map of a table (RPC from the entry Worker; see partition.mjs). */
  async partitionMap(account, table) {
    await this.ready(account);
    if (!this.splitting && pendingSplits(this.ctx.storage).length) await this.serial(() => this.settleSplits());
    return readMap(this.ctx.storage, account, table);
  }

  /** debugMap is a table's partition map and the splits not yet settled, settling nothing (tests; see entry.mjs). */
  async debugMap(account, table) {
    return { pending: pendingSplits(this.ctx.storage), map: readMap(this.ctx.storage, account, table) };
  }

  /** split splits a table object's range if the map still has it (RPC from that object); it tells whether it did. */
  async split(account, table, span) {
    await this.ready(account);
    return this.serial(async () => {
      this.splitting = true;
      try {
        return await splitRange(this, account, table, span);
      } finally {
        this.splitting = false;
      }
    });
  }

  /** settleSplits settles the splits a crash or a failure left (see split.mjs). It runs inside serial. */
  async settleSplits() {
    for (const intent of pendingSplits(this.ctx.storage)) await settleSplit(this, intent);
  }

  /**
   * cors is the header lines ("Name: value\n") of the CORS headers the account's rules
   * give an answer, with headers named names, to a request with method from origin (RPC
   * from the entry Worker; see cors.mjs).
   */
  async cors(account, origin, method, names) {
    return (await this.instance(account)).call("cors", [origin, method, ...names].join("\0"));
  }

  /** properties is the account's service properties document, "" for the defaults (RPC). */
  async properties(account) {
    return (await this.instance(account)).call("properties");
  }

  /** serial runs table creations and deletions one at a time, so the catalog and the table objects agree. */
  serial(fn) {
    const run = this.queue.then(fn);
    this.queue = run.then(
      () => {},
      () => {},
    );
    return run;
  }

  // deleteTable sends the request to the table's object first, under an intent: its Go
  // handler authenticates it and deletes the table and its entities. Then the catalog
  // entry goes. If the object does not have the table, the catalog answers (and drops an
  // entry it still has). A table the catalog lists is given to its object before the
  // intent is written, so that settling the intent after a crash finds the table gone
  // only if the object's handler dropped it (authenticated), not because the object was
  // never given it.
  async deleteTable(go, account, table, request) {
    await this.give(go, account, table);
    const intent = TABLE_NAME.test(table) && this.intendDelete(table);
    try {
      const body = await requestBody(request);
      const headers = new Headers(request.headers);
      headers.set(OBJECT_HEADER, objectName(account, table));
      const forwarded = new Request(request.url, { method: "DELETE", headers, body: body.length ? body : null });
      const res = await tableStub(this.env, account, table).fetch(forwarded);
      if (res.status === 204) {
        await this.dropTable(go, account, table);
        return res;
      }
      if (res.status !== 404) return res;
      await resetTable(this, account, table);
      const [h, b] = await go.serve(requestHead(request, SKIP), body);
      return toResponse(h, b, request.method);
    } finally {
      if (intent) this.ctx.storage.kv.delete(intent);
    }
  }

  // give gives the table's object the table if the catalog lists it, and returns the name
  // the catalog has it under ("" if none). It runs inside serial.
  async give(go, account, table) {
    const stored = TABLE_NAME.test(table) ? await go.call("tableName", table) : "";
    if (stored) await tableStub(this.env, account, stored).ensureTable(account, stored);
    return stored;
  }

  /** intendDelete writes down a Delete Table of name before it starts, and returns its key. */
  intendDelete(name) {
    const key = `${INTENT}delete/${name.toLowerCase()}`;
    this.ctx.storage.kv.put(key, name);
    return key;
  }

  /** intents lists the unsettled intents as [key, table name] pairs. */
  intents() {
    return Array.from(this.ctx.storage.kv.list({ prefix: INTENT }));
  }

  // settleAll settles every intent: see the top of this file. It runs inside serial. An
  // intent to create (written by earlier versions) needs nothing: the catalog decides.
  async settleAll(go, account) {
    await this.settleSplits();
    for (const [key, name] of this.intents()) {
      const deleting = key.startsWith(`${INTENT}delete/`);
      if (deleting && !(await tableStub(this.env, account, name).hasTable(account, name))) await this.dropTable(go, account, name);
      this.ctx.storage.kv.delete(key);
    }
  }

  // dropTable removes a table whose first range's object no longer has it: from the other
  // ranges' objects, from the map and from the catalog.
  async dropTable(go, account, name) {
    await resetTable(this, account, name);
    await go.call("dropTable", name);
  }
}

/** authenticated tells whether an answer's head is other than 401 or 403: the handler authenticated the request. */
function authenticated(head) {
  const status = statusOf(head);
  return status !== 401 && status !== 403;
}

/** HOLD_LINE is the Go handler's header asking the glue to hold a change feed answer (rest.HoldHeader). */
const HOLD_LINE = /^x-tabletop-hold: (\d+)\n/im;

/** MOVED_HEADER marks a table object's refusal of a socket: its range is no longer the whole table (the map moved on). */
export const MOVED_HEADER = "x-tabletop-moved";

/** whole tells whether span is every key of its table, unfenced: the only range offered sockets. */
function whole(span) {
  return span.lo === "" && span.hi === null && span.fence == null;
}

/** holdOf is the seconds an answer's head asks hold to wait, 0 if none. */
function holdOf(head) {
  const m = HOLD_LINE.exec(head);
  return m ? Number(m[1]) : 0;
}

/** tableNotFound tells whether an answer's head is 404 TableNotFound. */
function tableNotFound(head) {
  return statusOf(head) === 404 && /^x-ms-error-code: TableNotFound$/im.test(head);
}

