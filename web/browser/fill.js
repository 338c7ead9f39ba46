// Filling a store for the Chromium tests of large reads: rows entities of about 1 KB in
// partitions of 1,000, written in transactions of 100, then compacted into pages.

/**
 * fill fills the store that page opened as window.app ({ store, c: a TableClient of
 * "things" }) and closes it; each entity's n is its number, its RowKey that number.
 */
export function fill(page, rows) {
  return page.evaluate(async (rows) => {
    const { c, store } = window.app;
    await c.createTable();
    const v = "v".repeat(1000);
    for (let i = 0; i < rows; i += 100) {
      await c.submitTransaction(Array.from({ length: 100 }, (_, j) => ["create", { partitionKey: `p${(i / 1000) | 0}`, rowKey: String(i + j).padStart(5, "0"), v, n: i + j }]));
    }
    await store.compact();
    await store.close();
  }, rows);
}
