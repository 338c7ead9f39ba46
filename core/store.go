package core

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tidwall/buntdb"
)

// Options configure a Store.
type Options struct {
	// Backend keeps committed change sets durable. Nil keeps the store in memory only.
	Backend Backend
	// Now is the wall clock Timestamps are taken from; nil means time.Now. Timestamps
	// strictly increase whatever Now returns.
	Now func() time.Time
	// CompactAfter is how many bytes of change sets may accumulate in the backend, beyond
	// the size of the last snapshot, before the store writes a new snapshot. Zero means
	// 4 MiB.
	CompactAfter int64
	// DeletionRetention is how long the records of deleted entities and tables are kept
	// for the change feed (see Tx.Changes); zero keeps none, and every checkpoint but the
	// start of the feed is then expired.
	DeletionRetention time.Duration
	// Indexes are secondary indexes the store keeps on every table they name: declared
	// on the tables that exist as the store opens, and on each such table as it is
	// created (see Tx.CreateIndex).
	Indexes []IndexSpec
	// Partial opens the store with no key range resident: its host keeps the records
	// elsewhere (pages of the key space) and loads the ranges a call needs with LoadRange
	// when the call fails with ErrNeedRange. Memory then follows the ranges loaded. A
	// partial store takes no Indexes option (declare them with Tx.CreateIndex) and never
	// compacts by itself: its host writes pages (SaveRange); Compact writes a whole
	// snapshot only once every range is resident.
	Partial bool
	// ScanImageBytes is the most memory the store's scan images may take together: a
	// read-optimised copy of a table's entities, built once the table has been scanned a
	// few times with no write between, read by the scans that follow and patched by the
	// writes to the table (dropped past a few score of them). Zero means
	// DefaultScanImageBytes; a negative value, or a Partial store, keeps none. The
	// store's point maps (hash maps of a table's entities for point reads, see Tx.Get)
	// may take as much again, on the same terms.
	ScanImageBytes int
	// NoChangeFeed keeps the store's entities out of the index that orders them by
	// Timestamp for the change feed: Changes then fails with ErrNoChangeFeed, and every
	// write, and every record a partial store loads, updates one index fewer. For a host
	// that never reads the store's own feed (the browser's stores, which sync against a
	// server's).
	NoChangeFeed bool
	// Hooks, if set, are called in the transactions of the application's writes, so that
	// a host keeps records of its own in step with them (the browser's sync replica:
	// core/replica). Nil runs no host code on a write.
	Hooks Hooks
}

// Store is one account's tables and entities: an ordered buntdb index in memory, kept
// durable by a Backend. A Store is safe for concurrent use; writes are serialized, reads
// run in parallel with each other.
type Store struct {
	db       *buntdb.DB
	opts     Options
	resident *resident // the key ranges a partial store holds; nil: every range
	backend  Backend
	group    GroupCommitter // backend, if it commits in groups
	images   *images        // the scan images; nil: none
	points   *points        // the point maps; nil: none
	loads    atomic.Uint64  // odd while loadCommands loads outside a transaction; stamps maps and images

	commitMu   sync.Mutex            // serializes commits with compaction and Close
	clock      model.DateTime        // the last Timestamp issued; guarded by buntdb's write lock
	hasID      bool                  // the store's identity is known to be stored; guarded likewise
	facts      map[string]tableFacts // what writes know of each table, by name as given (see useTable); guarded by commitMu
	logBytes   int64                 // change-set bytes in the backend since the last snapshot
	snapBytes  int64                 // size of the last snapshot
	compactErr error                 // the last automatic compaction's failure, if any
	compactAt  int64                 // after a failed compaction, the logBytes at which to try again
	syncErr    error                 // a failure the backend could not recover from: no write is accepted after it
	syncing    sync.WaitGroup        // commits written and waiting for their sync
	unsynced   []unsyncedCommit      // commits not yet known durable, oldest first (see rollback.go); guarded by commitMu
	durable    atomic.Uint64         // the last change set known durable, with a GroupCommitter
	notify     notifier              // the waiters for the next durable write (see Changed)
}

// Open opens a store, restoring its state from opts.Backend if one is given.
func Open(opts Options) (*Store, error) {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.CompactAfter == 0 {
		opts.CompactAfter = 4 << 20
	}
	if opts.Partial && len(opts.Indexes) > 0 {
		return nil, ErrPartialIndexes
	}
	db, err := buntdb.Open(":memory:")
	if err != nil {
		return nil, err
	}
	if err := createIndexes(db, !opts.NoChangeFeed); err != nil {
		db.Close()
		return nil, err
	}
	s := &Store{db: db, opts: opts, backend: opts.Backend}
	if opts.Partial {
		s.resident = &resident{deferred: map[string][]byte{}}
	} else {
		s.images = newImages(opts.ScanImageBytes, &s.loads)
		s.points = newPoints(opts.ScanImageBytes, &s.loads)
	}
	s.group, _ = opts.Backend.(GroupCommitter)
	if s.backend != nil {
		if err := s.load(); err != nil {
			db.Close()
			return nil, err
		}
	}
	if err := s.openIndexes(); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// openIndexes builds the indexes declared in what was loaded and declares the configured
// ones. Only what a store needs runs: an empty store has no declarations to read, and a
// store without Indexes none to declare (at the edge, each function first run as an
// object starts is compiled then, before its first request is served).
func (s *Store) openIndexes() error {
	if s.snapBytes+s.logBytes > 0 {
		if err := s.restoreIndexes(); err != nil {
			return fmt.Errorf("restore indexes: %w", err)
		}
	}
	if len(s.opts.Indexes) > 0 {
		if err := s.ensureIndexes(); err != nil {
			return fmt.Errorf("declare indexes: %w", err)
		}
	}
	return nil
}

// load replays the backend into the empty index and restores the clock. A partial store
// keeps a snapshot the backend hands it whole (every range is then resident) and defers
// the log's commands for the keys that are not, for LoadRange, as ApplyChangeSet does: a
// backend that loads key ranges on demand (kvlog's Partial) hands no snapshot.
func (s *Store) load() error {
	err := s.backend.Load(
		func(r io.Reader) error {
			cr := &countingReader{r: r}
			err := s.db.Load(cr)
			s.snapBytes = cr.n
			if s.resident != nil {
				s.resident.add("", KeySpaceEnd)
			}
			return err
		},
		func(cs []byte) error {
			s.logBytes += int64(len(cs))
			cmds, err := s.residentCommands(cs)
			if err != nil {
				return err
			}
			return s.db.Load(bytesReader(cmds))
		})
	if err != nil {
		return fmt.Errorf("load store: %w", err)
	}
	return s.db.View(func(btx *buntdb.Tx) error {
		v, err := btx.Get(clockKey)
		if err == nil {
			s.clock = decodeClock(v)
		}
		return nil
	})
}

// Close closes the store and its backend, once every commit waiting for its sync has it.
func (s *Store) Close() error {
	s.commitMu.Lock()
	defer s.commitMu.Unlock()
	s.syncing.Wait()
	s.points.close()
	err := s.db.Close()
	if errors.Is(err, buntdb.ErrDatabaseClosed) {
		return ErrStoreClosed
	}
	if s.backend != nil {
		err = errors.Join(err, s.backend.Close())
	}
	return err
}

// View runs fn in a read-only transaction over a consistent view of the store.
func (s *Store) View(fn func(tx *Tx) error) error {
	return mapClosed(s.db.View(func(btx *buntdb.Tx) error {
		return fn(&Tx{store: s, btx: btx})
	}))
}

// Update runs fn in a read-write transaction. If fn returns nil the transaction's changes
// are committed, handed to the backend and made durable before Update returns; if fn
// returns an error, or the backend fails to take the change set, nothing of it is applied.
//
// With a GroupCommitter backend the write lock is held only while the change set is
// written; Update then waits for the sync outside it, sharing it with the commits that
// wait at the same time, and readers go on meanwhile. Readers may so see a write whose
// Update has not returned yet: it is committed and in the log, but until its sync is done
// it is not acknowledged, and a machine crash before then loses it. If that sync fails,
// Update reports the failure, and the store undoes every write not durable and goes on
// from what is (see rollback.go). A backend that reserves room for a change set before
// taking it (the file backend on Linux) fails a write for a full disk before it is
// applied, so that no reader ever sees it.
func (s *Store) Update(fn func(tx *Tx) error) error {
	seq, wrote, compact, err := s.commit(fn)
	if err != nil {
		return mapClosed(err)
	}
	if seq != 0 {
		err = s.group.Sync(seq)
		if err == nil {
			s.noteDurable(seq)
		}
		s.syncing.Done()
		if err != nil {
			s.commitMu.Lock()
			s.recoverLocked()
			s.commitMu.Unlock()
			return fmt.Errorf("sync change set: %w", err)
		}
	}
	if wrote {
		s.noteWrite()
	}
	if compact {
		s.commitMu.Lock()
		defer s.commitMu.Unlock()
		s.syncing.Wait() // the backend compacts with no commit in flight
		if s.compactionDue() && s.syncErr == nil {
			// The write is committed and durable in the log whatever happens here; a failed
			// compaction leaves the log as it was and is tried again once the log has grown
			// by CompactAfter more (a full disk would fail it after every commit).
			if s.compactErr = s.compact(); s.compactErr != nil {
				s.compactAt = s.logBytes + s.opts.CompactAfter
			}
		}
	}
	return nil
}

// patchDerived applies a committing transaction's writes to the scan images and point
// maps of the tables it wrote, still under buntdb's write lock.
func (s *Store) patchDerived(tx *Tx) {
	s.images.patch(tx.patches)
	s.points.patch(tx.pointWrites)
}

// commit applies fn's transaction and hands its change set to the backend under the write
// lock. It returns the change set's sequence number when a group sync is still to wait
// for, whether the transaction wrote anything, and whether the log has outgrown the
// snapshot.
func (s *Store) commit(fn func(tx *Tx) error) (seq uint64, wrote, compact bool, err error) {
	tx := &Tx{store: s, writable: true, logging: s.backend != nil, undoing: s.group != nil} // allocated before the lock is taken
	appendFailed := false
	s.commitMu.Lock()
	defer s.commitMu.Unlock()
	if s.syncErr != nil {
		return 0, false, false, fmt.Errorf("write after a failure to recover from: %w", s.syncErr)
	}
	err = s.db.Update(func(btx *buntdb.Tx) error {
		tx.btx = btx
		if err := fn(tx); err != nil {
			return err
		}
		if len(tx.log) == 0 {
			s.patchDerived(tx) // committed: buntdb's in-memory commit cannot fail
			return nil
		}
		if s.group != nil {
			seq, err = s.group.Write(tx.log)
		} else {
			err = s.backend.Append(tx.log)
		}
		if err != nil {
			appendFailed = true
			return fmt.Errorf("append change set: %w", err)
		}
		if seq != 0 {
			s.keepUndo(seq, tx)
		}
		s.logBytes += int64(len(tx.log))
		s.patchDerived(tx)
		return nil
	})
	if err != nil {
		if appendFailed && s.group != nil {
			s.recoverLocked() // a failed Write may have left the backend failed
		}
		return 0, false, false, err
	}
	if seq != 0 {
		s.syncing.Add(1)
	}
	return seq, tx.dirty, s.backend != nil && s.compactionDue(), nil
}

// compactionDue reports whether the log has outgrown the snapshot enough to compact;
// commitMu is held. A partial store is never due: its host compacts it by pages
// (SaveRange), and a whole snapshot would be written only to be thrown away.
func (s *Store) compactionDue() bool {
	return s.resident == nil && s.logBytes > max(s.snapBytes+s.opts.CompactAfter, s.compactAt)
}

// CompactError returns the error of the last automatic compaction, nil once one succeeds.
// Writes do not fail when compaction does: their change sets are already in the log.
func (s *Store) CompactError() error {
	s.commitMu.Lock()
	defer s.commitMu.Unlock()
	return s.compactErr
}

// compact writes a snapshot of the whole store to the backend; commitMu is held.
func (s *Store) compact() error {
	if err := s.need("", KeySpaceEnd); err != nil {
		return err // a partial store compacts by pages (SaveRange)
	}
	var n int64
	err := s.backend.Compact(func(w io.Writer) error {
		cw := &countingWriter{w: w}
		err := s.db.Save(cw)
		n = cw.n
		return err
	})
	if err != nil {
		return fmt.Errorf("compact store: %w", err)
	}
	s.snapBytes, s.logBytes, s.compactAt = n, 0, 0
	return nil
}

// Compact writes a snapshot of the whole store to the backend now, replacing its log.
func (s *Store) Compact() error {
	if s.backend == nil {
		return nil
	}
	s.commitMu.Lock()
	defer s.commitMu.Unlock()
	s.syncing.Wait()
	return s.compact()
}

// Snapshot writes the whole store to w in the snapshot format a Backend stores. A partial
// store writes one only once every key range is resident, else it fails with
// ErrNeedRange.
func (s *Store) Snapshot(w io.Writer) error {
	if err := s.need("", KeySpaceEnd); err != nil {
		return err
	}
	return mapClosed(s.db.Save(w))
}

// nextTimestamp issues a Timestamp later than every one issued before. Call it only under
// buntdb's write lock.
func (s *Store) nextTimestamp() model.DateTime {
	now := max(model.DateTimeOf(s.opts.Now()), model.MinDateTime)
	if now <= s.clock {
		now = s.clock + 1
	}
	s.clock = now
	return now
}

func mapClosed(err error) error {
	if errors.Is(err, buntdb.ErrDatabaseClosed) {
		return ErrStoreClosed
	}
	return err
}
