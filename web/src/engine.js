// Loading the Go engine (dist/tabletop.wasm, with Go's dist/wasm_exec.js) once per page or
// process, and calling it. In the browser the files are fetched beside this module; under
// Node they are read from disk.
//
// The boundary: the engine exports three functions with //go:wasmexport (see wasm/doc.go).
// A call writes a request frame into a buffer in Go's linear memory (strings copied as
// ASCII or with TextEncoder.encodeInto, bytes with set), runs synchronously, and leaves a
// result frame there: the answer (JSON text, or the binary entities of a point read or a
// query page, read in place by values.js) and the records a write left for IndexedDB. No
// callback, Promise or goroutine per call.

import { canCache, cachedWasm } from "./wasmcache.js";
import { loadGo } from "./goglue.js";

/* global TABLETOP_WASM_SHA256, TABLETOP_WASM_PATH */
/**
 * wasmBuild is the start of the SHA-256 of the wasm built with this module: `make web`
 * defines it in dist/tabletop.js (esbuild --define); the source's modules have none, and
 * do not keep the wasm in Cache Storage.
 */
const wasmBuild = typeof TABLETOP_WASM_SHA256 === "string" ? TABLETOP_WASM_SHA256 : "";

/**
 * wasmPath is where the engine's wasm is, relative to this module: beside the bundle
 * (dist/tabletop.js, where `make web` defines it), so that the two files work from any
 * folder they are copied to; in dist/ for the source's modules (src/).
 */
const wasmPath = typeof TABLETOP_WASM_PATH === "string" ? TABLETOP_WASM_PATH : "../dist/tabletop.wasm";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const bigRequest = 1 << 20; // wasm/main_js.go drops a request buffer larger than this

let engine;

/**
 * loadEngine loads the engine once and returns it (an Engine). options.wasmUrl and
 * options.wasmExecUrl override where the two files are found; options.wasmCache false
 * keeps the wasm out of Cache Storage (see wasmcache.js); only the first call's options
 * count.
 */
export function loadEngine(options = {}) {
  engine ??= instantiate(options).catch((e) => {
    engine = undefined;
    throw e;
  });
  return engine;
}

async function instantiate({ wasmUrl, wasmExecUrl, wasmCache = true } = {}) {
  const wasm = new URL(wasmUrl ?? wasmPath, import.meta.url);
  // The module's bytes are fetched and compiled while wasm_exec.js loads: the two
  // requests go out together instead of one after the other. dist/tabletop.js carries
  // wasm_exec.js (see bundle.js), so there Go's class is known and nothing is loaded.
  const execUrl = new URL(wasmExecUrl ?? "../dist/wasm_exec.js", import.meta.url).href;
  const [module, Go] = await Promise.all([compile(wasm, wasmCache && canCache(wasm, wasmBuild)), loadGo(execUrl)]);
  const go = new Go();
  const instance = await WebAssembly.instantiate(module, go.importObject);
  const exited = go.run(instance); // runs main until it waits for calls; resolves only on exit
  if (typeof instance.exports.tabletop_call !== "function") throw new Error("tabletop: the engine did not start");
  const e = new Engine(instance.exports, go);
  exited.then(() => e._fail(new Error("the Go program exited")));
  return e;
}

/**
 * forget makes the next loadEngine start a new engine if failed is the current one: a
 * failed engine (its Go program exited, or a call trapped) answers nothing again.
 */
function forget(failed) {
  engine?.then((e) => {
    if (e === failed) engine = undefined;
  });
}

/**
 * compile fetches (or, for a file: URL, reads) the engine's wasm and compiles it to a
 * WebAssembly.Module; cached, it takes the build's copy in Cache Storage if there is one.
 */
async function compile(url, cached) {
  try {
    if (url.protocol === "file:") {
      const { readFile } = await import("node:fs/promises");
      return await WebAssembly.compile(await readFile(url));
    }
    const res = await (cached ? cachedWasm(url, wasmBuild) : fetch(url));
    if (!res.ok) throw new Error(`HTTP ${res.status} ${res.statusText}`.trim());
    const type = res.headers.get("Content-Type") ?? "";
    if (WebAssembly.compileStreaming && /^application\/wasm\b/.test(type)) return await WebAssembly.compileStreaming(res);
    const bytes = await res.arrayBuffer(); // a server that sends another Content-Type
    try {
      return await WebAssembly.compile(bytes);
    } catch (e) {
      throw new Error(`HTTP ${res.status}, ${type || "no Content-Type"}, is not WebAssembly (${e.message})`);
    }
  } catch (e) {
    throw Object.assign(new Error(`tabletop: could not load the engine from ${url.href}: ${e.message}`), { code: "EngineLoadFailed", url: url.href, cause: e });
  }
}

/**
 * writeText writes s as UTF-8 at pos in u8 (which has room for 3 bytes per UTF-16 unit)
 * and returns the bytes written. ASCII is copied by a loop: a TextEncoder call costs far
 * more than a short key's copy in Chromium (its bindings build a result object and, with
 * subarray, a view). Text from the first non-ASCII character on, and long text, goes
 * through encodeInto.
 */
function writeText(u8, pos, s) {
  const n = s.length;
  if (n > longText) return encoder.encodeInto(s, u8.subarray(pos, pos + n * 3)).written;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c > 0x7f) return i + encoder.encodeInto(s.slice(i), u8.subarray(pos + i, pos + n * 3)).written;
    u8[pos + i] = c;
  }
  return n;
}

const longText = 512; // above this, one encodeInto costs less than the loop (measured in Chromium)

/** Engine calls the Go engine's exported functions with request and result frames. */
export class Engine {
  constructor(exports, go) {
    this._x = exports;
    this._go = go; // wasm_exec.js's Go: exited is set when the program exits, even inside a call
    this._ptr = 0;
    this._cap = 0;
    this._views();
  }

  /**
   * _views (re)makes the views of Go's memory. Growing a (non-shared) wasm memory detaches
   * its old buffer, so a view of length 0 is the sign to remake them: the check costs no
   * call of the memory's buffer getter, which costs more in Chromium.
   */
  _views() {
    const buffer = this._x.mem.buffer;
    this._u8 = new Uint8Array(buffer);
    this._dv = new DataView(buffer);
  }

  /**
   * call performs one operation: args are its name, the store's handle, then its
   * arguments (strings, or Uint8Arrays for bytes). It returns { json, records }, json the
   * answer's text ("" for none) and records [{ kind, data }] to make durable (kind 1 a
   * change set, 2 a snapshot). An operation whose answer is binary (getEntity's) is given
   * decode(u8, dv, pos, len), which reads it in place, before the next call reuses the
   * memory, and whose result is json. A failure throws the engine's { code, statusCode,
   * message, index } object.
   */
  call(args, decode) {
    if (this.failed) throw this.failed;
    let n, r;
    try {
      n = this._write(args);
      r = this._x.tabletop_call(n);
    } catch (e) {
      throw this._fail(e);
    }
    // A panic in Go's code exits the program and returns from the call: its answer is void.
    if (this._go?.exited) throw this._fail(new Error("the Go program exited, having panicked"));
    if (n > bigRequest) this._cap = 0;
    return this._read(Math.abs(r), r < 0, decode);
  }

  /**
   * _fail marks the engine failed by cause (a trap in Go's code, such as running out of
   * memory, or its program's exit) and returns the error every call answers from then on:
   * code "EngineFailed". The next loadEngine starts a new engine, and a stored store
   * reloads its replica on it from IndexedDB (store.js).
   */
  _fail(cause) {
    this.failed ??= {
      code: "EngineFailed",
      statusCode: 500,
      message: `The in-page engine failed (${cause?.message ?? cause}); a stored store reloads from what it stored, on a new engine.`,
    };
    forget(this);
    return this.failed;
  }

  /** _write writes the request frame of args and returns its length. */
  _write(args) {
    const head = 4 + 4 * args.length;
    let need = head;
    for (const a of args) need += typeof a === "string" ? a.length * 3 : a.length;
    if (need > this._cap) {
      this._ptr = this._x.tabletop_buffer(need) >>> 0; // an i32: an address past 2 GiB reads negative
      this._cap = Math.max(need, 64 << 10);
    }
    if (this._u8.byteLength === 0) this._views();
    const u8 = this._u8, dv = this._dv, base = this._ptr;
    dv.setUint32(base, args.length, true);
    let pos = base + head;
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      let len;
      if (typeof a === "string") {
        len = writeText(u8, pos, a);
      } else {
        u8.set(a, pos);
        len = a.length;
      }
      dv.setUint32(base + 4 + 4 * i, len, true);
      pos += len;
    }
    return pos - base;
  }

  /** _read reads the result frame of n bytes, its answer with decode if given. */
  _read(n, failed, decode) {
    const p = this._x.tabletop_result() >>> 0;
    if (this._u8.byteLength === 0) this._views();
    const u8 = this._u8, dv = this._dv;
    const jsonLen = dv.getUint32(p, true);
    if (failed) throw JSON.parse(decoder.decode(u8.subarray(p + 4, p + 4 + jsonLen)));
    const json = decode ? decode(u8, dv, p + 4, jsonLen) : jsonLen === 0 ? "" : decoder.decode(u8.subarray(p + 4, p + 4 + jsonLen));
    let pos = p + 4 + jsonLen;
    const count = dv.getUint32(pos, true);
    pos += 4;
    const records = [];
    for (let i = 0; i < count; i++) {
      const kind = u8[pos];
      const len = dv.getUint32(pos + 1, true);
      records.push({ kind, data: u8.slice(pos + 5, pos + 5 + len) });
      pos += 5 + len;
    }
    if (pos - p !== n) throw new Error("tabletop: result frame is malformed");
    return { json, records };
  }
}
