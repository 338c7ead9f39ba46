// Go's glue (wasm_exec.js) without a global. wasm_exec.js defines its class as
// globalThis.Go, and a wasm must run under the glue of the Go release that built it: a
// page that also runs another Go program, built by another release, would otherwise
// share one class, the one loaded last. The engine takes the class wasm_exec.js defines
// and puts back what globalThis.Go was before (nothing, or the page's own), so importing
// Tabletop leaves no global Go behind. The stand-ins for fs, process and path that
// wasm_exec.js defines where those globals are missing stay: Go's runtime looks them up
// there.

let saved; // globalThis.Go's property before wasm_exec.js ran, if it had one
let goClass; // Go's class from the wasm_exec.js this module runs with

/** saveGlobalGo notes what globalThis.Go is before wasm_exec.js runs. */
export function saveGlobalGo() {
  saved = Object.getOwnPropertyDescriptor(globalThis, "Go");
}

/**
 * takeGlobalGo takes the class wasm_exec.js just defined as the engine's, and puts back
 * what saveGlobalGo found in its place.
 */
export function takeGlobalGo() {
  const Go = globalThis.Go;
  const before = saved;
  saved = undefined;
  if (before) Object.defineProperty(globalThis, "Go", before);
  else delete globalThis.Go;
  if (typeof Go === "function" && Go !== before?.value) goClass = Go;
}

/**
 * loadGo returns Go's class: the one the bundle carries, or else the one wasm_exec.js at
 * url defines, which it imports. Where that import fails, or runs nothing (a module
 * evaluated before, by whoever imported it first), a global Go the page defined itself
 * (wasm_exec.js in a script tag) is used, as it was before the engine kept its own.
 */
export async function loadGo(url) {
  if (goClass) return goClass;
  let failed;
  saveGlobalGo();
  try {
    await import(url);
  } catch (e) {
    failed = e;
  } finally {
    takeGlobalGo();
  }
  goClass ??= typeof globalThis.Go === "function" ? globalThis.Go : undefined;
  if (!goClass) throw failed ?? new Error(`tabletop: ${url} did not define Go's class`);
  return goClass;
}
