package file

import (
	"fmt"
	"time"
)

// Append writes one framed change set and, under SyncAlways, waits until it is on disk.
func (b *Backend) Append(cs []byte) error {
	seq, err := b.Write(cs)
	if err != nil {
		return err
	}
	return b.Sync(seq)
}

// Write appends one framed change set to the log, without waiting for the disk. Its
// room on disk is reserved first: when the disk is full, Write fails (core.ErrNoSpace)
// before anything of the change set is kept, and the store applies nothing of it.
//
// Under SyncAlways the change set is kept in memory until the next fsync writes it with
// the others of its group, so that the log is never written to while it is being synced:
// on Linux, a write to a page under writeback waits for it, which would hold the store's
// write lock for the length of an fsync.
func (b *Backend) Write(cs []byte) (uint64, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.failed != nil {
		return 0, b.failed
	}
	if err := b.space.ensure(b.queued+frameHeader+int64(len(cs))+int64(markFrame), b.failing); err != nil {
		b.report(err)
		return 0, err
	}
	if b.opts.Sync == SyncAlways {
		b.report(nil) // the write is taken: writes work (again)
		n := len(b.pending)
		b.pending = appendFrame(b.pending, cs)
		b.queued += int64(len(b.pending) - n)
		b.written++
		b.joined.Signal()
		return b.written, nil
	}
	marked := b.markedAt
	if err := b.writeNow(appendFrame(b.markIfSynced(b.spare[:0]), cs)); err != nil {
		b.markedAt = marked
		b.report(err)
		return 0, err
	}
	b.written++
	b.synced = b.written // durable under the policy once written
	b.dirty = true
	b.report(nil)
	return b.written, nil
}

// writeNow writes buf at the log's end, mu held; a failed write is cut from the log, so
// that nothing of it is replayed, or else leaves the backend failed.
func (b *Backend) writeNow(buf []byte) error {
	n, err := b.log.Write(buf)
	b.spare = buf[:0]
	if err == nil {
		b.end += int64(n)
		b.queued = b.end
		return nil
	}
	err = fmt.Errorf("write log: %w", noSpace(err))
	if terr := b.truncate(b.end); terr != nil {
		b.failed = fmt.Errorf("%w (and cutting it from the log failed: %v)", err, terr)
	}
	return err
}

// markIfSynced appends a sync mark to buf if the log was synced past the last mark.
func (b *Backend) markIfSynced(buf []byte) []byte {
	if b.syncedAt <= b.markedAt {
		return buf
	}
	b.markedAt = b.syncedAt
	return appendMark(buf, b.syncedAt)
}

// Sync returns once change set seq is on disk under SyncAlways (at once under the other
// policies). A caller that finds no fsync under way starts one for everything written so
// far and wakes every waiter when it ends; a waiter it covered returns, one it did not
// (written during that fsync) starts the next, for all written by then. Once an fsync
// fails, Sync fails for every change set it did not cover until Discard.
func (b *Backend) Sync(seq uint64) error {
	if b.opts.Sync != SyncAlways {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for {
		switch {
		case b.synced >= seq:
			return nil
		case b.failed != nil:
			return b.failed
		case !b.syncing:
			b.fsyncUnlocked()
			continue
		}
		b.syncDone.Wait()
	}
}

// fsyncUnlocked writes the change sets kept for the group and fsyncs the log, releasing
// mu meanwhile so that commits go on, then wakes the waiters; mu is held on entry and exit.
// After a good fsync, the next group starts with a sync mark vouching for it.
func (b *Backend) fsyncUnlocked() {
	b.syncing = true
	b.gather()
	buf, target := b.pending, b.written
	b.pending = b.spare[:0]
	b.syncs++
	b.mu.Unlock()
	start := time.Now()
	err := b.flush(buf)
	took := time.Since(start)
	b.mu.Lock()
	b.spare = buf[:0]
	b.syncing, b.lastSync = false, took
	b.grouped = target - b.synced
	if err != nil {
		b.failed = err
		b.report(err)
	} else {
		b.end += int64(len(buf))
		b.synced, b.syncedAt = max(b.synced, target), b.end
		n := len(b.pending)
		b.pending = b.markIfSynced(b.pending)
		b.queued += int64(len(b.pending) - n)
	}
	b.syncDone.Broadcast()
}

// gather waits, mu held, for the group of the fsync about to start. When the last fsync
// served several commits, writers are committing concurrently, and those it just
// released are about to commit again: the fsync waits until as many change sets are kept
// as that one covered, so that it takes them along instead of leaving them for the next
// one, or until a quarter of its duration (at most groupDelay) has passed, should fewer
// come. The wait ends on the arrival that completes the group (Write signals joined), not
// on a timer, whose resolution when the process is idle is a millisecond. A lone writer
// never waits.
func (b *Backend) gather() {
	if b.grouped <= 1 || b.written-b.synced >= b.grouped {
		return
	}
	passed := new(bool) // this wait's own: a late deadline of an earlier one changes nothing
	deadline := time.AfterFunc(min(b.lastSync/4, groupDelay), func() {
		b.mu.Lock()
		*passed = true
		b.joined.Signal()
		b.mu.Unlock()
	})
	for !*passed && b.written-b.synced < b.grouped {
		b.joined.Wait()
	}
	deadline.Stop()
}

// flush writes buf to the log, if not empty, and fsyncs it.
func (b *Backend) flush(buf []byte) error {
	if len(buf) > 0 {
		if _, err := b.log.Write(buf); err != nil {
			return fmt.Errorf("write log: %w", noSpace(err))
		}
	}
	if err := b.log.Sync(); err != nil {
		return fmt.Errorf("sync log: %w", noSpace(err))
	}
	return nil
}

// groupDelay caps how long an fsync waits for concurrent commits to join it.
const groupDelay = 2 * time.Millisecond

// Discard drops, after a failed write or fsync, every change set not known durable: the
// log is cut back to the end of the last good write (under SyncAlways, its last fsync),
// and writing resumes after it. It returns the sequence number of the last durable
// change set, and whether there was a failure to recover from; if cutting the log fails,
// the backend stays failed.
func (b *Backend) Discard() (durable uint64, failed bool, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.syncing {
		b.syncDone.Wait()
	}
	if b.failed == nil {
		return b.synced, false, nil
	}
	if err := b.truncate(b.end); err != nil {
		return b.synced, true, fmt.Errorf("cut the log back to its last sync: %w", err)
	}
	b.failed = nil
	b.pending, b.written = b.pending[:0], b.synced
	return b.synced, true, nil
}

// truncate cuts the log to size and syncs it, mu held.
func (b *Backend) truncate(size int64) error {
	if err := b.log.Truncate(size); err != nil {
		return err
	}
	if _, err := b.log.Seek(size, 0); err != nil {
		return err
	}
	b.end, b.queued = size, size
	b.space.reset(size)
	return b.log.Sync()
}

// report tells OnWriteState of a change between writes failing (err) and working (nil).
func (b *Backend) report(err error) {
	if failing := err != nil; failing != b.failing {
		b.failing = failing
		if b.opts.OnWriteState != nil {
			b.opts.OnWriteState(err)
		}
	}
}

func (b *Backend) syncLoop() {
	defer close(b.done)
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-b.stop:
			return
		case <-t.C:
			b.syncEverySecond()
		}
	}
}

// syncEverySecond fsyncs the log if it was written since the last time, without mu held,
// so that a commit's write never waits for the disk.
func (b *Backend) syncEverySecond() {
	b.mu.Lock()
	dirty, at := b.dirty, b.end
	b.dirty = false
	b.mu.Unlock()
	if dirty && b.log.Sync() == nil {
		b.mu.Lock()
		b.syncedAt = max(b.syncedAt, at)
		b.mu.Unlock()
	}
}
