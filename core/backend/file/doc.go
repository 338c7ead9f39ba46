// Package file is the native core.Backend: a directory holding a snapshot file and an
// append-only change log.
//
//	{dir}/snapshot   the whole store at the last compaction: buntdb's Save format, a
//	                 command a frame, ended by a frame counting them (snapshot.go)
//	{dir}/log        change sets committed since, and sync marks, each a frame:
//	                 uint32 length · uint32 CRC-32C · payload (little-endian; log.go)
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
//     (at most 2 ms); a lone writer never waits.
//   - SyncEverySecond: a background goroutine fsyncs once a second; a process crash loses
//     nothing (the data is in the OS page cache), a machine crash may lose the last second.
//   - SyncNever: the OS decides; for tests and benchmarks.
//
// Open fsyncs the directories it creates and the log's entry, so that a new store's
// first acknowledged write cannot vanish with its directory.
//
// # A full disk
//
// Write reserves the room of a change set in the log before taking it: on Linux the log
// is allocated ahead of its end (fallocate, keeping its size), a megabyte at a time, so a
// full disk fails the reservation, with core.ErrNoSpace, before the store applies the
// write; nothing of it is ever read, and the next write tries again, succeeding once
// space is freed. Where space cannot be allocated ahead (other systems, file systems
// without fallocate), a write can fail after the store applied it: the store then undoes
// every write not yet durable and Discard cuts the log back to its last good write, so
// writing goes on from the durable state without a reopen. Options.OnWriteState hears
// when writes start failing and when they work again.
//
// # A torn tail and damage
//
// A crash can tear only what was written after the last fsync. After each fsync the next
// group of change sets starts with a sync mark, a frame saying how far the log was on
// disk, and a cleanly closed log ends with one. On open, the log is replayed frame by
// frame. A bad frame (a length past the end, a checksum that does not match) that no
// sync mark vouching for it follows is a torn tail: the log is cut there, which drops
// only what no fsync had covered. A bad frame that such a mark follows had reached the
// disk intact: it is damage, and Load fails with a *DamageError (ErrDamaged) naming the
// file, the offset and what follows, leaving the file as it is. A snapshot is written
// whole and renamed into place, so any bad frame in it, or a missing end frame, is
// damage. Salvage keeps every intact frame of a damaged directory, moving the damaged
// files aside. Damage inside the last group of a log that was not closed cleanly cannot
// be told from a torn write, and is dropped as one.
//
// Compaction writes snapshot.tmp, fsyncs it, renames it over snapshot, fsyncs the
// directory and then truncates the log. A crash between the rename and the truncation
// replays the old log over the new snapshot on the next open, which yields the same state.
package file
