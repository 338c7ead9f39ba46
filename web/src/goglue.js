// Go's glue (wasm_exec.js) without a global. wasm_exec.js defines its class as
// globalThis.Go, and a wasm must run under the glue of the Go release that built it: a
// page that also runs another Go program, built by another release, would otherwise
// share one class, the one loaded last. The engine takes the class wasm_exec.js defines
// and puts back what globalThis.Go was before (nothing, or the page's own), so importing
// this module leaves no global Go behind. The stand-ins for fs, process and path that
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
 * url defines, which it imports.
 */
export async function loadGo(url) {
  if (goClass) return goClass;
  saveGlobalGo();
  try {
    await import(url);
  } finally {
    takeGlobalGo();
  }
  // An import of a module evaluated before runs nothing again: whoever imported this
  // wasm_exec.js first left its class in globalThis.Go.
  goClass ??= typeof globalThis.Go === "function" ? globalThis.Go : undefined;
  if (!goClass) throw new Error(`tabletop: ${url} did not define Go's class`);
  return goClass;
}
