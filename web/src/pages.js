// Paged async iterables in the SDK's shape: iterate items with for await, or pages with
// .byPage({ maxPageSize, continuationToken }), each page an array with .continuationToken.

import { yieldToPage, SLICE_MS } from "./load.js";

/**
 * paged returns a PagedAsyncIterableIterator over fetchPage(top, token), which resolves
 * with an array of items carrying continuationToken (undefined on the last page).
 *
 * Pages of a persistent store's loaded ranges are answered at once, and an await of what
 * is already there resumes in a microtask, in the same task: a loop over many such pages
 * would hold the page's main thread until it met a range to load. So once SLICE_MS have
 * passed since the iteration last let the event loop run, the next page waits for a task
 * of its own (yieldToPage).
 */
export function paged(fetchPage) {
  async function* pages(settings = {}) {
    let token = settings.continuationToken;
    let slice = performance.now();
    do {
      if (performance.now() - slice >= SLICE_MS) {
        await yieldToPage();
        slice = performance.now();
      }
      const page = await fetchPage(settings.maxPageSize, token);
      token = page.continuationToken;
      yield page;
    } while (token);
  }
  async function* items() {
    for await (const page of pages()) yield* page;
  }
  const iter = items();
  return {
    next: () => iter.next(),
    [Symbol.asyncIterator]() {
      return this;
    },
    byPage: (settings) => pages(settings),
  };
}

/** encodeEntityToken makes the SDK-style continuation token of an entity query page. */
export function encodeEntityToken([nextPartitionKey, nextRowKey]) {
  if (!nextPartitionKey && !nextRowKey) return undefined;
  return btoa(JSON.stringify({ nextPartitionKey, nextRowKey }));
}

/** decodeEntityToken reverses encodeEntityToken; a malformed token decodes to itself. */
export function decodeEntityToken(token) {
  if (!token) return ["", ""];
  try {
    const { nextPartitionKey, nextRowKey } = JSON.parse(atob(token));
    return [nextPartitionKey ?? "", nextRowKey ?? ""];
  } catch {
    return [token, ""];
  }
}
