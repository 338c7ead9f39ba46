// The SQLite-OPFS engine of the benchmarks: SQLite (@sqlite.org/sqlite-wasm) in this
// dedicated Worker, its files in the origin private file system through the opfs-sahpool
// VFS (synchronous access handles, which only a Worker may hold; no SharedArrayBuffer, so
// no COOP/COEP headers). One table t (pk, rk, body: the entity as JSON) keyed by
// (pk, rk) WITHOUT ROWID, synchronous=FULL: a commit has reached the file (flush) before
// its answer is posted. The page talks to it with sqlite-client.js, a message and its
// answer per call: { id, op, args } in, { id, result } or { id, error } out, in order.
//
// The module is served as bench/sqlite-wasm/sqlite3.js, a copy of the package's
// dist/index.mjs beside its sqlite3.wasm (sqlite-files.js), because web/browser/serve.js
// serves .mjs files without a JavaScript MIME type, which a module import refuses.
import sqlite3InitModule from "./sqlite-wasm/sqlite3.js";

/** INSTALL_TRIES bounds the VFS's install attempts: a closed tab's handles are released asynchronously. */
const INSTALL_TRIES = 50;

let pool; // the opfs-sahpool VFS's utility object, once installed
let db, file, st; // the open database, its file name and its prepared statements

/**
 * install loads SQLite's wasm and installs the opfs-sahpool VFS, once per Worker. The
 * pool's handles are exclusive to one Worker in the origin: while a tab that held them
 * is closing they are not yet free, so a failed install is retried for a while, and a
 * failed attempt must leave the pool's files as they were (preserveOnInitFailure).
 */
async function install() {
  if (pool) return pool;
  const sqlite3 = await sqlite3InitModule();
  for (let i = 1; ; i++) {
    try {
      pool = await sqlite3.installOpfsSAHPoolVfs({ preserveOnInitFailure: true, forceReinitIfPreviouslyFailed: true });
      return pool;
    } catch (e) {
      if (i >= INSTALL_TRIES) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** bind binds an entity's keys and its JSON text to an insert or upsert statement and runs it. */
function put(stmt, e) {
  stmt.bind([e.partitionKey, e.rowKey, JSON.stringify(e)]).stepReset();
}

/** bodies runs a statement bound to args and returns its rows' first column (entity JSON) as one JSON array's text. */
function bodies(stmt, args) {
  stmt.bind(args);
  const out = [];
  while (stmt.step()) out.push(stmt.getString(0));
  stmt.reset(true);
  return `[${out.join(",")}]`;
}

/** ops are the calls the page makes; each returns what is posted back (strings for entities, parsed in the page). */
const ops = {
  /** install loads the engine and installs the VFS, no database opened (memory.js times the open apart). */
  async install() {
    await install();
  },
  /** open opens (creating) database name in the pool, with the table and statements. */
  async open(name) {
    await install();
    file = `/${name}.sqlite3`;
    db = new pool.OpfsSAHPoolDb(file);
    db.exec("PRAGMA synchronous = FULL; CREATE TABLE IF NOT EXISTS t (pk TEXT NOT NULL, rk TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (pk, rk)) WITHOUT ROWID");
    st = {
      insert: db.prepare("INSERT INTO t (pk, rk, body) VALUES (?, ?, ?)"),
      upsert: db.prepare("INSERT OR REPLACE INTO t (pk, rk, body) VALUES (?, ?, ?)"),
      get: db.prepare("SELECT body FROM t WHERE pk = ? AND rk = ?"),
      partition: db.prepare("SELECT body FROM t WHERE pk = ? ORDER BY rk LIMIT ?"),
      after: db.prepare("SELECT body FROM t WHERE (pk, rk) > (?, ?) ORDER BY pk, rk LIMIT ?"),
      first: db.prepare("SELECT body FROM t ORDER BY pk, rk LIMIT ?"),
    };
    return { journalMode: db.selectValue("PRAGMA journal_mode"), synchronous: db.selectValue("PRAGMA synchronous") };
  },
  /** insert adds one entity in a transaction of its own (autocommit). */
  insert(e) {
    put(st.insert, e);
  },
  /** update replaces one entity (or adds it) in a transaction of its own. */
  update(e) {
    put(st.upsert, e);
  },
  /** insertBatch adds entities in one transaction: all or none. */
  insertBatch(es) {
    db.transaction(() => es.forEach((e) => put(st.insert, e)));
  },
  /** get returns one entity's JSON text, or undefined. */
  get(pk, rk) {
    st.get.bind([pk, rk]);
    const body = st.get.step() ? st.get.getString(0) : undefined;
    st.get.reset(true);
    return body;
  },
  /** partition returns up to limit entities of partition pk in RowKey order, as a JSON array's text. */
  partition(pk, limit) {
    return bodies(st.partition, [pk, limit]);
  },
  /** scan returns up to limit entities after key [pk, rk] (from the first without one) in key order, as a JSON array's text. */
  scan(after, limit) {
    return after ? bodies(st.after, [...after, limit]) : bodies(st.first, [limit]);
  },
  /** close finalizes the statements and closes the database; with drop, deletes its file. */
  close(drop) {
    Object.values(st).forEach((s) => s.finalize());
    db.close();
    if (drop) pool.unlink(file);
    db = st = undefined;
  },
};

// One call at a time, in arrival order: open awaits the VFS, and a call the page sent
// meanwhile (it need not wait for open's answer) must still see the database open.
let queue = Promise.resolve();
self.onmessage = ({ data: { id, op, args } }) => {
  queue = queue.then(async () => {
    try {
      self.postMessage({ id, result: await ops[op](...args) });
    } catch (e) {
      self.postMessage({ id, error: `${op}: ${e?.message ?? e}` });
    }
  });
};
