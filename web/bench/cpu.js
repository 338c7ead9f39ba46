// The CPU time of the engine's calls under Node, for builds of the module side by side: what
// a change to the build (wasm-opt's level, a transform of the wasm) costs at run time. Each
// entry runs in a process of its own (a fresh V8), the entries one after the other in each
// round, the order rotated, and the table gives each one's median over the rounds of the
// CPU time (user + system, process.cpuUsage) per insert, per point get and per query of a
// partition (n / 20 entities: 1,000 by default), in memory. CPU time moves less than wall
// time on a shared machine, but still moves: compare entries of one run, not runs.
//
//   node bench/cpu.js [--entry=dist/tabletop.js,...] [--rounds=5] [--n=20000]
import { execFileSync } from "node:child_process";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";

const web = new URL("../", import.meta.url);
const PARTITIONS = 20;

/** measure runs the workload on the module at url and resolves with its CPU time per call. */
async function measure(url, n) {
  const T = await import(url);
  const store = await T.openStore("cpu", { inMemory: true });
  const client = new T.TableClient(store, "Bench");
  await client.createTable();
  for (let i = 0; i < 5000; i++) await client.createEntity({ partitionKey: "warm", rowKey: `r${i}`, n: i }); // V8 tiers up
  const perCall = async (calls, f) => {
    const before = process.cpuUsage();
    for (let i = 0; i < calls; i++) await f(i);
    const d = process.cpuUsage(before);
    return (d.user + d.system) / calls;
  };
  const out = {};
  out["insert (µs)"] = await perCall(n, (i) => client.createEntity({ partitionKey: `p${i % PARTITIONS}`, rowKey: `r${i}`, n: i, s: "some text", b: true }));
  out["point get (µs)"] = await perCall(2 * n, (i) => client.getEntity(`p${i % PARTITIONS}`, `r${i % n}`));
  out[`query of ${n / PARTITIONS} (ms)`] =
    (await perCall(100, async (i) => {
      const pages = client.listEntities({ queryOptions: { filter: T.odata`PartitionKey eq ${`p${i % PARTITIONS}`}` } }).byPage({ maxPageSize: 1000 });
      const page = (await pages.next()).value;
      if (page.length !== n / PARTITIONS) throw new Error(`a query returned ${page.length} entities, not ${n / PARTITIONS}`);
    })) / 1000;
  await store.close();
  return out;
}

/** median of numbers. */
function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** compare runs every entry rounds times, each in a child process, and prints the table. */
function compare(entries, rounds, n) {
  const runs = new Map(entries.map((e) => [e, []]));
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < entries.length; k++) {
      const entry = entries[(k + r) % entries.length];
      const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), `--child=${new URL(entry, web).href}`, `--n=${n}`], { encoding: "utf8" });
      runs.get(entry).push(JSON.parse(out));
    }
  }
  const rows = Object.keys(runs.get(entries[0])[0]);
  console.log(`\nCPU time per call, median of ${rounds} rounds (load average ${loadavg()[0].toFixed(1)}):\n`);
  console.log(`| entry | ${rows.join(" | ")} |`);
  console.log(`| --- |${rows.map(() => " ---: |").join("")}`);
  for (const [entry, results] of runs) console.log(`| ${entry} | ${rows.map((row) => median(results.map((x) => x[row])).toFixed(2)).join(" | ")} |`);
}

const arg = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
if (import.meta.url === `file://${process.argv[1]}`) {
  const n = Number(arg("n", "20000"));
  if (!(n > 0 && n % PARTITIONS === 0)) throw new Error(`--n must be a positive multiple of ${PARTITIONS}`);
  const child = arg("child");
  if (child) console.log(JSON.stringify(await measure(child, n)));
  else compare(arg("entry", "dist/tabletop.js").split(","), Number(arg("rounds", "5")), n);
}
