package core

import (
	"encoding/binary"
	"testing"
	"time"
)

// TestStampOf holds stampOf, which reads the uvarint in place, to binary.Uvarint's
// reading of the record's head: valid Timestamps, truncated, overlong and overflowing
// uvarints, and records too short.
func TestStampOf(t *testing.T) {
	want := func(v string) DateTime {
		if len(v) < 2 {
			return 0
		}
		b := []byte(v[1:])
		ts, _ := binary.Uvarint(b[:min(len(b), binary.MaxVarintLen64)])
		return DateTime(ts)
	}
	t.Run("OK", func(t *testing.T) {
		for _, ts := range []DateTime{0, 1, 127, 128, MinDateTime, DateTimeOf(time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)), 1<<63 - 1, -1} {
			v := encodeStamp(ts) + "rest of the record"
			if got := stampOf(v); got != ts || got != want(v) {
				t.Errorf("stampOf(encodeStamp(%d)) = %d, binary.Uvarint %d", ts, got, want(v))
			}
		}
	})
	t.Run("Malformed", func(t *testing.T) {
		for _, v := range []string{"", "\x01", "\x01\x80", "\x01\xff\xff", "\x01\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01",
			"\x01\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02", "\x01\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x00"} {
			if got := stampOf(v); got != want(v) {
				t.Errorf("stampOf(%q) = %d, binary.Uvarint %d", v, got, want(v))
			}
		}
	})
}

// FuzzStampOf compares stampOf with binary.Uvarint on any record.
func FuzzStampOf(f *testing.F) {
	f.Add(encodeStamp(DateTimeOf(time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC))))
	f.Add("\x01\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01")
	f.Fuzz(func(t *testing.T, v string) {
		var want DateTime
		if len(v) >= 2 {
			b := []byte(v[1:])
			ts, _ := binary.Uvarint(b[:min(len(b), binary.MaxVarintLen64)])
			want = DateTime(ts)
		}
		if got := stampOf(v); got != want {
			t.Fatalf("stampOf(%q) = %d, binary.Uvarint %d", v, got, want)
		}
	})
}
