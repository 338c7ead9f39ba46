package core

import (
	"errors"
	"fmt"
	"sort"
	"sync"
)

// KeySpaceEnd is above every buntdb key of a store: keys are valid UTF-8, which never
// holds the byte 0xFF. [Lo, KeySpaceEnd) runs to the end of the key space.
const KeySpaceEnd = "\xff"

// ErrNeedRange means a call would read or write a key range of a partial store
// (Options.Partial) that is not resident yet. The error is a *NeedRangeError naming the
// range; load it with Store.LoadRange and repeat the call. Nothing was changed.
var ErrNeedRange = errors.New("key range is not resident")

// NeedRangeError is ErrNeedRange for the key range [Lo, Hi) of the store's key space: the
// first range the call needs that is not resident.
type NeedRangeError struct {
	Lo, Hi string
	// More lists further ranges, [lo, hi) each, that the call needs too, when its host can
	// tell them at once (a bulk write knows every key it writes): loading them together
	// with the first saves the call one attempt per range.
	More [][2]string
}

// Error describes the range.
func (e *NeedRangeError) Error() string {
	return fmt.Sprintf("need key range [%q, %q): %v", e.Lo, e.Hi, ErrNeedRange)
}

// Unwrap makes a NeedRangeError an ErrNeedRange for errors.Is.
func (e *NeedRangeError) Unwrap() error { return ErrNeedRange }

// resident is the set of key ranges a partial store holds: sorted, disjoint, non-adjacent
// half-open ranges [b[0], b[1]), [b[2], b[3]), … Reads check it from any goroutine; ranges
// are added by LoadRange and removed by EvictRange.
type resident struct {
	mu sync.RWMutex
	b  []string
	// deferred holds, for each key that is not resident, the last command of the change
	// sets applied since the store opened (ApplyChangeSet), for LoadRange to apply after
	// the key's page. Guarded by the store's commitMu.
	deferred map[string][]byte
}

// missing returns the first part [lo, hi) of [from, to) that is not resident, and
// whether there is one.
func (r *resident) missing(from, to string) (lo, hi string, ok bool) {
	if from >= to {
		return "", "", false
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	// i is the first bound above from: inside a range when odd, in a gap when even.
	i := sort.Search(len(r.b), func(i int) bool { return r.b[i] > from })
	if i%2 == 1 {
		from = r.b[i] // the end of the range holding from
		if from >= to {
			return "", "", false
		}
		i++
	}
	hi = to
	if i < len(r.b) && r.b[i] < to {
		hi = r.b[i]
	}
	return from, hi, true
}

// add makes [lo, hi) resident, merging it with the ranges it overlaps or touches.
func (r *resident) add(lo, hi string) {
	if lo >= hi {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	i := sort.Search(len(r.b), func(i int) bool { return r.b[i] >= lo }) // first bound at or above lo
	j := sort.Search(len(r.b), func(i int) bool { return r.b[i] > hi })  // first bound above hi
	var mid []string
	if i%2 == 0 {
		mid = append(mid, lo) // lo starts a new range, else it extends the range it is in
	}
	if j%2 == 0 {
		mid = append(mid, hi)
	}
	r.b = append(r.b[:i], append(mid, r.b[j:]...)...)
}

// remove makes [lo, hi) not resident, cutting the ranges it overlaps.
func (r *resident) remove(lo, hi string) {
	if lo >= hi {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	i := sort.Search(len(r.b), func(i int) bool { return r.b[i] >= lo }) // bounds below lo
	j := sort.Search(len(r.b), func(i int) bool { return r.b[i] > hi })  // bounds at or below hi
	var mid []string
	if i%2 == 1 {
		mid = append(mid, lo) // lo was inside a range, which now ends there
	}
	if j%2 == 1 {
		mid = append(mid, hi) // hi was inside a range, which now starts there
	}
	r.b = append(r.b[:i], append(mid, r.b[j:]...)...)
}

// contains reports whether key is resident.
func (r *resident) contains(key string) bool {
	_, _, ok := r.missing(key, key+"\x00")
	return !ok
}

// Missing returns the first part [mlo, mhi) of the key range [lo, hi) that a partial store
// does not hold, and whether there is one; a store that is not partial holds every range.
func (s *Store) Missing(lo, hi string) (mlo, mhi string, ok bool) {
	if s.resident == nil {
		return "", "", false
	}
	return s.resident.missing(lo, hi)
}

// need returns a *NeedRangeError for the first part of [from, to) that is not resident,
// nil when all of it is or the store is not partial.
func (s *Store) need(from, to string) error {
	if s.resident == nil {
		return nil
	}
	if lo, hi, ok := s.resident.missing(from, to); ok {
		return &NeedRangeError{Lo: lo, Hi: hi}
	}
	return nil
}

// needKey is need for the one key (with no allocation when the store is not partial).
func (s *Store) needKey(key string) error {
	if s.resident == nil {
		return nil
	}
	return s.need(key, key+"\x00")
}
