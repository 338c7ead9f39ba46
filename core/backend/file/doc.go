// Package file is the native core.Backend: a directory holding a snapshot file and an
// append-only change log.
//
//	{dir}/snapshot   the whole store at the last compaction (buntdb's Save format)
//	{dir}/log        change sets committed since, each framed as
//	                 uint32 length · uint32 CRC-32C · payload (little-endian)
//	{dir}/LOCK       held with flock while open, so two processes never share a directory
//
// # Durability
//
// The Sync option chooses when appended change sets reach the disk:
//
//   - SyncAlways (the default): a write is on disk before the store acknowledges it. A
//     process or machine crash loses nothing acknowledged. Commits are grouped (the
//     Backend is a core.GroupCommitter): a commit's change set is taken under the store's
//     write lock and kept in memory; the fsync is awaited after the lock is released, by
//     one commit that writes every change set kept so far to the log and fsyncs it for
//     all of them. Readers never wait for the disk, commits waiting at the same time
//     share one write and one fsync, and the log is never written while it is synced.
//     When the last fsync served several commits, the next one waits until as many have
//     committed again (the writers it released) or a quarter of its duration has passed
//     (at most 2 ms); a lone writer never waits. A failed write or fsync is final: the
//     backend refuses every later one, and the store every later write.
//   - SyncEverySecond: a background goroutine fsyncs once a second; a process crash loses
//     nothing (the data is in the OS page cache), a machine crash may lose the last second.
//   - SyncNever: the OS decides; for tests and benchmarks.
//
// A crash can leave a torn record at the end of the log. On open, the log is read up to
// the last record whose length and checksum are intact and truncated there; everything
// acknowledged under SyncAlways precedes it.
//
// Compaction writes snapshot.tmp, fsyncs it, renames it over snapshot, fsyncs the
// directory and then truncates the log. A crash between the rename and the truncation
// replays the old log over the new snapshot on the next open, which yields the same state.
package file
