// Loading the Go engine (dist/tabletop.wasm, with Go's dist/wasm_exec.js) once per page or
// process. In the browser the files are fetched beside this module; under Node they are
// read from disk.

let engine;

/**
 * loadEngine loads the engine once and returns its function table (globalThis.tabletopGo).
 * options.wasmUrl and options.wasmExecUrl override where the two files are found; only the
 * first call's options count.
 */
export function loadEngine(options = {}) {
  engine ??= instantiate(options).catch((e) => {
    engine = undefined;
    throw e;
  });
  return engine;
}

async function instantiate({ wasmUrl, wasmExecUrl } = {}) {
  const wasm = new URL(wasmUrl ?? "../dist/tabletop.wasm", import.meta.url);
  if (!globalThis.Go) await import(new URL(wasmExecUrl ?? "../dist/wasm_exec.js", import.meta.url).href);
  const go = new globalThis.Go();
  const { instance } = await compile(wasm, go.importObject);
  go.run(instance); // runs main until it waits for calls; resolves only on exit
  if (!globalThis.tabletopGo) throw new Error("tabletop: the engine did not start");
  return globalThis.tabletopGo;
}

async function compile(url, imports) {
  if (url.protocol === "file:") {
    const { readFile } = await import("node:fs/promises");
    return WebAssembly.instantiate(await readFile(url), imports);
  }
  const res = fetch(url);
  if (WebAssembly.instantiateStreaming) {
    try {
      return await WebAssembly.instantiateStreaming(res, imports);
    } catch {
      // a server that sends the wrong Content-Type: fall back to bytes
    }
  }
  return WebAssembly.instantiate(await (await fetch(url)).arrayBuffer(), imports);
}
