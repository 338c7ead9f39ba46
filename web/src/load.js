// Opening a persistent store in time independent of its size, and the key-range pages it
// is kept in (see idb.js).
//
// A persistent store opens in the engine as a partial store: no key range resident. Open
// hands it only the latest commands of the keys every commit writes (the store's clock:
// see idb.js), which the engine defers until their page is loaded; each page is loaded
// with the log records that touch it. openPartial hands change sets in slices of whole
// commands, each one call of about SLICE_BYTES, and the page's event loop runs between
// calls once a slice of time has passed, so that no task holds the main thread for long.
//
// A page and a change set are buntdb command streams in RESP form ("*3\r\n$3\r\nset\r\n
// $5\r\nkey…"); the engine applies any run of whole commands with its "apply" operation,
// as it applies other tabs' change sets.

import { fromEngine } from "./errors.js";

/** SLICE_BYTES is about how much of the log one call of the engine replays. */
const SLICE_BYTES = 64 << 10;

/**
 * SLICE_MS is how long the module's work runs in one task before letting the page's event
 * loop turn: an open's replay here, a commit's writes and a compaction's pages (store.js,
 * idb.js).
 */
export const SLICE_MS = 12;

/**
 * openPartial opens a partial store in the engine and applies the change sets after its
 * pages, letting the event loop run between slices; it resolves with the store's handle.
 */
export async function openPartial(engine, changeSets) {
  const call = (args) => {
    try {
      return engine.call(args);
    } catch (e) {
      throw fromEngine(e);
    }
  };
  const handle = String(call(["open", "", "partial"]).json);
  try {
    let since = performance.now();
    for (let i = 0; i < changeSets.length; ) {
      let j = i, bytes = 0;
      while (j < changeSets.length && (j === i || bytes + changeSets[j].length <= SLICE_BYTES)) bytes += changeSets[j++].length;
      call(["apply", handle, ...changeSets.slice(i, j)]);
      i = j;
      if (i < changeSets.length && performance.now() - since >= SLICE_MS) {
        await yieldToPage();
        since = performance.now();
      }
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
 * reaches at least size bytes (or the end of b). It reads only the commands' lengths; a
 * run that is not whole commands throws a malformed error.
 */
export function commandsEnd(b, pos, size) {
  const stop = Math.min(b.length, pos + size);
  while (pos < stop) {
    if (b[pos] === 0) {
      pos++; // buntdb skips NUL bytes between commands
      continue;
    }
    if (b[pos] !== 0x2a) throw malformed(`no command at byte ${pos}`);
    let n;
    [n, pos] = readLength(b, pos + 1);
    for (let i = 0; i < n; i++) {
      if (b[pos] !== 0x24) throw malformed(`no argument at byte ${pos}`);
      let len;
      [len, pos] = readLength(b, pos + 1);
      pos += len + 2;
      if (pos > b.length || b[pos - 2] !== 0x0d || b[pos - 1] !== 0x0a) throw malformed(`an argument of ${len} bytes runs past its end at byte ${pos - len - 2}`);
    }
  }
  return pos;
}

/** readLength reads the decimal length ending in CRLF at pos; it returns [length, pos after it]. */
function readLength(b, pos) {
  let n = 0;
  const start = pos;
  for (; pos < b.length && b[pos] >= 0x30 && b[pos] <= 0x39 && pos - start < 10; pos++) n = n * 10 + b[pos] - 0x30;
  if (pos === start || b[pos] !== 0x0d || b[pos + 1] !== 0x0a) throw malformed(`no length at byte ${start}`);
  return [n, pos + 2];
}

/**
 * malformed is the error of stored bytes that are not whole commands (code
 * "DataCorrupted", problem what was wrong); idb.js and store.js name the page or log
 * record it was found in (see dataCorrupted).
 */
export function malformed(problem) {
  return Object.assign(new Error(`tabletop: the stored store is corrupt: ${problem}`), { code: "DataCorrupted", problem });
}

/**
 * eachCommand calls fn(cmd, key) with each command of b (a Uint8Array of whole commands)
 * and its key, both as Uint8Arrays viewing b.
 */
export function eachCommand(b, fn) {
  for (let pos = 0; pos < b.length; ) {
    const end = commandsEnd(b, pos, 1);
    if (b[pos] === 0) {
      pos = end;
      continue;
    }
    let p = b.indexOf(0x0d, pos) + 2; // after "*n\r\n"
    p = b.indexOf(0x0d, p) + 2; // after "$len\r\n" of the name
    p = b.indexOf(0x0d, p) + 2; // after the name
    let len = 0;
    for (p++; b[p] !== 0x0d; p++) len = len * 10 + b[p] - 0x30;
    fn(b.subarray(pos, end), b.subarray(p + 2, p + 2 + len));
    pos = end;
  }
}

/**
 * eachKey calls fn(key) with the key of each command of b (a Uint8Array of whole
 * commands), as a Uint8Array viewing b.
 */
export function eachKey(b, fn) {
  eachCommand(b, (_, key) => fn(key));
}

/**
 * splitPage cuts a page's commands (in key order) into pages of about size bytes, at
 * command boundaries: [{ first, data }], first the key of each one's first command.
 */
export function splitPage(b, size) {
  const out = [];
  for (let pos = 0; pos < b.length; ) {
    const end = commandsEnd(b, pos, size);
    const data = b.slice(pos, end);
    let first;
    eachKey(data.subarray(0, commandsEnd(data, 0, 1)), (k) => (first = k.slice()));
    out.push({ first, data });
    pos = end;
  }
  return out;
}

/**
 * cutPage cuts a page's commands (in key order) where the record kind changes (a key's
 * first byte: entities, deletion records, tables, the store's settings… see
 * core/stored/layout.go), and runs past twice size into pages of about size bytes: [{ first,
 * data }] as splitPage. So the writes that pile up at the end of one kind's keys (appended
 * entities) touch no page that another kind's reads need (a table's record), and a page
 * load reads none of their log records.
 */
export function cutPage(b, size) {
  const runs = [];
  let start = 0, kind = -1;
  eachCommand(b, (cmd, key) => {
    const at = cmd.byteOffset - b.byteOffset;
    if (key[0] !== kind && at > start) runs.push(b.subarray(start, at)), (start = at);
    kind = key[0];
  });
  if (start < b.length) runs.push(b.subarray(start));
  return runs.flatMap((run) => (run.length > 2 * size ? splitPage(run, size) : splitPage(run, run.length)));
}

/** compareBytes orders two byte strings as IndexedDB orders binary keys. */
export function compareBytes(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/** fromHex decodes a hex string into bytes. */
export function fromHex(h) {
  const out = new Uint8Array(h.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(h.substr(2 * i, 2), 16);
  return out;
}

/**
 * yieldToPage lets the event loop run (rendering, input, timers) and resumes soon after: a
 * message to itself goes behind the tasks already queued, without the 4 ms a nested timer
 * waits (scheduler.yield would resume ahead of them, starving timers). Every yield posts
 * on one channel that the module keeps: a channel made per yield is reachable only
 * through its own ports while its message is queued, and what a caller awaits must never
 * hang on the browser keeping such a port alive.
 */
export function yieldToPage() {
  if (typeof MessageChannel !== "function" || typeof window === "undefined") return new Promise((resolve) => setTimeout(resolve, 0));
  if (!wakeup) {
    wakeup = new MessageChannel();
    wakeup.port1.onmessage = () => yielded.shift()?.();
  }
  return new Promise((resolve) => {
    yielded.push(resolve);
    wakeup.port2.postMessage(null);
  });
}

let wakeup; // the channel yieldToPage posts on
const yielded = []; // the resolve functions of the yields waiting, in the order they posted
