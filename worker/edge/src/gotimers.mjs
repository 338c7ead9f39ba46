// Keeps a Go instance's long timers from holding its Durable Object in memory.
//
// Go on js/wasm waits for a timer by asking its host for a JavaScript setTimeout
// (wasm_exec.js, runtime.scheduleTimeoutEvent) and pausing until it fires. buntdb's
// background goroutine waits on a one-second ticker that only closing the database stops,
// so every Go instance always has a timer pending. Since compatibility date 2026-10-01
// a pending setTimeout keeps a Durable Object from being evicted (Cloudflare's changelog,
// "Pending I/O operations allow Durable Objects to continue long-running work without a
// connected client"): every object that ever started Go would stay in memory, and be
// billed for its duration, for ever, waking each second to do nothing.
//
// deferLongTimers keeps a timer of LONG_TIMER_MS or more off JavaScript's timers. Go is
// left paused, and the timer fires at the instance's next call once it is due (fireDue),
// as it would have fired on time had the object been awake. Shorter timers are scheduled
// as wasm_exec.js schedules them. So nothing in the edge program may depend on a timer of
// a second or more firing while its object is idle: buntdb's ticker only expires keys
// with a time to live, which Tabletop does not set.

/** LONG_TIMER_MS is the shortest Go timer that fires at the next call rather than on time. */
export const LONG_TIMER_MS = 500;

/**
 * deferLongTimers changes go's imports (call it before instantiating) so that its long
 * timers are deferred, and returns what fires them: fireDue(), to be called before each
 * call into the instance, resumes Go once if its deferred timer is due.
 */
export function deferLongTimers(go) {
  const imports = go.importObject.gojs;
  const schedule = imports["runtime.scheduleTimeoutEvent"];
  let deferred; // {id, due}: the timer Go waits for, not handed to setTimeout
  imports["runtime.scheduleTimeoutEvent"] = (sp) => {
    sp >>>= 0;
    const delay = Number(go.mem.getBigInt64(sp + 8, true)); // milliseconds
    if (delay < LONG_TIMER_MS) return schedule(sp);
    const id = go._nextCallbackTimeoutID++;
    go._scheduledTimeouts.set(id, undefined); // clearTimeoutEvent clears nothing, and forgets it
    deferred = { id, due: Date.now() + delay };
    go.mem.setInt32(sp + 16, id, true);
  };
  return {
    /** pending tells whether Go waits for a deferred timer (for tests). */
    get pending() {
      return deferred !== undefined && go._scheduledTimeouts.has(deferred.id);
    },
    fireDue() {
      const t = deferred;
      if (t === undefined || go.exited || Date.now() < t.due) return;
      deferred = undefined;
      if (go._scheduledTimeouts.has(t.id)) go._resume(); // what its setTimeout would have done
    },
  };
}
