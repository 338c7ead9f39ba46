package kvlog

import (
	"errors"
	"math/bits"
	"strconv"
	"strings"
)

const (
	headKey   = "head"
	logPrefix = "log/"
	dirKey    = "pages" // the directory of pages (see Partial)
)

// ErrHeadCorrupt means the head record could not be parsed.
var ErrHeadCorrupt = errors.New("head record is corrupt")

// head is the record that says which snapshot and which log keys are live.
type head struct {
	gen      uint64 // snapshot generation
	chunks   int    // chunks in that snapshot; 0 for none
	nextSeq  uint64 // sequence number of the next change set
	firstSeq uint64 // first change set after the snapshot
}

// encode writes h as "gen chunks nextSeq firstSeq" in decimal. Keys and the head are
// written with strconv, not fmt: the first write after a Durable Object starts would
// otherwise be the first use of fmt's printf machinery, and under lazy wasm compilation
// its first use costs its compilation.
func (h head) encode() []byte {
	b := make([]byte, 0, 48)
	b = strconv.AppendUint(b, h.gen, 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(h.chunks), 10)
	b = append(b, ' ')
	b = strconv.AppendUint(b, h.nextSeq, 10)
	b = append(b, ' ')
	return strconv.AppendUint(b, h.firstSeq, 10)
}

func parseHead(raw []byte) (head, error) {
	var h head
	if raw == nil {
		return h, nil
	}
	f := strings.Fields(string(raw))
	if len(f) != 4 {
		return h, ErrHeadCorrupt
	}
	var errs [4]error
	h.gen, errs[0] = strconv.ParseUint(f[0], 10, 64)
	h.chunks, errs[1] = strconv.Atoi(f[1])
	h.nextSeq, errs[2] = strconv.ParseUint(f[2], 10, 64)
	h.firstSeq, errs[3] = strconv.ParseUint(f[3], 10, 64)
	if errors.Join(errs[:]...) != nil || h.chunks < 0 || h.firstSeq > h.nextSeq {
		return head{}, ErrHeadCorrupt
	}
	return h, nil
}

// snapPrefix is "snap/{gen}/", gen in 16 hex digits: a snapshot written before pages.
func snapPrefix(gen uint64) string {
	return string(append(appendHex(append(make([]byte, 0, 22), "snap/"...), gen, 16), '/'))
}

// chunkKey is "snap/{gen}/{chunk}", chunk in 8 hex digits: a chunk of a snapshot written
// before pages, which Load still reads.
func chunkKey(gen uint64, chunk int) string {
	return string(appendHex([]byte(snapPrefix(gen)), uint64(chunk), 8))
}

// pageKey is "page/{id}", id in 16 hex digits.
func pageKey(id uint64) string {
	return string(appendHex(append(make([]byte, 0, 21), "page/"...), id, 16))
}

// logKey is "log/{seq}", seq in 16 hex digits.
func logKey(seq uint64) string {
	return string(appendHex(append(make([]byte, 0, 20), logPrefix...), seq, 16))
}

// appendHex appends v in lower-case hex, zero-padded to width digits (more if v needs
// them), as fmt's %0{width}x writes it.
func appendHex(b []byte, v uint64, width int) []byte {
	for n := max(1, (bits.Len64(v)+3)/4); n < width; n++ {
		b = append(b, '0')
	}
	return strconv.AppendUint(b, v, 16)
}

func parseSeq(key string) (uint64, bool) {
	n, err := strconv.ParseUint(strings.TrimPrefix(key, logPrefix), 16, 64)
	return n, err == nil
}
