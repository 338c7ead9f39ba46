// Routing at the stateless entry Worker: which Durable Object answers a request. Only the
// path is read here (and, for $batch, the first request line of the body); everything
// else, authentication included, is the Go handler's, in the object.
//
//   service level, Tables, Tables('t'), OPTIONS   → the account object (catalog, properties)
//   /t, /t(), /t(PartitionKey=…,RowKey=…), ?comp=acl → the object of table t
//   /$batch                                         → the object of the table its first
//                                                     request names

/**
 * accountNames returns the names in a TABLETOP_ACCOUNTS value ("name:key[:key2];…"); none
 * when it is unset or empty. A deployment never falls back to the development account,
 * whose key is public: it must be configured like any other.
 */
export function accountNames(value) {
  return String(value ?? "")
    .split(";")
    .map((e) => e.split(":")[0].trim())
    .filter((n) => n !== "");
}

/**
 * route returns where a request goes: { account, table } with table "" for the account
 * object, or { account, batch: true } when the body must be read to find the table. An
 * account that is not served goes to the first account's object, whose handler answers
 * it as the native server would.
 */
export function route(method, url, accounts) {
  const u = new URL(url);
  let { account, path } = splitAccount(u, accounts);
  if (!accounts.includes(account)) return { account: accounts[0], table: "" };
  if (method === "OPTIONS") return { account, table: "" };
  let p;
  try {
    p = decodeURIComponent(path).replace(/^\//, "").replace(/\/$/, ""); // one trailing slash is ignored
  } catch {
    return { account, table: "" };
  }
  if (p === "" || p === "Tables" || p.startsWith("Tables(")) return { account, table: "" };
  if (p === "$batch") return { account, batch: true };
  const open = p.indexOf("(");
  const name = open < 0 ? p : p.slice(0, open);
  if (name === "" || (open < 0 && p.includes("/"))) return { account, table: "" };
  return { account, table: name };
}

/** servedAccount is the account a URL names (host style, else path style), served or not. */
export function servedAccount(url, accounts) {
  return splitAccount(url, accounts).account;
}

/**
 * splitAccount finds the account: host style (account.table.host) first, then path style.
 * A name of an account's secondary location (name-secondary) stands for the account: its
 * objects hold the data, and their handler serves the secondary's reads.
 */
function splitAccount(u, accounts) {
  const host = u.hostname;
  const label = primary(host.split(".")[0], accounts);
  const isIP = /^[\d.]+$/.test(host) || host.startsWith("[");
  if (!isIP && host.includes(".") && accounts.includes(label)) return { account: label, path: u.pathname };
  const [, account = "", ...rest] = u.pathname.split("/");
  return { account: primary(account, accounts), path: "/" + rest.join("/") };
}

/** primary is the account name stands for: itself, or the account whose secondary it names. */
function primary(name, accounts) {
  const base = name.endsWith("-secondary") ? name.slice(0, -"-secondary".length) : "";
  return !accounts.includes(name) && accounts.includes(base) ? base : name;
}

/**
 * batchTable returns the route of a $batch body: that of the first request line inside
 * it (a batch names one table), or the account object if none is found.
 */
export function batchRoute(text, url, accounts) {
  const m = /^(?:GET|POST|PUT|PATCH|MERGE|DELETE) (\S+) HTTP\/1\.[01]\r?$/m.exec(text);
  if (m) {
    try {
      const r = route("POST", new URL(m[1], url).href, accounts);
      if (r.table) return r;
    } catch {
      // not a URL: the handler answers it
    }
  }
  return { account: route("POST", url, accounts).account, table: "" };
}

/** tableLifecycle tells the account object whether a request creates or deletes a table. */
export function tableLifecycle(method, url) {
  const p = decodedPath(url);
  if (method === "POST" && /\/Tables(\(\))?$/.test(p)) return { op: "create" };
  const m = /\/Tables\(\s*'((?:[^']|'')*)'\s*\)$/.exec(p);
  if (method === "DELETE" && m) return { op: "delete", table: m[1].replaceAll("''", "'") };
  return null;
}

function decodedPath(url) {
  const path = new URL(url).pathname;
  try {
    return decodeURIComponent(path).replace(/\/$/, "");
  } catch {
    return path;
  }
}

/** objectName is the name a table's Durable Object is derived from: names are case-insensitive. */
export function objectName(account, table) {
  return `${account}/${table.toLowerCase()}`;
}
