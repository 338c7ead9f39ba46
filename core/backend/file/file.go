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

// Backend is a core.Backend in a directory.
type Backend struct {
	dir  string
	opts Options
	lock io.Closer

	mu    sync.Mutex // guards log against the background syncer
	log   *os.File
	dirty bool
	stop  chan struct{}
	done  chan struct{}
}

var _ core.Backend = (*Backend)(nil)

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

// Append writes one framed change set and syncs it under SyncAlways.
func (b *Backend) Append(cs []byte) error {
	rec := make([]byte, 8, 8+len(cs))
	binary.LittleEndian.PutUint32(rec[:4], uint32(len(cs)))
	binary.LittleEndian.PutUint32(rec[4:], crc32.Checksum(cs, crcTable))
	rec = append(rec, cs...)
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, err := b.log.Write(rec); err != nil {
		return fmt.Errorf("write log: %w", err)
	}
	if b.opts.Sync == SyncAlways {
		return b.log.Sync()
	}
	b.dirty = true
	return nil
}

// Compact writes a new snapshot and empties the log.
func (b *Backend) Compact(save func(w io.Writer) error) error {
	if err := b.writeSnapshot(save); err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.log.Truncate(0); err != nil {
		return fmt.Errorf("truncate log: %w", err)
	}
	if _, err := b.log.Seek(0, io.SeekStart); err != nil {
		return err
	}
	return b.log.Sync()
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
			if b.dirty {
				b.log.Sync()
				b.dirty = false
			}
			b.mu.Unlock()
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
	return errors.Join(b.log.Sync(), b.log.Close(), b.lock.Close())
}
