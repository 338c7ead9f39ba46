// `make bench-web`: the browser benchmark in Node and in Chromium, one after the other
// (the machine's cores are shared), printed as one table. Node runs in a child process
// so that its import of the engine is as cold as the page's.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { benchChromium } from "./browser.js";
import { table } from "./table.js";

const started = performance.now();
const child = promisify(execFile)(process.execPath, [new URL("./node.js", import.meta.url).pathname, "--json"], { maxBuffer: 1 << 20 });
child.child.stderr.pipe(process.stderr);
const node = JSON.parse((await child).stdout);
const browser = await benchChromium((m) => console.error(m));
console.log(`\nmake bench-web (${((performance.now() - started) / 1000).toFixed(0)} s):\n`);
console.log(table({ Node: node, Chromium: browser }));
