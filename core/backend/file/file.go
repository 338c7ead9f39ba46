package file

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/tabletopdb/tabletop/core"
)

// SyncPolicy says when appended change sets are fsynced.
type SyncPolicy uint8

// The sync policies; see the package documentation.
const (
	SyncAlways SyncPolicy = iota
	SyncEverySecond
	SyncNever
)

// Options configure a Backend.
type Options struct {
	Sync SyncPolicy
}

// Backend is a core.Backend in a directory. It commits in groups (core.GroupCommitter):
// under SyncAlways, commits that wait for their sync at the same time share one fsync.
type Backend struct {
	dir  string
	opts Options
	lock io.Closer

	mu       sync.Mutex // guards the log's offset and every field below
	log      *os.File
	written  uint64     // change sets written to the log
	dirty    bool       // written since the last sync
	pending  []byte     // under SyncAlways: framed change sets written by the next fsync
	spare    []byte     // the buffer pending had before the last fsync took it, for reuse
	writeErr error      // a failed write: the log's tail is unknown, so nothing more is written
	synced   uint64     // change sets known durable
	syncing  bool       // an fsync for Sync is under way (without mu held)
	syncDone *sync.Cond // signalled on mu when an fsync ends
	syncErr  error      // a failed fsync: what the disk holds is unknown from then on
	syncs    int        // fsyncs of the log done for Sync, for tests
	grouped  uint64     // change sets the last fsync covered
	lastSync time.Duration
	joined   *sync.Cond // signalled on mu, while an fsync gathers its group, by Write and at its deadline

	stop chan struct{}
	done chan struct{}
}

var _ core.GroupCommitter = (*Backend)(nil)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// ErrLocked means another process has the directory open.
var ErrLocked = errors.New("data directory is in use by another process")

// Open opens (creating if needed) the backend in dir.
func Open(dir string, opts Options) (*Backend, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create data directory: %w", err)
	}
	lock, err := lockDir(filepath.Join(dir, "LOCK"))
	if err != nil {
		return nil, err
	}
	log, err := os.OpenFile(filepath.Join(dir, "log"), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		lock.Close()
		return nil, fmt.Errorf("open log: %w", err)
	}
	b := &Backend{dir: dir, opts: opts, lock: lock, log: log}
	b.syncDone = sync.NewCond(&b.mu)
	b.joined = sync.NewCond(&b.mu)
	if opts.Sync == SyncEverySecond {
		b.stop, b.done = make(chan struct{}), make(chan struct{})
		go b.syncLoop()
	}
	return b, nil
}

// Load replays the snapshot file, then each intact log record, truncating a torn tail.
func (b *Backend) Load(snapshot func(r io.Reader) error, changeSet func(cs []byte) error) error {
	if err := b.loadSnapshot(snapshot); err != nil {
		return err
	}
	if _, err := b.log.Seek(0, io.SeekStart); err != nil {
		return err
	}
	good, err := readRecords(bufio.NewReader(b.log), changeSet)
	if err != nil {
		return err
	}
	if err := b.log.Truncate(good); err != nil {
		return fmt.Errorf("truncate torn log: %w", err)
	}
	_, err = b.log.Seek(good, io.SeekStart)
	return err
}

func (b *Backend) loadSnapshot(snapshot func(r io.Reader) error) error {
	f, err := os.Open(filepath.Join(b.dir, "snapshot"))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("open snapshot: %w", err)
	}
	defer f.Close()
	return snapshot(bufio.NewReaderSize(f, 1<<20))
}

// readRecords calls fn with each intact record and returns the offset after the last one.
func readRecords(r io.Reader, fn func([]byte) error) (int64, error) {
	var off int64
	var hdr [8]byte
	for {
		if _, err := io.ReadFull(r, hdr[:]); err != nil {
			return off, nil // end of log, or a torn header
		}
		n, sum := binary.LittleEndian.Uint32(hdr[:4]), binary.LittleEndian.Uint32(hdr[4:])
		payload := make([]byte, n)
		if _, err := io.ReadFull(r, payload); err != nil || crc32.Checksum(payload, crcTable) != sum {
			return off, nil // torn or corrupt tail
		}
		if err := fn(payload); err != nil {
			return off, err
		}
		off += int64(len(hdr)) + int64(n)
	}
}

// Append writes one framed change set and, under SyncAlways, waits until it is on disk.
func (b *Backend) Append(cs []byte) error {
	seq, err := b.Write(cs)
	if err != nil {
		return err
	}
	return b.Sync(seq)
}

// Write appends one framed change set to the log, without waiting for the disk. Under
// SyncAlways it is kept in memory until the next fsync writes it with the others of its
// group, so that the log is never written to while it is being synced: on Linux, a write
// to a page under writeback waits for it, which would hold the store's write lock for the
// length of an fsync.
func (b *Backend) Write(cs []byte) (uint64, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.writeErr != nil {
		return 0, b.writeErr
	}
	if b.opts.Sync == SyncAlways {
		b.pending = appendFrame(b.pending, cs)
		b.written++
		b.joined.Signal()
		return b.written, nil
	}
	if _, err := b.log.Write(appendFrame(nil, cs)); err != nil {
		// A partial record may be in the log; records after it would not be replayed.
		b.writeErr = fmt.Errorf("write log: %w", err)
		return 0, b.writeErr
	}
	b.written++
	b.dirty = true
	return b.written, nil
}

// appendFrame appends a change set framed as a log record: length, CRC-32C, payload.
func appendFrame(b, cs []byte) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(cs)))
	b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(cs, crcTable))
	return append(b, cs...)
}

// Sync returns once change set seq is on disk under SyncAlways (at once under the other
// policies). A caller that finds no fsync under way starts one for everything written so
// far and wakes every waiter when it ends; a waiter it covered returns, one it did not
// (written during that fsync) starts the next, for all written by then.
func (b *Backend) Sync(seq uint64) error {
	if b.opts.Sync != SyncAlways {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for {
		switch {
		case b.syncErr != nil:
			return b.syncErr
		case b.synced >= seq:
			return nil
		case !b.syncing:
			b.fsyncUnlocked()
			continue
		}
		b.syncDone.Wait()
	}
}

// fsyncUnlocked writes the change sets kept for the group and fsyncs the log, releasing
// mu meanwhile so that commits go on, then wakes the waiters; mu is held on entry and exit.
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
		b.writeErr, b.syncErr = err, err
	} else {
		b.synced = max(b.synced, target)
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
			return fmt.Errorf("write log: %w", err)
		}
	}
	if err := b.log.Sync(); err != nil {
		return fmt.Errorf("sync log: %w", err)
	}
	return nil
}

// groupDelay caps how long an fsync waits for concurrent commits to join it.
const groupDelay = 2 * time.Millisecond

// Compact writes a new snapshot and empties the log.
func (b *Backend) Compact(save func(w io.Writer) error) error {
	if err := b.writeSnapshot(save); err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.syncing {
		b.syncDone.Wait()
	}
	if err := b.log.Truncate(0); err != nil {
		return fmt.Errorf("truncate log: %w", err)
	}
	if _, err := b.log.Seek(0, io.SeekStart); err != nil {
		return err
	}
	if err := b.log.Sync(); err != nil {
		return err
	}
	// The snapshot holds every change set written so far, kept ones included.
	b.pending, b.synced = b.pending[:0], b.written
	return nil
}

func (b *Backend) writeSnapshot(save func(w io.Writer) error) error {
	tmp := filepath.Join(b.dir, "snapshot.tmp")
	f, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("create snapshot: %w", err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	err = errors.Join(save(w), w.Flush(), f.Sync(), f.Close())
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write snapshot: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(b.dir, "snapshot")); err != nil {
		return fmt.Errorf("install snapshot: %w", err)
	}
	return syncDir(b.dir)
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
			b.mu.Lock()
			dirty := b.dirty
			b.dirty = false
			b.mu.Unlock()
			if dirty {
				b.log.Sync() // without mu: a commit's write never waits for the disk
			}
		}
	}
}

// Close syncs and closes the log and releases the directory.
func (b *Backend) Close() error {
	if b.stop != nil {
		close(b.stop)
		<-b.done
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.syncing {
		b.syncDone.Wait()
	}
	var err error
	if b.writeErr == nil {
		err = b.flush(b.pending)
	}
	return errors.Join(err, b.log.Close(), b.lock.Close())
}
