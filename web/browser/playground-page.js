// What the playground's browser tests share: the page opened in a fresh Chromium profile,
// and a check of its layout.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "./serve.js";
import { launch } from "./chromium.js";

/** web is the folder the tests serve: web/. */
export const web = join(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * openPlayground serves web/, opens the playground (at #hash, if given) in a fresh Chromium
 * profile (closed when the test ends), before(page) run ahead of loading it, and resolves
 * with the page once the engine is ready.
 */
export async function openPlayground(t, before = async () => {}, hash = "") {
  const server = await serve(web);
  const b = await launch(await mkdtemp(join(tmpdir(), "tabletop-playground-")));
  t.after(async () => (await b.close(), server.close()));
  const page = await b.ctx.newPage();
  await before(page);
  await page.goto(server.url + hash);
  await page.waitForSelector("text=ready in");
  return page;
}

/** layoutProblems lists what is wrong with the page's layout now. */
export const layoutProblems = (page) =>
  page.evaluate(() => {
    const out = [];
    const w = window.innerWidth;
    if (document.documentElement.scrollWidth > w) out.push(`page wider than the window by ${document.documentElement.scrollWidth - w} px`);
    for (const el of document.querySelectorAll("button, input, select, textarea, a, label.button")) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || el.closest("[hidden]") || el.type === "file") continue;
      const scroller = el.closest(".results");
      if (!scroller && (r.left < -1 || r.right > w + 1)) out.push(`${el.outerHTML.slice(0, 60)} off the screen (${Math.round(r.left)}..${Math.round(r.right)} of ${w})`);
    }
    return out;
  });

