package main

import (
	"bytes"
	"encoding/hex"
	"errors"
	"runtime"
	"strconv"

	"github.com/tabletopdb/tabletop/core"
)

// A partial store (opened "partial": core.Options.Partial) holds only the key ranges the
// web module has loaded into it. A call that needs a range that is not resident fails
// with a need answer instead of an error object (needJSON): the web module reads the pages
// covering the range from IndexedDB, hands them to loadRange with the log after them, and
// repeats the call. A call that needed a range changed nothing and left no records.

// needJSON is the answer of a call that needs a key range: {"need":[lo, hi]}, the range's
// bounds in hex (a bound may be "ff", the end of the key space, which is not UTF-8).
func needJSON(n *core.NeedRangeError) []byte {
	b := append([]byte(`{"need":["`), hex.EncodeToString([]byte(n.Lo))...)
	b = append(append(b, `","`...), hex.EncodeToString([]byte(n.Hi))...)
	return append(b, `"]}`...)
}

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
// them. It answers nothing.
func (s *store) evictRange(args [][]byte) ([]byte, error) {
	if len(args) < 2 {
		return nil, ErrRangeInvalid
	}
	return nil, s.db.EvictRange(string(args[0]), string(args[1]))
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
