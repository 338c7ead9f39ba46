package kvlog

import (
	"fmt"
	"math"
	"testing"
)

// TestKeys_Format holds the keys and the head to the bytes fmt wrote before they were
// written with strconv: a store written by earlier code must still open.
func TestKeys_Format(t *testing.T) {
	values := []uint64{0, 1, 9, 10, 15, 16, 255, 0xabcdef, 1 << 32, math.MaxInt64, math.MaxUint64}
	t.Run("OK", func(t *testing.T) {
		for _, v := range values {
			if got, want := logKey(v), fmt.Sprintf("log/%016x", v); got != want {
				t.Errorf("logKey(%d) = %q, want %q", v, got, want)
			}
			if got, want := snapPrefix(v), fmt.Sprintf("snap/%016x/", v); got != want {
				t.Errorf("snapPrefix(%d) = %q, want %q", v, got, want)
			}
			c := int(v % (1 << 40))
			if got, want := chunkKey(v, c), fmt.Sprintf("snap/%016x/%08x", v, c); got != want {
				t.Errorf("chunkKey(%d, %d) = %q, want %q", v, c, got, want)
			}
			h := head{gen: v, chunks: c, nextSeq: v, firstSeq: v / 2}
			if got, want := string(h.encode()), fmt.Sprintf("%d %d %d %d", h.gen, h.chunks, h.nextSeq, h.firstSeq); got != want {
				t.Errorf("head %+v encodes as %q, want %q", h, got, want)
			}
		}
	})
	t.Run("Golden", func(t *testing.T) {
		for got, want := range map[string]string{
			logKey(0x2a):                                  "log/000000000000002a",
			chunkKey(3, 0):                                "snap/0000000000000003/00000000",
			string(head{7, 1, 300, 299}.encode()):         "7 1 300 299",
			string(head{0, 0, 0, 0}.encode()):             "0 0 0 0",
			logKey(math.MaxUint64):                        "log/ffffffffffffffff",
			chunkKey(1, 1<<33):                            "snap/0000000000000001/200000000",
			string(head{1, 0, 1 << 40, 1 << 40}.encode()): "1 0 1099511627776 1099511627776",
		} {
			if got != want {
				t.Errorf("got %q, want %q", got, want)
			}
		}
	})
}

// FuzzKeys compares the keys and the head with fmt's on any value.
func FuzzKeys(f *testing.F) {
	f.Add(uint64(0), uint64(0), uint32(0))
	f.Add(uint64(math.MaxUint64), uint64(1<<20), uint32(math.MaxUint32))
	f.Fuzz(func(t *testing.T, gen, seq uint64, chunk uint32) {
		if got, want := logKey(seq), fmt.Sprintf("log/%016x", seq); got != want {
			t.Fatalf("logKey(%d) = %q, want %q", seq, got, want)
		}
		if got, want := chunkKey(gen, int(chunk)), fmt.Sprintf("snap/%016x/%08x", gen, chunk); got != want {
			t.Fatalf("chunkKey(%d, %d) = %q, want %q", gen, chunk, got, want)
		}
		h := head{gen: gen, chunks: int(chunk), nextSeq: seq, firstSeq: seq / 3}
		if got, want := string(h.encode()), fmt.Sprintf("%d %d %d %d", gen, chunk, seq, seq/3); got != want {
			t.Fatalf("head encodes as %q, want %q", got, want)
		}
		if back, err := parseHead(h.encode()); err != nil || back != h {
			t.Fatalf("parseHead(%q) = %+v, %v; want %+v", h.encode(), back, err, h)
		}
	})
}
