// make dev (dev.mjs) as a new user meets it: it refuses a port that is taken, and prints
// the connection strings of the accounts it serves, not the development account's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { edgeDir, freePort } from "../runtime.mjs";
import { tempDir } from "./helpers.mjs";

/** runDev starts dev.mjs with env and resolves once until(output) holds or it exits. */
function runDev(env, until) {
  const child = spawn(process.execPath, [join(edgeDir, "dev.mjs")], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  return new Promise((resolve) => {
    const check = () => until(out) && resolve({ child, out, code: null });
    child.stdout.on("data", (d) => ((out += d), check()));
    child.stderr.on("data", (d) => ((out += d), check()));
    child.once("exit", (code) => resolve({ child, out, code }));
  });
}

test("make dev fails clearly when its port is taken", async () => {
  const srv = createServer().listen(0, "127.0.0.1");
  await new Promise((r) => srv.once("listening", r));
  const { dir, cleanup } = tempDir();
  try {
    const { code, out } = await runDev({ PORT: String(srv.address().port), TABLETOP_EDGE_DATA: dir }, () => false);
    assert.equal(code, 1, out);
    assert.match(out, /port \d+ is taken/);
    assert.doesNotMatch(out, /listening|DefaultEndpointsProtocol/);
  } finally {
    srv.close();
    cleanup();
  }
});

test("make dev prints the connection strings of TABLETOP_ACCOUNTS", async () => {
  const { dir, cleanup } = tempDir();
  const key = Buffer.from("a key of our own").toString("base64");
  const port = await freePort();
  const { child, out, code } = await runDev(
    { PORT: String(port), TABLETOP_EDGE_DATA: dir, TABLETOP_ACCOUNTS: `alpha:${key}` },
    (o) => o.includes("TableEndpoint="),
  );
  try {
    assert.equal(code, null, out);
    assert.match(out, new RegExp(`AccountName=alpha;AccountKey=${key.replace(/[+/=]/g, "\\$&")};TableEndpoint=http://127.0.0.1:${port}/alpha;`));
    assert.doesNotMatch(out, /devstoreaccount1/);
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => (child.exitCode !== null ? r() : child.once("exit", r)));
    cleanup();
  }
});

test("make dev exits, and says so, when its workerd dies", { skip: process.platform !== "linux" }, async () => {
  const { dir, cleanup } = tempDir();
  const port = await freePort();
  const { child, out } = await runDev({ PORT: String(port), TABLETOP_EDGE_DATA: dir }, (o) => o.includes("TableEndpoint="));
  try {
    assert.match(out, /AccountName=devstoreaccount1;/, "the development account, explicitly");
    const kids = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, "utf8").trim().split(/\s+/).map(Number);
    assert.equal(kids.length, 1, "dev.mjs runs one workerd");
    let rest = "";
    child.stderr.on("data", (d) => (rest += d));
    const code = await new Promise((resolve) => {
      child.once("exit", resolve);
      process.kill(kids[0], "SIGKILL");
    });
    assert.equal(code, 1);
    assert.match(rest, /workerd exited/);
  } finally {
    if (child.exitCode === null) child.kill("SIGKILL");
    cleanup();
  }
});
