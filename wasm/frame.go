package main

import (
	"encoding/binary"
	"errors"

	"github.com/tabletopdb/tabletop/core/azerr"
	"github.com/tabletopdb/tabletop/core/backend/outbox"
)

// ErrFrameInvalid means a request frame is cut short or its lengths do not add up.
var ErrFrameInvalid = azerr.New(azerr.InvalidInput, "request frame is malformed")

// A request frame is what JavaScript writes into Go's memory for one call: a count of
// arguments, then each argument's length, then the arguments back to back, the counts and
// lengths as little-endian uint32:
//
//	argc | len[0] … len[argc-1] | arg[0] arg[1] …
//
// arg[0] names the operation and arg[1] is the store's handle in decimal ("" for open).
// Arguments are UTF-8 text or raw bytes (a snapshot, a change set).

// decodeRequest splits a request frame into its arguments, which alias req, in args'
// room (args may be nil), so that a call allocates no slice.
func decodeRequest(args [][]byte, req []byte) ([][]byte, error) {
	if len(req) < 4 {
		return nil, ErrFrameInvalid
	}
	n := int(binary.LittleEndian.Uint32(req))
	if n < 2 || n > (len(req)-4)/4 {
		return nil, ErrFrameInvalid
	}
	args = append(args[:0], make([][]byte, n)...)
	pos := 4 + 4*n
	for i := range args {
		l := int(binary.LittleEndian.Uint32(req[4+4*i:]))
		if l > len(req)-pos {
			return nil, ErrFrameInvalid
		}
		args[i] = req[pos : pos+l : pos+l]
		pos += l
	}
	if pos != len(req) {
		return nil, ErrFrameInvalid
	}
	return args, nil
}

// A result frame is what Go leaves in its memory for JavaScript to read: the answer (JSON
// text, or getEntity's binary entity, entity.go; the JSON error object of a failed call),
// then the outbox records of a write, each its kind byte, its length and its bytes:
//
//	jsonLen | json | count | (kind | len | data)…
//
// The records are what JavaScript must make durable before it acknowledges the write.

// appendResult appends a result frame to b.
func appendResult(b, json []byte, records []outbox.Record) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(json)))
	b = append(b, json...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(records)))
	for _, r := range records {
		b = append(b, byte(r.Kind))
		b = binary.LittleEndian.AppendUint32(b, uint32(len(r.Data)))
		b = append(b, r.Data...)
	}
	return b
}

// decodeResult reverses appendResult; tests use it.
func decodeResult(b []byte) (json []byte, records []outbox.Record, err error) {
	next := func(n int) ([]byte, bool) {
		if n > len(b) {
			return nil, false
		}
		p := b[:n]
		b = b[n:]
		return p, true
	}
	u32 := func() (int, bool) {
		p, ok := next(4)
		if !ok {
			return 0, false
		}
		return int(binary.LittleEndian.Uint32(p)), true
	}
	bad := errors.New("result frame is malformed")
	n, ok := u32()
	if json, ok = next(n); !ok {
		return nil, nil, bad
	}
	count, ok := u32()
	for i := 0; ok && i < count; i++ {
		var kind, data []byte
		kind, ok = next(1)
		if !ok {
			break
		}
		n, ok = u32()
		if data, ok = next(n); ok {
			records = append(records, outbox.Record{Kind: outbox.Kind(kind[0]), Data: data})
		}
	}
	if !ok || len(b) != 0 {
		return nil, nil, bad
	}
	return json, records, nil
}
