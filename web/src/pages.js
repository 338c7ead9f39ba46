// Paged async iterables in the SDK's shape: iterate items with for await, or pages with
// .byPage({ maxPageSize, continuationToken }), each page an array with .continuationToken.

/**
 * paged returns a PagedAsyncIterableIterator over fetchPage(top, token), which resolves
 * with an array of items carrying continuationToken (undefined on the last page).
 */
export function paged(fetchPage) {
  async function* pages(settings = {}) {
    let token = settings.continuationToken;
    do {
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
