// page.js opens the bench page (web/bench/index.html) in a fresh headless Chromium
// (Debian's, through playwright-core), for the scripts that time code inside a page
// (steps.js --chromium, rounds.js). Its context is an incognito one, whose IndexedDB is
// kept in memory: what times IndexedDB opens an on-disk profile instead, as browser.js
// does (counting the log at open, for one, costs a fraction here of what it does on disk:
// web/README.md, "Against the targets").

/**
 * onBenchPage serves web/, opens bench/index.html in a new Chromium, resolves with what
 * fn(page) resolves with, and closes the browser and the server after. The page's console
 * and errors are printed.
 */
export async function onBenchPage(fn) {
  const { chromium } = await import("playwright-core");
  const { serve } = await import("../browser/serve.js");
  const server = await serve(new URL("../", import.meta.url).pathname);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", headless: true, args: ["--no-sandbox", "--disable-gpu"] });
  try {
    const page = await browser.newPage();
    page.on("console", (m) => console.log(m.text()));
    page.on("pageerror", (e) => console.error(`page error: ${e.message}`));
    await page.goto(`${server.url}bench/index.html`);
    return await fn(page);
  } finally {
    await browser.close();
    server.close();
  }
}
