// A static file server for web/, for the browser tests (the playground also works under
// `make run`, which serves it at the server's root).
import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize } from "node:path";

const types = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".wasm": "application/wasm", ".json": "application/json" };

/** serve serves dir on a free port of 127.0.0.1 and resolves with { url, close }. */
export function serve(dir) {
  const server = createServer(async (req, res) => {
    let path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname)).replace(/^(\.\.[/\\])+/, "");
    if (path.endsWith("/")) path += "index.html";
    try {
      const file = join(dir, path);
      const { size, mtimeMs } = await stat(file);
      // Revalidated on every use, as a static server with ETags serves: a page reloaded
      // gets 304 and Chromium's cached copy, with the compiled code it keeps beside a wasm.
      const etag = `"${size.toString(36)}-${Math.floor(mtimeMs).toString(36)}"`;
      const headers = { "Content-Type": types[extname(path)] ?? "application/octet-stream", "Cache-Control": "no-cache", ETag: etag };
      if (req.headers["if-none-match"] === etag) return res.writeHead(304, headers).end();
      const body = await readFile(file);
      res.writeHead(200, headers);
      res.end(req.method === "HEAD" ? undefined : body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() })));
}
