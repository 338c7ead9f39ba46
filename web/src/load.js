// Opening a persistent store without blocking the page: the snapshot and change log read
// from IndexedDB are handed to the engine in slices of whole commands, each one call of
// about SLICE_BYTES, and the page's event loop runs between calls once a slice of time has
// passed, so that no task of the open holds the main thread for long (a 100k-entity store
// is tens of megabytes: replayed in one call it blocks the page for most of a second).
//
// A snapshot and a change set are buntdb command streams in RESP form ("*3\r\n$3\r\nset\r\n
// $5\r\nkey…"); the engine applies any run of whole commands with its "apply" operation,
// as it applies other tabs' change sets, and "compacted" then tells it how large the
// snapshot was, so that it counts its log from there as it does when it loads one itself.

import { fromEngine } from "./errors.js";

/** SLICE_BYTES is about how much of the store one call of the engine replays. */
const SLICE_BYTES = 256 << 10;

/** SLICE_MS is how long the open runs before letting the page's event loop turn. */
const SLICE_MS = 12;

/**
 * openSliced opens a store in the engine on a snapshot and change sets, letting the
 * event loop run between slices; it resolves with the store's handle.
 */
export async function openSliced(engine, snapshot, changeSets) {
  const call = (args) => {
    try {
      return engine.call(args);
    } catch (e) {
      throw fromEngine(e);
    }
  };
  const total = changeSets.reduce((n, cs) => n + cs.length, snapshot.length);
  if (total <= SLICE_BYTES) return String(call(["open", "", "outbox", snapshot, ...changeSets]).json);
  const handle = String(call(["open", "", "outbox", new Uint8Array(0)]).json);
  try {
    let since = performance.now();
    const pace = async () => {
      if (performance.now() - since < SLICE_MS) return;
      await yieldToPage();
      since = performance.now();
    };
    for (let pos = 0; pos < snapshot.length; ) {
      const end = commandsEnd(snapshot, pos, SLICE_BYTES);
      call(["apply", handle, snapshot.subarray(pos, end)]);
      pos = end;
      await pace();
    }
    call(["compacted", handle, String(snapshot.length)]);
    for (let i = 0; i < changeSets.length; ) {
      let j = i, bytes = 0;
      while (j < changeSets.length && (j === i || bytes + changeSets[j].length <= SLICE_BYTES)) bytes += changeSets[j++].length;
      call(["apply", handle, ...changeSets.slice(i, j)]);
      i = j;
      await pace();
    }
    return handle;
  } catch (e) {
    try {
      engine.call(["close", handle]);
    } catch {
      // already closed
    }
    throw e;
  }
}

/**
 * commandsEnd returns the end of the run of whole RESP commands starting at pos that
 * reaches at least size bytes (or the end of b). It reads only the commands' lengths.
 */
export function commandsEnd(b, pos, size) {
  const stop = Math.min(b.length, pos + size);
  while (pos < stop) {
    if (b[pos] === 0) {
      pos++; // buntdb skips NUL bytes between commands
      continue;
    }
    if (b[pos] !== 0x2a) throw new Error(`tabletop: the stored store is corrupt (no command at byte ${pos})`);
    let n = 0;
    for (pos++; b[pos] !== 0x0d; pos++) n = n * 10 + b[pos] - 0x30;
    pos += 2;
    for (let i = 0; i < n; i++) {
      if (b[pos] !== 0x24) throw new Error(`tabletop: the stored store is corrupt (no argument at byte ${pos})`);
      let len = 0;
      for (pos++; b[pos] !== 0x0d; pos++) len = len * 10 + b[pos] - 0x30;
      pos += 2 + len + 2;
    }
  }
  if (pos > b.length) throw new Error("tabletop: the stored store is corrupt (a command runs past its end)");
  return pos;
}

/**
 * yieldToPage lets the event loop run (rendering, input, timers) and resumes soon after: a
 * message to itself goes behind the tasks already queued, without the 4 ms a nested timer
 * waits (scheduler.yield would resume ahead of them, starving timers).
 */
function yieldToPage() {
  if (typeof MessageChannel === "function" && typeof window !== "undefined") {
    return new Promise((resolve) => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => (ch.port1.close(), resolve());
      ch.port2.postMessage(null);
    });
  }
  return new Promise((resolve) => setTimeout(resolve, 0));
}
