package rest

import (
	"errors"
	"testing"

	"github.com/tabletopdb/tabletop/core"
)

func TestDecodeCheckpoint(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		for _, c := range []core.Checkpoint{
			{},
			{Timestamp: core.MinDateTime, PartitionKey: "", RowKey: ""},
			{Store: core.Guid{1, 2, 3, 15: 0xff}, Timestamp: core.MaxDateTime, PartitionKey: "p\U0001F600", RowKey: "r 'x'"},
		} {
			got, err := decodeCheckpoint(encodeCheckpoint(c))
			if err != nil || got != c {
				t.Fatalf("round trip of %+v: %+v, %v", c, got, err)
			}
		}
	})
	t.Run("ErrCheckpointInvalid", func(t *testing.T) {
		for _, s := range []string{
			"!!",                           // not base64url
			"AA==",                         // padded
			"AQAAAAAA",                     // no store identity
			"AgAAAAAAAAAAAAAAAAAAAAABAA",   // an unknown version
			"AQAAAAAAAAAAAAAAAAAAAACA",     // a truncated Timestamp
			"AQAAAAAAAAAAAAAAAAAAAAAB",     // no key length
			"AQAAAAAAAAAAAAAAAAAAAAABBWFi", // a key length beyond the end
			encodeCheckpoint(core.Checkpoint{Timestamp: 1, PartitionKey: "p"}),            // before 1601
			encodeCheckpoint(core.Checkpoint{Timestamp: core.MinDateTime, RowKey: "a/b"}), // a key no entity has
			encodeCheckpoint(core.Checkpoint{Timestamp: core.MaxDateTime + 1}),
		} {
			if _, err := decodeCheckpoint(s); !errors.Is(err, ErrCheckpointInvalid) {
				t.Errorf("decode %q: err = %v, want ErrCheckpointInvalid", s, err)
			}
		}
	})
}

func FuzzDecodeCheckpoint(f *testing.F) {
	f.Add("")
	f.Add(encodeCheckpoint(core.Checkpoint{Timestamp: core.MinDateTime + 5, PartitionKey: "pk", RowKey: "rk"}))
	f.Fuzz(func(t *testing.T, s string) {
		c, err := decodeCheckpoint(s)
		if err != nil {
			return
		}
		again, err := decodeCheckpoint(encodeCheckpoint(c))
		if err != nil || again != c {
			t.Fatalf("%q decodes to %+v, which does not round-trip: %+v, %v", s, c, again, err)
		}
	})
}
