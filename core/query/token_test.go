package query

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"
)

func TestDecodeContinuation(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		for _, k := range [][2]string{{"", ""}, {"p", "r"}, {"é 1", "x'y"}, {strings.Repeat("k", 512), strings.Repeat("ü", 512)}} {
			a, b := EncodeContinuation(k[0], k[1])
			if a == "" || b == "" || strings.ContainsAny(a+b, "+/=%& ") {
				t.Fatalf("tokens %q %q are not URL-safe and non-empty", a, b)
			}
			pk, rk, ok, err := DecodeContinuation(a, b)
			if err != nil || !ok || pk != k[0] || rk != k[1] {
				t.Fatalf("round trip of %q = %q %q %v %v", k, pk, rk, ok, err)
			}
		}
		if _, _, ok, err := DecodeContinuation("", ""); ok || err != nil {
			t.Fatalf("empty tokens: ok %v, err %v", ok, err)
		}
	})
	t.Run("ErrTokenInvalid", func(t *testing.T) {
		a, b := EncodeContinuation("p", "r")
		raw := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
		tests := [][2]string{
			{a, ""}, {"", b}, {b, a}, {"p", "r"}, {a + "=", b}, {a, b + "x"}, {"!!", b},
			{raw("\x02Pp"), b}, {raw("\x01P"), raw("\x01")}, {raw("\x01Pa/b"), b}, {raw("\x01Pa\x01"), b},
			{raw("\x01P\xff"), b}, {raw("\x01P" + strings.Repeat("k", 513)), b}, {strings.Repeat("A", 5000), b},
			{base64.StdEncoding.EncodeToString([]byte("\x01Pab")), b}, {a[:2] + "\r\n" + a[2:], b},
		}
		for _, tt := range tests {
			if _, _, _, err := DecodeContinuation(tt[0], tt[1]); !errors.Is(err, ErrTokenInvalid) {
				t.Fatalf("DecodeContinuation(%q, %q) = %v, want ErrTokenInvalid", tt[0], tt[1], err)
			}
		}
	})
}

func TestDecodeTableToken(t *testing.T) {
	tok := EncodeTableToken("Orders2024")
	if name, ok, err := DecodeTableToken(tok); err != nil || !ok || name != "Orders2024" {
		t.Fatalf("round trip = %q %v %v", name, ok, err)
	}
	if _, ok, err := DecodeTableToken(""); ok || err != nil {
		t.Fatalf("empty token: %v %v", ok, err)
	}
	a, _ := EncodeContinuation("Orders2024", "")
	for _, bad := range []string{"Orders2024", a, EncodeTableToken("9lives"), EncodeTableToken("")} {
		if _, _, err := DecodeTableToken(bad); !errors.Is(err, ErrTokenInvalid) {
			t.Fatalf("DecodeTableToken(%q) = %v, want ErrTokenInvalid", bad, err)
		}
	}
}

func TestParseTop(t *testing.T) {
	for s, want := range map[string]int{"": 0, "0": ZeroTop, "000": ZeroTop, "1": 1, "0100": 100, "1000": 1000} {
		if n, err := ParseTop(s); err != nil || n != want {
			t.Fatalf("ParseTop(%q) = %d, %v; want %d", s, n, err, want)
		}
	}
	for _, s := range []string{"1001", "99999999999999999999", "-1", "+5", " 5", "5.0", "abc"} {
		if _, err := ParseTop(s); !errors.Is(err, ErrTopInvalid) {
			t.Fatalf("ParseTop(%q) = %v, want ErrTopInvalid", s, err)
		}
	}
}
