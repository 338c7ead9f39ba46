// The workerd configuration that runs the edge bundle locally, as wrangler.toml declares it
// for a deployment: the entry Worker, the AccountObject and TableObject classes (SQLite-
// backed), their bindings, the variables, and Durable Object storage in a directory on disk.
// Keep it in step with wrangler.toml (test/config.test.mjs checks the two agree).
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** COMPATIBILITY_DATE is wrangler.toml's compatibility_date. */
export const COMPATIBILITY_DATE = "2026-04-01";

/** CLASSES are the Durable Object classes and the bindings that reach them. */
export const CLASSES = [
  { binding: "ACCOUNTS", className: "AccountObject" },
  { binding: "TABLES", className: "TableObject" },
];

/**
 * writeConfig writes a workerd config for the bundle in distDir (wrangler deploy
 * --dry-run's output) listening on 127.0.0.1:port with storage under persistDir, and
 * returns its path. With user = { module, port }, a second Worker (module, an ES module
 * file in distDir) listens on user.port with a service binding TABLETOP to the bundle's
 * RPC entrypoint, as a user's own Worker would have.
 */
export function writeConfig({ distDir, persistDir, port, vars = {}, v8Flags = [], user }) {
  const wasm = readdirSync(distDir).filter((f) => f.endsWith(".wasm"));
  const modules = [`(name = "entry.js", esModule = embed "entry.js")`, ...wasm.map((f) => `(name = "${f}", wasm = embed "${f}")`)];
  const bindings = [
    ...CLASSES.map((c) => `(name = "${c.binding}", durableObjectNamespace = "${c.className}")`),
    ...Object.entries(vars).map(([k, v]) => `(name = ${str(k)}, text = ${str(v)})`),
  ];
  const namespaces = CLASSES.map((c) => `(className = "${c.className}", uniqueKey = "tabletop-${c.className}", enableSql = true)`);
  const config = `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .tabletop),
    (name = "storage", disk = (path = ${str(persistDir)}, writable = true)),${user ? `
    (name = "user", worker = .user),` : ""}
  ],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")${user ? `,
    (name = "user", address = "127.0.0.1:${user.port}", http = (), service = "user")` : ""}],
  v8Flags = [${v8Flags.map(str).join(", ")}],
);
const tabletop :Workerd.Worker = (
  compatibilityDate = "${COMPATIBILITY_DATE}",
  modules = [${modules.join(", ")}],
  bindings = [${bindings.join(", ")}],
  durableObjectNamespaces = [${namespaces.join(", ")}],
  durableObjectStorage = (localDisk = "storage"),
);
${user ? userWorker(user) : ""}`;
  const path = join(distDir, `workerd-${port}.capnp`);
  writeFileSync(path, config);
  return path;
}

/** userWorker is the config of a second Worker bound to the entrypoint Tabletop as TABLETOP. */
function userWorker({ module }) {
  return `const user :Workerd.Worker = (
  compatibilityDate = "${COMPATIBILITY_DATE}",
  modules = [(name = "user.js", esModule = embed ${str(module)})],
  bindings = [(name = "TABLETOP", service = (name = "main", entrypoint = "Tabletop"))],
);
`;
}

function str(s) {
  return JSON.stringify(String(s));
}
