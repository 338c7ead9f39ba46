package main

import (
	"bytes"
	"encoding/hex"
	"errors"
	"iter"
	"runtime"
	"strconv"

	"github.com/tabletopdb/tabletop/core"
)

// A partial store (opened "partial": core.Options.Partial) holds only the key ranges the
// web module has loaded into it. A call that needs a range that is not resident fails
// with a need answer instead of an error object (needJSON): the web module reads the pages
// covering the range from IndexedDB, hands them to loadRange with the log after them, and
// repeats the call. A call that needed a range changed nothing and left no records.

// needJSON is the answer of a call that needs a key range: {"need":[lo, hi, …]}, the
// range's bounds in hex (a bound may be "ff", the end of the key space, which is not
// UTF-8), then those of the further ranges it names (NeedRangeError.More), if any.
func needJSON(n *core.NeedRangeError) []byte {
	b := append([]byte(`{"need":["`), hex.EncodeToString([]byte(n.Lo))...)
	b = append(append(b, `","`...), hex.EncodeToString([]byte(n.Hi))...)
	for _, r := range n.More {
		b = append(append(b, `","`...), hex.EncodeToString([]byte(r[0]))...)
		b = append(append(b, `","`...), hex.EncodeToString([]byte(r[1]))...)
	}
	return append(b, `"]}`...)
}

// needsOf is need, the first range a bulk write (an import, a sync pull) found missing,
// with, in More, the missing range of the first key of each other partition among keys
// (each key with its RowKey, which ends it), at most maxNeeds ranges in all. Such a write
// goes through its keys in order and stops at the first one missing: without the others
// it would be repeated once per range, each time applying itself up to the next. A
// partition here is the run of keys of one kind of record (entity, deletion record, …)
// of one PartitionKey: the key less its RowKey.
func (s *store) needsOf(need *core.NeedRangeError, keys iter.Seq2[string, string]) *core.NeedRangeError {
	out := &core.NeedRangeError{Lo: need.Lo, Hi: need.Hi}
	asked := map[string]bool{} // the partitions with a range named
	for key, rk := range keys {
		partition := key[:len(key)-len(rk)]
		if len(out.More) >= maxNeeds-1 {
			break
		}
		if asked[partition] {
			continue
		}
		if need.Lo <= key && key < need.Hi {
			asked[partition] = true
		} else if lo, hi, ok := s.db.Missing(key, key+"\x00"); ok {
			out.More = append(out.More, [2]string{lo, hi})
			asked[partition] = true
		}
	}
	return out
}

// maxNeeds bounds the ranges one need answer names.
const maxNeeds = 32

// asNeed returns the NeedRangeError in err's chain, if there is one. A nil err returns
// first: errors.As would move n to the heap on every call, failed or not.
func asNeed(err error) (*core.NeedRangeError, bool) {
	if err == nil {
		return nil, false
	}
	var n *core.NeedRangeError
	return n, errors.As(err, &n)
}

// loadRange makes the key range [args[0], args[1]) resident (raw key bytes; "\xff" is the
// end of the key space) from args[2:]: the pages covering it, then the change sets
// committed after them up to this replica's, in order. It answers nothing.
func (s *store) loadRange(args [][]byte) ([]byte, error) {
	if len(args) < 2 {
		return nil, ErrRangeInvalid
	}
	return nil, s.db.LoadRange(string(args[0]), string(args[1]), args[2:]...)
}

// evictRange drops the key range [args[0], args[1]) from memory (core.Store.EvictRange):
// the web module keeps its records in IndexedDB and loads them again when a call needs
// them. With args[2], a number of records, it drops at most that many and answers the
// first key it kept, from which the rest of the range is still resident (the caller goes
// on from there in a later task); it answers nothing once the range is dropped.
func (s *store) evictRange(args [][]byte) ([]byte, error) {
	if len(args) < 2 {
		return nil, ErrRangeInvalid
	}
	rest, err := s.db.EvictRange(string(args[0]), string(args[1]), num(args, 2))
	return []byte(rest), err
}

// heapBytes answers the bytes of the engine's live heap after a garbage collection: what
// its memory holds, as the web module's tests of cacheBytes measure it (a wasm memory
// never shrinks, so its size tells only the most ever held).
func (s *store) heapBytes([][]byte) ([]byte, error) {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return strconv.AppendUint(nil, m.HeapAlloc, 10), nil
}

// saveRange answers the records of the key range [args[0], args[1]) as buntdb commands in
// key order: the page IndexedDB keeps for that range. The range must be resident. With
// args[2], a number of bytes, it stops after the record that reaches it: the caller goes
// on from just after the last key answered, so no call copies a large range at once.
func (s *store) saveRange(args [][]byte) ([]byte, error) {
	if len(args) < 2 {
		return nil, ErrRangeInvalid
	}
	buf := &mostWriter{buf: bytes.NewBuffer(s.scratch), most: num(args, 2)}
	err := s.db.SaveRange(string(args[0]), string(args[1]), buf)
	if err != nil && !errors.Is(err, errEnough) {
		return nil, err
	}
	return buf.buf.Bytes(), nil
}

// errEnough stops a SaveRange once its writer has taken as many bytes as it was asked for.
var errEnough = errors.New("enough bytes saved")

// mostWriter takes writes until it holds most bytes (0: no limit), then refuses the next.
type mostWriter struct {
	buf  *bytes.Buffer
	most int
}

func (w *mostWriter) Write(p []byte) (int, error) {
	if w.most > 0 && w.buf.Len() >= w.most {
		return 0, errEnough
	}
	return w.buf.Write(p)
}
