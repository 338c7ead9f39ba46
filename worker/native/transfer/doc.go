// Package transfer moves tables between ends: Azure Table endpoints (Azure, Azurite,
// Tabletop's native server or edge worker), dump files (the Tabletop dump format, which is
// also the browser module's export format) and Azurite's table database file. It is the
// engine of `tabletop export`, `tabletop import` and `tabletop copy`.
//
// A copy reads the source in order, table by table, and writes windows of up to 2,000
// entities, grouped by partition into batches of up to 100; an endpoint destination
// receives a window's batches in parallel (and the next window's as the last ones finish),
// as $batch InsertOrReplace requests, so that writing an entity twice leaves one copy. After each window the checkpoint (when asked
// for) records the tables done and how many entities of the current table are written, and
// a dump destination's length; an interrupted copy started again with the same checkpoint
// skips exactly what was written (an endpoint source by reading on after the last key
// written, a file by counting) and truncates a dump to its recorded length, so no entity
// is written twice or skipped, provided the source did not change in between.
//
// Reading is one table after another, in the source's order, overlapped with writing;
// writing is parallel by partition. A dump destination gets each window in source order.
//
// Timestamps: a dump keeps each entity's Timestamp as the source had it. An endpoint
// destination (Azure, Azurite, Tabletop) sets its own Timestamp on every entity written,
// as Azure always does; the source's Timestamps are not kept there.
package transfer
