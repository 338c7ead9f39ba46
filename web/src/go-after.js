// The bundle's module after wasm_exec.js (see bundle.js): takes the Go class it defined
// for the engine and puts back the global it replaced.
import { takeGlobalGo } from "./goglue.js";

takeGlobalGo();
