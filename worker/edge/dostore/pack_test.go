package dostore

import (
	"errors"
	"strings"
	"testing"
)

func TestUnpack(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		var p packed
		p.add("head", []byte("1 2 3 4"))
		p.add("log/0", nil)
		p.add("log/1", []byte{0, 1, 2})
		var got []string
		err := unpack(p.text.String(), p.data, func(k string, v []byte) error {
			got = append(got, k+"="+string(v))
			return nil
		})
		if err != nil || strings.Join(got, ",") != "head=1 2 3 4,log/0=,log/1=\x00\x01\x02" {
			t.Errorf("unpack = %q, %v", got, err)
		}
	})
	for _, c := range []struct{ text, data string }{
		{"k\t3\n", "ab"}, {"k\t1\n", "ab"}, {"k\n", ""}, {"k\t-1\n", ""}, {"k\tx\n", "x"},
	} {
		t.Run("ErrBadListing", func(t *testing.T) {
			err := unpack(c.text, []byte(c.data), func(string, []byte) error { return nil })
			if !errors.Is(err, ErrBadListing) {
				t.Errorf("unpack(%q, %q) = %v, want ErrBadListing", c.text, c.data, err)
			}
		})
	}
}

func TestCheckKey(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		for _, k := range []string{"head", "log/00000000000000ff", "snap/0000000000000001/00000000"} {
			if err := checkKey(k); err != nil {
				t.Errorf("checkKey(%q) = %v", k, err)
			}
		}
	})
	t.Run("ErrBadKey", func(t *testing.T) {
		for _, k := range []string{"", "a\tb", "a\nb", "a\x01b"} {
			if err := checkKey(k); !errors.Is(err, ErrBadKey) {
				t.Errorf("checkKey(%q) = %v", k, err)
			}
		}
	})
}

func FuzzUnpack(f *testing.F) {
	f.Add("head\t3\nlog/1\t0\n", []byte("abc"))
	f.Add("k\t99999999999999999999\n", []byte{})
	f.Fuzz(func(t *testing.T, text string, data []byte) {
		total := 0
		err := unpack(text, data, func(k string, v []byte) error {
			total += len(v)
			return nil
		})
		if err == nil && total != len(data) {
			t.Fatalf("unpack accepted %d of %d bytes", total, len(data))
		}
	})
}
