// Chromium for the browser tests: Debian's chromium on a profile directory, driven by
// playwright-core over CDP, so that a test holds the browser's process and can kill it.
import { spawn } from "node:child_process";
import { chromium } from "playwright-core";

const args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

/**
 * launch starts chromium on a profile directory and connects to it over CDP, so that the
 * test holds the browser's process and can kill it. It resolves with { browser, ctx, kill, close }.
 */
export async function launch(profile) {
  const proc = spawn(process.env.CHROMIUM ?? "/usr/bin/chromium", [...args, `--user-data-dir=${profile}`, "--remote-debugging-port=0", "about:blank"]);
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
  return {
    browser,
    ctx: browser.contexts()[0],
    kill: async () => (proc.kill("SIGKILL"), await exited),
    close: async () => (await browser.close().catch(() => {}), proc.kill(), await exited),
  };
}

