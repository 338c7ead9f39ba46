package xmldoc

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/tabletopdb/tabletop/core"
)

// goSDKACL is the Set Table ACL body the Go SDK (aztables v1.4.1) sends: AccessPolicy
// before Id, Permission before Expiry before Start, RFC 3339 times.
const goSDKACL = `<?xml version="1.0" encoding="UTF-8"?>
<SignedIdentifiers><SignedIdentifier><AccessPolicy><Permission>raud</Permission><Expiry>2025-01-02T03:04:05.6Z</Expiry><Start>2024-01-02T03:04:05Z</Start></AccessPolicy><Id>full</Id></SignedIdentifier><SignedIdentifier><AccessPolicy><Permission>r</Permission></AccessPolicy><Id>partial</Id></SignedIdentifier><SignedIdentifier><Id>empty</Id></SignedIdentifier></SignedIdentifiers>`

// identifiers returns a <SignedIdentifiers> document of n identifiers.
func identifiers(n int) string {
	var b strings.Builder
	b.WriteString("<SignedIdentifiers>")
	for i := range n {
		b.WriteString("<SignedIdentifier><Id>id" + string(rune('a'+i)) + "</Id></SignedIdentifier>")
	}
	return b.String() + "</SignedIdentifiers>"
}

func TestParseACL(t *testing.T) {
	one := func(policy string) string {
		return "<SignedIdentifiers><SignedIdentifier><Id>x</Id><AccessPolicy>" + policy + "</AccessPolicy></SignedIdentifier></SignedIdentifiers>"
	}
	tests := []struct {
		name string
		body string
		want []core.AccessPolicy
		err  string
	}{
		{name: "OK/GoSDK", body: goSDKACL, want: []core.AccessPolicy{
			{ID: "full", Start: "2024-01-02T03:04:05.0000000Z", Expiry: "2025-01-02T03:04:05.6000000Z", Permission: "raud"},
			{ID: "partial", Permission: "r"}, {ID: "empty"}}},
		{name: "OK/AzureDocSample", body: `<?xml version="1.0" encoding="utf-8"?>
<SignedIdentifiers>
  <SignedIdentifier>
    <Id>MTIzNDU2Nzg5MDEyMzQ1Njc4OTAxMjM0NTY3ODkwMTI=</Id>
    <AccessPolicy>
      <Start>2013-11-26T08:49:37.0000000Z</Start>
      <Expiry>2013-11-27T08:49:37.0000000Z</Expiry>
      <Permission>raud</Permission>
    </AccessPolicy>
  </SignedIdentifier>
</SignedIdentifiers>`, want: []core.AccessPolicy{{ID: "MTIzNDU2Nzg5MDEyMzQ1Njc4OTAxMjM0NTY3ODkwMTI=",
			Start: "2013-11-26T08:49:37.0000000Z", Expiry: "2013-11-27T08:49:37.0000000Z", Permission: "raud"}}},
		{name: "OK/Empty", body: "", want: nil},
		{name: "OK/Blank", body: " \n", want: nil},
		{name: "OK/NoIdentifiers", body: "<SignedIdentifiers/>", want: []core.AccessPolicy{}},
		{name: "OK/DateOnlyAndOffset", body: one("<Start>2024-01-02</Start><Expiry>2024-01-02T12:00+02:00</Expiry>"),
			want: []core.AccessPolicy{{ID: "x", Start: "2024-01-02T00:00:00.0000000Z", Expiry: "2024-01-02T10:00:00.0000000Z"}}},
		{name: "OK/PermissionOrderNormalized", body: one("<Permission>dur</Permission>"), want: []core.AccessPolicy{{ID: "x", Permission: "rud"}}},
		{name: "OK/EmptyElements", body: one("<Start></Start><Expiry/><Permission/>"), want: []core.AccessPolicy{{ID: "x"}}},
		{name: "OK/Five", body: identifiers(5), want: []core.AccessPolicy{{ID: "ida"}, {ID: "idb"}, {ID: "idc"}, {ID: "idd"}, {ID: "ide"}}},
		{name: "ErrXMLInvalid/Six", body: identifiers(6), err: "6 signed identifiers, at most 5"},
		{name: "ErrXMLInvalid/NoId", body: "<SignedIdentifiers><SignedIdentifier><AccessPolicy><Expiry>2042-01-01T00:00:00Z</Expiry></AccessPolicy></SignedIdentifier></SignedIdentifiers>", err: "id must have"},
		{name: "ErrXMLInvalid/LongId", body: "<SignedIdentifiers><SignedIdentifier><Id>" + strings.Repeat("i", 65) + "</Id></SignedIdentifier></SignedIdentifiers>", err: "id must have 1 to 64"},
		{name: "ErrXMLInvalid/DuplicateId", body: "<SignedIdentifiers><SignedIdentifier><Id>a</Id></SignedIdentifier><SignedIdentifier><Id>a</Id></SignedIdentifier></SignedIdentifiers>", err: "given twice"},
		{name: "ErrXMLInvalid/PermissionLetter", body: one("<Permission>rw</Permission>"), err: `not letters of "raud"`},
		{name: "ErrXMLInvalid/PermissionRepeated", body: one("<Permission>rr</Permission>"), err: "repeats"},
		{name: "ErrXMLInvalid/Start", body: one("<Start>yesterday</Start>"), err: "start \"yesterday\" is not an ISO 8601 time"},
		{name: "ErrXMLInvalid/Expiry", body: one("<Expiry>2024-13-01T00:00:00Z</Expiry>"), err: "expiry"},
		{name: "ErrXMLInvalid/Root", body: "<Identifiers/>", err: "parse acl"},
		{name: "ErrXMLInvalid/Malformed", body: "<SignedIdentifiers><SignedIdentifier>", err: "parse acl"},
		{name: "ErrXMLInvalid/NotXML", body: "{}", err: "parse acl"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseACL(strings.NewReader(tt.body))
			if tt.err != "" {
				if !errors.Is(err, ErrXMLInvalid) || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want ErrXMLInvalid with %q", err, tt.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("ParseACL = %#v, %v; want %#v", got, err, tt.want)
			}
		})
	}
}

func TestWriteACL(t *testing.T) {
	tests := []struct {
		name     string
		policies []core.AccessPolicy
		want     string
	}{
		{"OK/Full", []core.AccessPolicy{{ID: "p<1>", Start: "2024-01-02T03:04:05.0000000Z", Expiry: "2025-01-02T03:04:05.6000000Z", Permission: "raud"}},
			`<?xml version="1.0" encoding="utf-8"?><SignedIdentifiers><SignedIdentifier><Id>p&lt;1&gt;</Id><AccessPolicy><Start>2024-01-02T03:04:05.0000000Z</Start><Expiry>2025-01-02T03:04:05.6000000Z</Expiry><Permission>raud</Permission></AccessPolicy></SignedIdentifier></SignedIdentifiers>`},
		{"OK/Partial", []core.AccessPolicy{{ID: "a", Permission: "r"}, {ID: "b"}},
			`<?xml version="1.0" encoding="utf-8"?><SignedIdentifiers><SignedIdentifier><Id>a</Id><AccessPolicy><Permission>r</Permission></AccessPolicy></SignedIdentifier><SignedIdentifier><Id>b</Id><AccessPolicy></AccessPolicy></SignedIdentifier></SignedIdentifiers>`},
		{"OK/None", nil, `<?xml version="1.0" encoding="utf-8"?><SignedIdentifiers></SignedIdentifiers>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteACL(&b, tt.policies); err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.want {
				t.Fatalf("WriteACL =\n%s\nwant\n%s", b.String(), tt.want)
			}
			back, err := ParseACL(&b)
			if err != nil || len(back) != len(tt.policies) || (len(back) > 0 && !reflect.DeepEqual(back, tt.policies)) {
				t.Fatalf("round trip = %+v, %v", back, err)
			}
		})
	}
}
