package rest

import (
	"errors"
	"net/url"
	"reflect"
	"strings"
	"testing"
)

func TestParseQuery(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		for raw, want := range map[string]url.Values{
			"":                              {},
			"$top=5&$filter=a%20eq%20'x'":   {"$top": {"5"}, "$filter": {"a eq 'x'"}},
			"$filter=RowKey eq 'a;b'":       {"$filter": {"RowKey eq 'a;b'"}},
			"a=1&&a=2&b":                    {"a": {"1", "2"}, "b": {""}},
			"x=a+b%2Bc":                     {"x": {"a b+c"}},
			"NextTableName=1!ZGV2%3D%3D&x=": {"NextTableName": {"1!ZGV2=="}, "x": {""}},
		} {
			got, err := parseQuery(raw)
			if err != nil || !reflect.DeepEqual(map[string][]string(got), map[string][]string(want)) {
				t.Fatalf("parseQuery(%q) = %v, %v; want %v", raw, got, err, want)
			}
		}
	})
	t.Run("ErrQueryMalformed", func(t *testing.T) {
		for _, raw := range []string{"$filter=%ZZ", "$top=%", "%G1=1", "a=1&b=%2"} {
			if _, err := parseQuery(raw); !errors.Is(err, ErrQueryMalformed) {
				t.Fatalf("parseQuery(%q) = %v, want ErrQueryMalformed", raw, err)
			}
		}
	})
}

// FuzzParseQuery checks parseQuery against url.ParseQuery where Go's reading is Azure's
// (no ";"): the same values, or both refuse.
func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{"", "$top=5", "$filter=RowKey%20eq%20'a;b'", "a=%ZZ", "a=1&&b=+%2B", "=&=x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		got, err := parseQuery(raw)
		if strings.Contains(raw, ";") {
			return
		}
		want, werr := url.ParseQuery(raw)
		if (err != nil) != (werr != nil) || err == nil && !reflect.DeepEqual(map[string][]string(got), map[string][]string(want)) {
			t.Fatalf("parseQuery(%q) = %v, %v; url.ParseQuery = %v, %v", raw, got, err, want, werr)
		}
	})
}
