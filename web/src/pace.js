// The engine's pace at an operation in this tab: milliseconds per byte of the operation's
// arguments. V8 runs the engine's code several times slower until it has optimized it,
// and devices differ as much, so a change cut to fit a task of the page (a pulled page's
// parts, sync-parts.js) is sized from the pace seen, not from a fixed count.

/** MIN_BYTES is the least a call's arguments hold for its time to count: below it, a call's fixed cost dominates. */
const MIN_BYTES = 4 << 10;

/** Pace follows an operation's milliseconds per byte of arguments, smoothed over its last calls. */
export class Pace {
  constructor() {
    this.msPerByte = undefined; // unknown until a call of MIN_BYTES or more has run
  }

  /** note takes a call of the operation: its arguments' bytes and the milliseconds it took. */
  note(bytes, ms) {
    if (bytes < MIN_BYTES) return;
    const last = ms / bytes;
    // Half the weight on the last call: the pace falls within a few calls of V8
    // optimizing the code, and one slow call (a collection of the engine's heap) only
    // makes the next parts smaller, never the page's task longer.
    this.msPerByte = this.msPerByte === undefined ? last : (this.msPerByte + last) / 2;
  }
}

/** argBytes counts the characters of a call's string arguments. */
export function argBytes(args) {
  let n = 0;
  for (const a of args) if (typeof a === "string") n += a.length;
  return n;
}
