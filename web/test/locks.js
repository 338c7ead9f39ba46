// A Web Locks manager for the Node tests (Node 20 has none): navigator.locks' request
// with modes "exclusive" and "shared", ifAvailable, steal and signal, as the Web Locks
// specification describes them, for the tabs (stores) of one process. install() puts a
// fresh one on globalThis.navigator.locks.

/** Locks is one origin's lock manager. */
export class Locks {
  constructor() {
    this.held = new Map(); // name → [{ mode, stolen, reject }]
    this.queue = []; // requests waiting, in order
  }

  /** request is navigator.locks.request(name, options?, callback). */
  request(name, options, callback) {
    if (typeof options === "function") [callback, options] = [options, {}];
    const mode = options.mode ?? "exclusive";
    return new Promise((resolve, reject) => {
      const req = { name, mode, callback, resolve, reject };
      if (options.steal) {
        for (const h of this.held.get(name) ?? []) (h.stolen = true), h.reject(new DOMException("The lock was stolen", "AbortError"));
        this.held.set(name, []);
        return this.grant(req);
      }
      if (this.grantable(name, mode)) return this.grant(req);
      if (options.ifAvailable) return Promise.resolve().then(() => callback(null)).then(resolve, reject);
      this.queue.push(req);
      options.signal?.addEventListener("abort", () => {
        const i = this.queue.indexOf(req);
        if (i >= 0) this.queue.splice(i, 1), reject(options.signal.reason);
      });
    });
  }

  /** grantable is whether a request of mode on name could be granted now, ahead of none waiting. */
  grantable(name, mode) {
    const held = this.held.get(name) ?? [];
    const waiting = this.queue.some((r) => r.name === name);
    return !waiting && (held.length === 0 || (mode === "shared" && held.every((h) => h.mode === "shared")));
  }

  grant(req) {
    const holder = { mode: req.mode, stolen: false, reject: req.reject };
    this.held.set(req.name, [...(this.held.get(req.name) ?? []), holder]);
    const release = () => {
      this.held.set(req.name, (this.held.get(req.name) ?? []).filter((h) => h !== holder));
      this.wake(req.name);
    };
    Promise.resolve()
      .then(() => req.callback({ name: req.name, mode: req.mode }))
      .then(
        (v) => (release(), holder.stolen || req.resolve(v)),
        (e) => (release(), holder.stolen || req.reject(e)),
      );
  }

  /** wake grants the requests waiting on name that can be, in order. */
  wake(name) {
    for (;;) {
      const i = this.queue.findIndex((r) => r.name === name);
      if (i < 0) return;
      const req = this.queue[i];
      const held = this.held.get(name) ?? [];
      if (held.length > 0 && !(req.mode === "shared" && held.every((h) => h.mode === "shared"))) return;
      this.queue.splice(i, 1);
      this.grant(req);
    }
  }
}

/** install gives globalThis a navigator with a fresh Locks, and returns it. */
export function install() {
  const locks = new Locks();
  Object.defineProperty(globalThis, "navigator", { value: { ...globalThis.navigator, locks }, configurable: true, writable: true });
  return locks;
}
