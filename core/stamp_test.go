package core

import (
	"encoding/binary"
	"github.com/tabletopdb/tabletop/core/model"
	"math/rand/v2"
	"testing"
	"time"
)

// TestStampOf holds stampOf, which reads the uvarint in place, to binary.Uvarint's
// reading of the record's head: valid Timestamps, truncated, overlong and overflowing
// uvarints, and records too short.
func TestStampOf(t *testing.T) {
	want := func(v string) model.DateTime {
		if len(v) < 2 {
			return 0
		}
		b := []byte(v[1:])
		ts, _ := binary.Uvarint(b[:min(len(b), binary.MaxVarintLen64)])
		return model.DateTime(ts)
	}
	t.Run("OK", func(t *testing.T) {
		for _, ts := range []model.DateTime{0, 1, 127, 128, model.MinDateTime, model.DateTimeOf(time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)), 1<<63 - 1, -1} {
			v := encodeStamp(ts) + "rest of the record"
			if got := stampOf(v); got != ts || got != want(v) {
				t.Errorf("stampOf(encodeStamp(%d)) = %d, binary.Uvarint %d", ts, got, want(v))
			}
		}
	})
	t.Run("OK_NineBytes", func(t *testing.T) {
		// every Timestamp a store issues takes nine bytes: each bit of them, alone and all
		// but one, and random ones
		r := rand.New(rand.NewPCG(1, 2))
		var stamps []model.DateTime
		for bit := 56; bit < 63; bit++ {
			stamps = append(stamps, 1<<bit, 1<<63-1-(1<<(bit-56)))
		}
		for bit := range 56 {
			stamps = append(stamps, 1<<56|1<<bit, 1<<63-1-(1<<bit))
		}
		for range 1000 {
			stamps = append(stamps, model.DateTime(1<<56+r.Int64N(1<<63-1<<56)))
		}
		for _, ts := range stamps {
			v := encodeStamp(ts)
			if len(v) != 10 {
				t.Fatalf("encodeStamp(%d) takes %d bytes, want 10", ts, len(v))
			}
			if got := stampOf(v + "x"); got != ts || got != want(v) {
				t.Errorf("stampOf(encodeStamp(%d)) = %d, binary.Uvarint %d", ts, got, want(v))
			}
		}
	})
	t.Run("Malformed", func(t *testing.T) {
		for _, v := range []string{"", "\x01", "\x01\x80", "\x01\xff\xff", "\x01\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01",
			"\x01\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02", "\x01\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x00",
			"\x01\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01", "\x01\x80\x80\x80\x80\x80\x80\x80\x7f\x80\x01",
			"\x01\xff\xff\xff\xff\xff\xff\xff\xff\x7f"} {
			if got := stampOf(v); got != want(v) {
				t.Errorf("stampOf(%q) = %d, binary.Uvarint %d", v, got, want(v))
			}
		}
	})
}

// FuzzStampOf compares stampOf with binary.Uvarint on any record.
func FuzzStampOf(f *testing.F) {
	f.Add(encodeStamp(model.DateTimeOf(time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC))))
	f.Add("\x01\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01")
	f.Fuzz(func(t *testing.T, v string) {
		var want model.DateTime
		if len(v) >= 2 {
			b := []byte(v[1:])
			ts, _ := binary.Uvarint(b[:min(len(b), binary.MaxVarintLen64)])
			want = model.DateTime(ts)
		}
		if got := stampOf(v); got != want {
			t.Fatalf("stampOf(%q) = %d, binary.Uvarint %d", v, got, want)
		}
	})
}

// BenchmarkStampOf reads the Timestamp of a stored record as the change feed's indexes
// compare them: a nine-byte uvarint.
func BenchmarkStampOf(b *testing.B) {
	v := encodeStamp(model.DateTimeOf(time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC))) + "rest of the record"
	var sum model.DateTime
	for b.Loop() {
		sum += stampOf(v)
	}
	if sum == 0 {
		b.Fatal("no Timestamp read")
	}
}
