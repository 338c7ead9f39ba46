package rest

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
)

func TestDecodeCheckpoint(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		for _, c := range []core.Checkpoint{
			{},
			{Timestamp: model.MinDateTime, PartitionKey: "", RowKey: ""},
			{Store: model.Guid{1, 2, 3, 15: 0xff}, Timestamp: model.MaxDateTime, PartitionKey: "p\U0001F600", RowKey: "r 'x'"},
			{Store: model.Guid{7}, Timestamp: model.MinDateTime + 9, PartitionKey: "p", RowKey: "r", Synced: model.MaxDateTime},
			{Store: model.Guid{7}, Table: model.Guid{9, 15: 1}, Timestamp: model.MinDateTime + 9, PartitionKey: "p", RowKey: "r"},
		} {
			got, err := decodeCheckpoint(encodeCheckpoint(c))
			if err != nil || got != c {
				t.Fatalf("round trip of %+v: %+v, %v", c, got, err)
			}
		}
	})
	t.Run("OK/Version1", func(t *testing.T) {
		// A checkpoint of a server before Synced: version 1, without it.
		want := core.Checkpoint{Store: model.Guid{7}, Timestamp: model.MinDateTime, PartitionKey: "p", RowKey: "r"}
		b := append([]byte{1}, want.Store[:]...)
		b = binary.AppendUvarint(b, uint64(want.Timestamp))
		b = append(binary.AppendUvarint(b, 1), "pr"...)
		got, err := decodeCheckpoint(base64.RawURLEncoding.EncodeToString(b))
		if err != nil || got != want {
			t.Fatalf("decode = %+v, %v; want %+v", got, err, want)
		}
	})
	t.Run("OK/Version2", func(t *testing.T) {
		// A checkpoint of a server before table incarnations: version 2, without one.
		want := core.Checkpoint{Store: model.Guid{7}, Timestamp: model.MinDateTime, PartitionKey: "p", RowKey: "r", Synced: model.MinDateTime + 3}
		b := append([]byte{2}, want.Store[:]...)
		b = binary.AppendUvarint(b, uint64(want.Timestamp))
		b = binary.AppendUvarint(b, uint64(want.Synced))
		b = append(binary.AppendUvarint(b, 1), "pr"...)
		got, err := decodeCheckpoint(base64.RawURLEncoding.EncodeToString(b))
		if err != nil || got != want {
			t.Fatalf("decode = %+v, %v; want %+v", got, err, want)
		}
	})
	t.Run("ErrCheckpointInvalid", func(t *testing.T) {
		for _, s := range []string{
			"!!",                               // not base64url
			"AA==",                             // padded
			"AQAAAAAA",                         // no store identity
			"BAAAAAAAAAAAAAAAAAAAAAABAA",       // an unknown version
			"AwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", // a truncated table incarnation
			"AQAAAAAAAAAAAAAAAAAAAACA",         // a truncated Timestamp
			"AQAAAAAAAAAAAAAAAAAAAAAB",         // no key length
			"AQAAAAAAAAAAAAAAAAAAAAABBWFi",     // a key length beyond the end
			encodeCheckpoint(core.Checkpoint{Timestamp: 1, PartitionKey: "p"}),             // before 1601
			encodeCheckpoint(core.Checkpoint{Timestamp: model.MinDateTime, RowKey: "a/b"}), // a key no entity has
			encodeCheckpoint(core.Checkpoint{Timestamp: model.MaxDateTime + 1}),
			encodeCheckpoint(core.Checkpoint{Timestamp: model.MinDateTime, Synced: 1}),                     // Synced before 1601
			encodeCheckpoint(core.Checkpoint{Timestamp: model.MinDateTime, Synced: model.MaxDateTime + 1}), // Synced too late
			"AgAAAAAAAAAAAAAAAAAAAAAB", // no Synced
		} {
			if _, err := decodeCheckpoint(s); !errors.Is(err, ErrCheckpointInvalid) {
				t.Errorf("decode %q: err = %v, want ErrCheckpointInvalid", s, err)
			}
		}
	})
}

func FuzzDecodeCheckpoint(f *testing.F) {
	f.Add("")
	f.Add(encodeCheckpoint(core.Checkpoint{Timestamp: model.MinDateTime + 5, PartitionKey: "pk", RowKey: "rk"}))
	f.Add(encodeCheckpoint(core.Checkpoint{Timestamp: model.MinDateTime + 5, PartitionKey: "pk", RowKey: "rk", Synced: model.MinDateTime + 7}))
	f.Add("AQAAAAAAAAAAAAAAAAAAAAABAXBy") // the version 1 form, without Synced (its Timestamp before 1601)
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
