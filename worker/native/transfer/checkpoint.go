package transfer

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"time"

	json "github.com/goccy/go-json"
)

// ErrCheckpointMismatch is returned when a checkpoint file belongs to another copy.
var ErrCheckpointMismatch = errors.New("checkpoint is of another copy")

// Checkpoint is how far a copy got: the tables written completely, the table being written
// and how many of its entities (in source order) are written, and a dump destination's
// length at that point. Saved to Path (when set) as JSON, replaced atomically.
type Checkpoint struct {
	Source      string   `json:"source"`
	Destination string   `json:"destination"`
	Done        []string `json:"done"`
	Table       string   `json:"table,omitempty"`
	Entities    int64    `json:"entities"`
	// PartitionKey and RowKey are the keys of the last of those entities, from which a
	// source read in key order (an endpoint) resumes without reading them again.
	PartitionKey string `json:"PartitionKey,omitempty"`
	RowKey       string `json:"RowKey,omitempty"`
	Offset       int64  `json:"offset"`

	path  string
	saved time.Time
}

// LoadCheckpoint reads the checkpoint at path for the copy from source to destination; a
// missing file is a fresh start.
func LoadCheckpoint(path, source, destination string) (*Checkpoint, error) {
	cp := &Checkpoint{Source: describe(source), Destination: describe(destination), path: path}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return cp, nil
	}
	if err != nil {
		return nil, err
	}
	var old Checkpoint
	if err := json.Unmarshal(data, &old); err != nil {
		return nil, fmt.Errorf("read checkpoint %s: %w", path, err)
	}
	if old.Source != cp.Source || old.Destination != cp.Destination {
		return nil, fmt.Errorf("%w: %s is of a copy from %s to %s", ErrCheckpointMismatch, path, old.Source, old.Destination)
	}
	old.path = path
	return &old, nil
}

// Resuming reports whether the checkpoint holds progress of an earlier run.
func (c *Checkpoint) Resuming() bool { return len(c.Done) > 0 || c.Table != "" }

// snapshot returns a copy of the checkpoint's progress.
func (c *Checkpoint) snapshot() Checkpoint {
	return Checkpoint{Done: slices.Clone(c.Done), Table: c.Table, Entities: c.Entities, Offset: c.Offset,
		PartitionKey: c.PartitionKey, RowKey: c.RowKey}
}

func (c *Checkpoint) isDone(table string) bool { return slices.Contains(c.Done, table) }

// advance records that window w is written, and saves at most every 200 ms (and at each
// table's end), after making the destination durable.
func (c *Checkpoint) advance(sink Sink, w window) error {
	if w.end {
		c.Done = append(c.Done, w.table)
		c.Table, c.Entities, c.PartitionKey, c.RowKey = "", 0, "", ""
	} else {
		last := w.entities[len(w.entities)-1]
		c.Table, c.Entities = w.table, w.first+int64(len(w.entities))-1
		c.PartitionKey, c.RowKey = last.PartitionKey, last.RowKey
	}
	if c.path == "" || (!w.end && time.Since(c.saved) < 200*time.Millisecond) {
		return nil
	}
	off, err := sink.Sync()
	if err != nil {
		return fmt.Errorf("sync destination: %w", err)
	}
	c.Offset = off
	return c.save()
}

// save writes the checkpoint to a temporary file and renames it over path.
func (c *Checkpoint) save() error {
	data, err := json.Marshal(c)
	if err != nil {
		return err
	}
	tmp := c.path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return fmt.Errorf("write checkpoint: %w", err)
	}
	c.saved = time.Now()
	return os.Rename(tmp, c.path)
}

// finish removes the checkpoint file of a copy that completed.
func (c *Checkpoint) finish() error {
	if c.path == "" {
		return nil
	}
	if err := os.Remove(c.path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}
