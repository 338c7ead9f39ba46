package object

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
)

// The internal operations that split a table between objects (see Internal): the
// account object asks the source object for a split key, fences it, pulls the upper span
// from it chunk by chunk with export, hands each chunk to the new object's import, and
// finally has the source evict the span. Arguments are fields joined by NUL, which no
// table name or key contains.

// ErrBadArgument means the glue gave an internal operation arguments it cannot read.
var ErrBadArgument = errors.New("bad internal operation argument")

// chunkBytes bounds the records one export call returns, so a chunk crosses the RPC
// between objects in one piece whatever the table's size.
const chunkBytes = 1 << 20

// fields splits an argument into n NUL-separated fields.
func fields(arg string, n int) ([]string, error) {
	f := strings.Split(arg, "\x00")
	if len(f) != n {
		return nil, fmt.Errorf("read %d fields of %q: %w", n, arg, ErrBadArgument)
	}
	return f, nil
}

// splitKey answers "table\0from\0to" with "count\0key": the entities of the span and a
// PartitionKey that halves them, "" when the span cannot be split.
func splitKey(s *core.Store, arg string) (string, error) {
	f, err := fields(arg, 3)
	if err != nil {
		return "", err
	}
	var key string
	var count int
	err = s.View(func(tx *core.Tx) (err error) {
		key, count, err = halfKey(tx, f[0], spanRange(f[1], f[2]))
		return err
	})
	return strconv.Itoa(count) + "\x00" + key, err
}

// spanRange is the key range of the PartitionKeys [from, to) of a table, the unit a
// table is split into; to "" means no upper bound. Keys hold no byte below 0x20, so
// PartitionStart(from) encloses exactly the partitions from and after.
func spanRange(from, to string) stored.KeyRange {
	r := stored.KeyRange{From: stored.PartitionStart(from), To: stored.TableEnd}
	if to != "" {
		r.To = stored.PartitionStart(to)
	}
	return r
}

// halfKey returns the number of entities of table in r and a PartitionKey that splits
// them about in half: the partition of the median entity, or the next partition when that
// is the range's first, so that both halves hold entities. It returns "" when r holds
// fewer than two partitions: a partition is never split.
func halfKey(tx *core.Tx, table string, r stored.KeyRange) (key string, count int, err error) {
	err = tx.ScanRecords(table, r, func(*stored.Record) bool { count++; return true })
	if err != nil || count < 2 {
		return "", count, err
	}
	first, i := "", 0
	err = tx.ScanRecords(table, r, func(rec *stored.Record) bool {
		if i == 0 {
			first = rec.PartitionKey
		}
		i++
		if i > count/2 && rec.PartitionKey != first {
			key = rec.PartitionKey
			return false
		}
		return true
	})
	return key, count, err
}

// exportChunk answers "table\0from\0to\0kind\0pk\0rk" (kind "" to start) with
// "kind\0pk\0rk\0chunk": the last record of the chunk to resume after (kind "" when the
// span is done) and the chunk of records, packed and base64-encoded.
func exportChunk(s *core.Store, arg string) (string, error) {
	f, err := fields(arg, 6)
	if err != nil {
		return "", err
	}
	var after *moved
	if f[3] != "" {
		after = &moved{kind: movedKind(f[3][0]), partitionKey: f[4], rowKey: f[5]}
	}
	var chunk []byte
	var last moved
	full := false
	err = s.View(func(tx *core.Tx) error {
		return exportRecords(tx, f[0], spanRange(f[1], f[2]), after, func(m moved) bool {
			chunk, last = packMoved(chunk, m), m
			full = len(chunk) >= chunkBytes
			return !full
		})
	})
	if err != nil {
		return "", err
	}
	kind := ""
	if full {
		kind = string(last.kind)
	}
	return kind + "\x00" + last.partitionKey + "\x00" + last.rowKey + "\x00" + base64.StdEncoding.EncodeToString(chunk), nil
}

// importChunk writes "table\0chunk", a chunk exportChunk made, into the store.
func importChunk(s *core.Store, arg string) error {
	f, err := fields(arg, 2)
	if err != nil {
		return err
	}
	raw, err := base64.StdEncoding.DecodeString(f[1])
	if err != nil {
		return fmt.Errorf("decode chunk: %w", ErrBadArgument)
	}
	recs, err := unpackMoved(raw)
	if err != nil {
		return err
	}
	return s.Update(func(tx *core.Tx) error { return importRecords(tx, f[0], recs) })
}

// evict answers "table\0from\0to" by removing the span from the store (it has moved).
func evict(s *core.Store, arg string) error {
	f, err := fields(arg, 3)
	if err != nil {
		return err
	}
	return s.Update(func(tx *core.Tx) error {
		_, err := evictRecords(tx, f[0], spanRange(f[1], f[2]))
		return err
	})
}

// feedState answers "table" with the state of the store's change feed of table (see
// core.FeedState) as "store\0clock\0horizon\0tableDeleted": the store's identity in
// base64, then Timestamps in ticks. The new object of a split adopts it with adoptFeed, so
// that the checkpoints this object issued resume there.
func feedState(s *core.Store, table string) (string, error) {
	var f core.FeedState
	if err := s.View(func(tx *core.Tx) (err error) { f, err = tx.FeedState(table); return err }); err != nil {
		return "", err
	}
	out := base64.StdEncoding.EncodeToString(f.Store[:])
	for _, ts := range []model.DateTime{f.Clock, f.Horizon, f.TableDeleted} {
		out += "\x00" + strconv.FormatInt(int64(ts), 10)
	}
	return out, nil
}

// adoptFeed makes the store continue the change feed "table\0state" that feedState gave.
func adoptFeed(s *core.Store, arg string) error {
	f, err := fields(arg, 5)
	if err != nil {
		return err
	}
	var state core.FeedState
	id, err := base64.StdEncoding.DecodeString(f[1])
	if err != nil || len(id) != len(state.Store) {
		return fmt.Errorf("decode feed state: %w", ErrBadArgument)
	}
	copy(state.Store[:], id)
	for i, ts := range []*model.DateTime{&state.Clock, &state.Horizon, &state.TableDeleted} {
		n, err := strconv.ParseInt(f[2+i], 10, 64)
		if err != nil || n < 0 || model.DateTime(n) > model.MaxDateTime {
			return fmt.Errorf("decode feed state: %w", ErrBadArgument)
		}
		*ts = model.DateTime(n)
	}
	return s.Update(func(tx *core.Tx) error { return tx.AdoptFeed(f[0], state) })
}

// forget removes the table from the store without recording a deletion.
func forget(s *core.Store, table string) error {
	return s.Update(func(tx *core.Tx) error { return forgetTable(tx, table) })
}

// packMoved appends m: its kind byte, then its keys and value, each length-prefixed.
func packMoved(b []byte, m moved) []byte {
	b = append(b, byte(m.kind))
	for _, s := range []string{m.partitionKey, m.rowKey, m.value} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return b
}

// unpackMoved reads the records packMoved wrote.
func unpackMoved(b []byte) ([]moved, error) {
	var out []moved
	for len(b) > 0 {
		m := moved{kind: movedKind(b[0])}
		b = b[1:]
		var parts [3]string
		for i := range parts {
			n, k := binary.Uvarint(b)
			if k <= 0 || uint64(len(b)-k) < n {
				return nil, fmt.Errorf("unpack record %d: %w", len(out), ErrBadArgument)
			}
			parts[i], b = string(b[k:k+int(n)]), b[k+int(n):]
		}
		m.partitionKey, m.rowKey, m.value = parts[0], parts[1], parts[2]
		out = append(out, m)
	}
	return out, nil
}

// count answers with the number of entities of table in the store.
func count(s *core.Store, table string) (string, error) {
	n := 0
	err := s.View(func(tx *core.Tx) error {
		return tx.ScanRecords(table, stored.WholeTable, func(*stored.Record) bool { n++; return true })
	})
	if errors.Is(err, core.ErrTableNotFound) {
		return "0", nil
	}
	return strconv.Itoa(n), err
}
