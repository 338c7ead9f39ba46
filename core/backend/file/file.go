package file

import (
	"errors"
	"fmt"
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
	// OnWriteState, if set, is called when writing to the log starts to fail, with the
	// cause (such as a full disk: errors.Is(err, core.ErrNoSpace)), and with nil when a
	// write succeeds again: once per change, so that the host can log it. It is called
	// with the backend's lock held, and must not call the backend.
	OnWriteState func(err error)
}

// Backend is a core.Backend in a directory. It commits in groups (core.GroupCommitter):
// under SyncAlways, commits that wait for their sync at the same time share one fsync.
type Backend struct {
	dir  string
	opts Options
	lock io.Closer

	mu       sync.Mutex // guards the log's offset and every field below
	log      *os.File
	space    reservation // the log's disk space allocated ahead of its end
	end      int64       // bytes written to the log file
	queued   int64       // end, plus the bytes an fsync is writing, plus pending
	written  uint64      // change sets handed to Write
	synced   uint64      // change sets known durable
	syncedAt int64       // log bytes known durable
	markedAt int64       // the offset the last sync mark written vouches for
	dirty    bool        // written since the last sync
	pending  []byte      // under SyncAlways: framed change sets written by the next fsync
	spare    []byte      // the buffer pending had before the last fsync took it, for reuse
	failed   error       // a failed write or fsync: what follows syncedAt is in doubt until Discard
	failing  bool        // OnWriteState was last told of a failure
	syncing  bool        // an fsync for Sync is under way (without mu held)
	syncDone *sync.Cond  // signalled on mu when an fsync ends
	syncs    int         // fsyncs of the log done for Sync, for tests
	grouped  uint64      // change sets the last fsync covered
	lastSync time.Duration
	joined   *sync.Cond // signalled on mu, while an fsync gathers its group, by Write and at its deadline

	stop chan struct{}
	done chan struct{}
}

var _ core.GroupCommitter = (*Backend)(nil)

// ErrLocked means another process has the directory open.
var ErrLocked = errors.New("data directory is in use by another process")

// Open opens (creating if needed) the backend in dir. The directories it creates, and
// the log's entry in dir, are fsynced before it returns, so that a store's first
// acknowledged write cannot vanish with its directory.
func Open(dir string, opts Options) (*Backend, error) {
	if err := makeDir(dir); err != nil {
		return nil, fmt.Errorf("create data directory: %w", err)
	}
	lock, err := lockDir(filepath.Join(dir, "LOCK"))
	if err != nil {
		return nil, err
	}
	log, err := os.OpenFile(filepath.Join(dir, "log"), os.O_RDWR|os.O_CREATE, 0o644)
	if err == nil {
		err = syncDir(dir)
	}
	if err != nil {
		lock.Close()
		return nil, fmt.Errorf("open log: %w", err)
	}
	b := &Backend{dir: dir, opts: opts, lock: lock, log: log, space: newReservation(log)}
	b.syncDone = sync.NewCond(&b.mu)
	b.joined = sync.NewCond(&b.mu)
	if opts.Sync == SyncEverySecond {
		b.stop, b.done = make(chan struct{}), make(chan struct{})
		go b.syncLoop()
	}
	return b, nil
}

// makeDir creates dir and any missing parent, fsyncing each parent whose entries it
// changed.
func makeDir(dir string) error {
	dir = filepath.Clean(dir)
	if _, err := os.Stat(dir); err == nil {
		return nil
	}
	parent := filepath.Dir(dir)
	if parent != dir {
		if err := makeDir(parent); err != nil {
			return err
		}
	}
	if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
		return err
	}
	return syncDir(parent)
}

// Load replays the snapshot file, then each intact log record. A bad record that no sync
// mark follows is a torn tail (a crash cut what was written after the last fsync): the
// log is truncated there. One that a sync mark follows is damage: Load fails with a
// *DamageError and changes nothing. A damaged snapshot fails the same way.
func (b *Backend) Load(snapshot func(r io.Reader) error, changeSet func(cs []byte) error) error {
	if err := b.loadSnapshot(snapshot); err != nil {
		return err
	}
	st, err := b.log.Stat()
	if err != nil {
		return fmt.Errorf("stat log: %w", err)
	}
	good, err := b.replayLog(st.Size(), changeSet)
	if err != nil {
		return err
	}
	if good < st.Size() {
		if err := b.log.Truncate(good); err != nil {
			return fmt.Errorf("truncate torn log: %w", err)
		}
	}
	if err := b.log.Sync(); err != nil { // what was replayed is on disk from now on
		return fmt.Errorf("sync log: %w", err)
	}
	b.end, b.queued, b.syncedAt = good, good, good
	_, err = b.log.Seek(good, io.SeekStart)
	return err
}

// replayLog calls changeSet with each change set of the log, a file of size bytes, and
// returns the offset after the last intact frame: size, unless the log has a torn tail.
func (b *Backend) replayLog(size int64, changeSet func(cs []byte) error) (int64, error) {
	fr := newFrameReader(b.log, size)
	for {
		at := fr.off
		payload, problem, err := fr.next()
		switch {
		case errors.Is(err, io.EOF):
			return at, nil
		case err != nil:
			return at, fmt.Errorf("read log: %w", err)
		case problem != "":
			return at, b.damageAt(at, size, problem)
		}
		if synced, ok := markOf(payload); ok {
			b.markedAt = synced
		} else if err := changeSet(payload); err != nil {
			return at, err
		}
	}
}

// damageAt tells a torn tail (nil) from damage at off: a sync mark after it.
func (b *Backend) damageAt(off, size int64, problem string) error {
	mark, ok := findMark(b.log, off, size)
	if !ok {
		return nil
	}
	return &DamageError{Path: b.log.Name(), Offset: off, Problem: problem, Size: size, Intact: mark}
}

func (b *Backend) loadSnapshot(snapshot func(r io.Reader) error) error {
	path := filepath.Join(b.dir, "snapshot")
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("open snapshot: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("stat snapshot: %w", err)
	}
	r, err := openSnapshot(path, f, st.Size())
	if err != nil {
		return err
	}
	return snapshot(r)
}

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
	b.end, b.queued, b.syncedAt, b.markedAt = 0, 0, 0, 0
	b.space.reset(0)
	return nil
}

func (b *Backend) writeSnapshot(save func(w io.Writer) error) error {
	tmp := filepath.Join(b.dir, "snapshot.tmp")
	f, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("create snapshot: %w", err)
	}
	err = writeSnapshotTo(f, save)
	if err = errors.Join(err, f.Sync(), f.Close()); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write snapshot: %w", noSpace(err))
	}
	if err := os.Rename(tmp, filepath.Join(b.dir, "snapshot")); err != nil {
		return fmt.Errorf("install snapshot: %w", err)
	}
	return syncDir(b.dir)
}

// writeSnapshotTo writes a snapshot file's frames to w, with what save writes.
func writeSnapshotTo(w io.Writer, save func(w io.Writer) error) error {
	sw, err := newSnapshotWriter(w)
	if err != nil {
		return err
	}
	return errors.Join(save(sw), sw.Close())
}

// Close syncs and closes the log and releases the directory. A log closed cleanly ends
// with a sync mark, so that damage anywhere in it is told from a torn tail.
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
	if b.failed == nil {
		err = b.closeLog()
	}
	return errors.Join(err, b.log.Close(), b.lock.Close())
}

// closeLog writes what is pending and fsyncs it, then ends the log with a sync mark
// vouching for all of it; mu is held.
func (b *Backend) closeLog() error {
	if err := b.flush(b.pending); err != nil {
		return err
	}
	b.end += int64(len(b.pending))
	b.syncedAt = b.end
	if mark := b.markIfSynced(nil); len(mark) > 0 {
		return b.flush(mark)
	}
	return nil
}
