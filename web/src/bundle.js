// The entry `make web` builds dist/tabletop.js from (esbuild): Go's wasm_exec.js, then the
// module's exports. The one file carries Go's glue, so that a page makes no request for
// it: fetched beside the module, its request, response and compile fell in the middle of
// the wasm's compile on the main thread and delayed it (bench/import.js, web/README "Size
// and speed"). Importing the bundle therefore defines globalThis.Go, and the fs, process
// and path stand-ins wasm_exec.js defines where a global of that name is missing, which
// the source's modules define when the engine loads.
import "../dist/wasm_exec.js";

export * from "../tabletop.js";
