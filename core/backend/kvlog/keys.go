package kvlog

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

const (
	headKey   = "head"
	logPrefix = "log/"
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

func (h head) encode() []byte {
	return fmt.Appendf(nil, "%d %d %d %d", h.gen, h.chunks, h.nextSeq, h.firstSeq)
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

func snapPrefix(gen uint64) string { return fmt.Sprintf("snap/%016x/", gen) }

func chunkKey(gen uint64, chunk int) string { return fmt.Sprintf("%s%08x", snapPrefix(gen), chunk) }

func logKey(seq uint64) string { return fmt.Sprintf("%s%016x", logPrefix, seq) }

func parseSeq(key string) (uint64, bool) {
	n, err := strconv.ParseUint(strings.TrimPrefix(key, logPrefix), 16, 64)
	return n, err == nil
}
