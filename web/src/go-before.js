// The bundle's first module (see bundle.js): notes globalThis.Go before wasm_exec.js runs.
import { saveGlobalGo } from "./goglue.js";

saveGlobalGo();
