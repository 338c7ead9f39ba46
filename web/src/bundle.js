// The entry `make web` builds dist/tabletop.js from (esbuild): Go's wasm_exec.js, then the
// module's exports. The one file carries Go's glue, so that a page makes no request for
// it: fetched beside the module, its request, response and compile fell in the middle of
// the wasm's compile on the main thread and delayed it (bench/import.js, web/README "Size
// and speed"). The modules around it keep the class it defines for the engine and leave
// globalThis.Go as it was (goglue.js); the fs, process and path stand-ins wasm_exec.js
// defines where a global of that name is missing stay, as Go's runtime reads them there.
// Modules run in the order of these imports.
import "./go-before.js";
import "../dist/wasm_exec.js";
import "./go-after.js";

export * from "../tabletop.js";
