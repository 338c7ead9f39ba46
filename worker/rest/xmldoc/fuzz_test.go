package xmldoc

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// FuzzParseACL checks that ParseACL never panics and that what it accepts survives a
// WriteACL round trip unchanged.
func FuzzParseACL(f *testing.F) {
	f.Add(goSDKACL)
	f.Add(identifiers(5))
	f.Add("<SignedIdentifiers><SignedIdentifier><Id>x</Id><AccessPolicy><Start>2024-01-02</Start><Permission>dar</Permission></AccessPolicy></SignedIdentifier></SignedIdentifiers>")
	f.Fuzz(func(t *testing.T, body string) {
		got, err := ParseACL(strings.NewReader(body))
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := WriteACL(&b, got); err != nil {
			t.Fatal(err)
		}
		back, err := ParseACL(&b)
		if err != nil || len(back) != len(got) || (len(got) > 0 && !reflect.DeepEqual(back, got)) {
			t.Fatalf("round trip of %q: %+v, %v; want %+v", body, back, err, got)
		}
	})
}

// FuzzParseProperties checks that ParseProperties never panics and that what it accepts
// survives a WriteProperties round trip unchanged.
func FuzzParseProperties(f *testing.F) {
	f.Add(azureSample)
	f.Add(goSDKProperties)
	f.Add(rule(okRule))
	f.Fuzz(func(t *testing.T, body string) {
		got, err := ParseProperties(strings.NewReader(body))
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := WriteProperties(&b, got); err != nil {
			t.Fatal(err)
		}
		back, err := ParseProperties(&b)
		if err != nil || !reflect.DeepEqual(back, got) {
			t.Fatalf("round trip of %q: %+v, %v; want %+v", body, back, err, got)
		}
	})
}
