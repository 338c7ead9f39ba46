package bridge

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/tabletopdb/tabletop/worker/rest/exchange"
)

func TestNameCache_Canonical(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		c := nameCache{m: map[string]string{}}
		for _, name := range []string{"x-ms-date", "X-MS-DATE", "content-type", "etag", "accept", "bad name", "x-ms-date"} {
			if got, want := c.canonical(name), exchange.CanonicalKey(name); got != want {
				t.Errorf("canonical(%q) = %q, want %q", name, got, want)
			}
		}
		if len(c.m) != 6 {
			t.Errorf("%d names kept, want 6", len(c.m))
		}
	})
	t.Run("OKBounded", func(t *testing.T) {
		c := nameCache{m: map[string]string{}}
		for i := range 2 * maxNames {
			name := "x-n" + strconv.Itoa(i)
			if got := c.canonical(name); got != exchange.CanonicalKey(name) {
				t.Fatalf("canonical(%q) = %q", name, got)
			}
		}
		long := strings.Repeat("a", maxNameLen+1)
		if got := c.canonical(long); got != exchange.CanonicalKey(long) {
			t.Errorf("canonical of a long name = %q", got)
		}
		if len(c.m) != maxNames {
			t.Errorf("%d names kept, want %d", len(c.m), maxNames)
		}
	})
}

func TestParseHeader(t *testing.T) {
	t.Run("OKRepeated", func(t *testing.T) {
		h, err := parseHeader("a: 1\nb: 2\nA: 3\nc: 4\n")
		if err != nil {
			t.Fatal(err)
		}
		want := exchange.Header{"A": {"1", "3"}, "B": {"2"}, "C": {"4"}}
		if !reflect.DeepEqual(h, want) {
			t.Errorf("parseHeader = %v, want %v", h, want)
		}
	})
	t.Run("ErrMalformedHead", func(t *testing.T) {
		if _, err := parseHeader("a: 1\nno colon\n"); !errors.Is(err, ErrMalformedHead) {
			t.Errorf("parseHeader of a line with no colon: %v", err)
		}
	})
}
