// The page's side of the SQLite-OPFS engine (sqlite-worker.js): one postMessage and one
// answer per call, as an app that keeps SQLite in a Worker talks to it.

/**
 * startSqlite starts the engine's Worker from url and resolves with { call(op, ...args),
 * terminate() } once it answers: call resolves with the op's result or rejects with its
 * error. A Worker that fails (its module did not load, say) rejects every pending call,
 * so that a broken engine fails the benchmark instead of hanging it.
 */
export function startSqlite(url) {
  const worker = new Worker(url, { type: "module" });
  const pending = new Map();
  let next = 0;
  const failAll = (err) => {
    for (const { reject } of pending.values()) reject(err);
    pending.clear();
  };
  worker.onmessage = ({ data: { id, result, error } }) => {
    const p = pending.get(id);
    pending.delete(id);
    if (error !== undefined) p.reject(new Error(`SQLite (OPFS): ${error}`));
    else p.resolve(result);
  };
  worker.onerror = (e) => failAll(new Error(`SQLite (OPFS) worker: ${e.message ?? "failed to load"}`));
  worker.onmessageerror = () => failAll(new Error("SQLite (OPFS) worker: a message could not be read"));
  return {
    call(op, ...args) {
      return new Promise((resolve, reject) => {
        const id = next++;
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, op, args });
      });
    },
    terminate() {
      worker.terminate();
      failAll(new Error("SQLite (OPFS) worker: terminated"));
    },
  };
}
