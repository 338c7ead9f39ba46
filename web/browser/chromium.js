// Chromium for the browser tests: Debian's chromium on a profile directory, driven by
// playwright-core over CDP, so that a test holds the browser's process and can kill it.
import { spawn } from "node:child_process";
import { chromium } from "playwright-core";

const args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

/**
 * launch starts chromium on a profile directory and connects to it over CDP, so that the
 * test holds the browser's process and can kill it. It resolves with { browser, ctx, kill,
 * close }. Chromium runs in a process group of its own, and kill and close end every
 * process of it before they resolve: a renderer or the storage service outliving a killed
 * browser could still hold the profile's IndexedDB when the next browser opens it.
 */
export async function launch(profile) {
  const proc = spawn(process.env.CHROMIUM ?? "/usr/bin/chromium", [...args, `--user-data-dir=${profile}`, "--remote-debugging-port=0", "about:blank"], { detached: true });
  const group = () => {
    try {
      process.kill(-proc.pid, "SIGKILL");
    } catch {
      // every process of the group has ended
    }
  };
  process.once("exit", group);
  const ws = await new Promise((resolve, reject) => {
    let err = "";
    proc.stderr.on("data", (d) => {
      err += d;
      const m = err.match(/DevTools listening on (ws:\S+)/);
      if (m) resolve(m[1]);
    });
    proc.on("exit", () => reject(new Error(`chromium exited: ${err}`)));
  });
  const browser = await chromium.connectOverCDP(ws);
  const exited = new Promise((r) => proc.on("exit", r));
  const ended = async () => {
    await exited;
    group();
    for (let i = 0; i < 250 && alive(proc.pid); i++) await new Promise((r) => setTimeout(r, 20));
    process.removeListener("exit", group);
  };
  return {
    browser,
    ctx: browser.contexts()[0],
    kill: async () => (process.kill(-proc.pid, "SIGKILL"), await ended()),
    close: async () => (await browser.close().catch(() => {}), proc.kill(), await ended()),
  };
}

/** alive tells whether a process of the group led by pid is still running. */
function alive(pid) {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}
