package auth

import (
	"errors"
	"net"
	"net/url"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/stored"
	"github.com/tabletopdb/tabletop/worker/rest/uri"
)

// tableSAS signs v with the Go SDK and returns the query string it produces.
func tableSAS(t *testing.T, key string, v aztables.SASSignatureValues) string {
	t.Helper()
	if v.TableName == "" {
		v.TableName = "MyTable"
	}
	qs, err := v.Sign(devCred(t, key))
	if err != nil {
		t.Fatal(err)
	}
	return qs
}

// window is a start and expiry around testNow.
var start, expiry = testNow.Add(-time.Hour), testNow.Add(time.Hour)

func TestVerify_TableSAS(t *testing.T) {
	acct := testAccount(t)
	policies := func(table string) ([]core.AccessPolicy, error) {
		if table != "mytable" && table != "MyTable" {
			return nil, core.ErrTableNotFound
		}
		return []core.AccessPolicy{
			{ID: "full", Start: "2024-01-01T00:00:00.0000000Z", Expiry: "2025-01-01T00:00:00.0000000Z", Permission: "raud"},
			{ID: "noperm", Expiry: "2025-01-01"},
			{ID: "old", Expiry: "2024-05-01T00:00:00Z", Permission: "r"},
		}, nil
	}
	sdk := func(v aztables.SASSignatureValues) string { return tableSAS(t, DevAccountKey, v) }
	base := aztables.SASSignatureValues{Permissions: "raud", StartTime: start, ExpiryTime: expiry}
	with := func(f func(*aztables.SASSignatureValues)) aztables.SASSignatureValues {
		v := base
		f(&v)
		return v
	}
	tests := []struct {
		name   string
		query  string
		secure bool
		ip     string
		want   error
		detail string
	}{
		{name: "OK", query: sdk(base)},
		{name: "OK/SecondaryKey", query: tableSAS(t, secondaryKey, base)},
		{name: "OK/NoStart", query: sdk(with(func(v *aztables.SASSignatureValues) { v.StartTime = time.Time{} }))},
		{name: "OK/HTTPSOnlyOverHTTPS", query: sdk(with(func(v *aztables.SASSignatureValues) { v.Protocol = aztables.SASProtocolHTTPS })), secure: true},
		{name: "OK/HTTPSOrHTTP", query: sdk(with(func(v *aztables.SASSignatureValues) { v.Protocol = aztables.SASProtocolHTTPSandHTTP }))},
		{name: "OK/IP", query: sdk(with(func(v *aztables.SASSignatureValues) { v.IPRange = aztables.IPRange{Start: net.ParseIP("10.0.0.7")} })), ip: "10.0.0.7"},
		{name: "OK/IPRange", query: sdk(with(func(v *aztables.SASSignatureValues) {
			v.IPRange = aztables.IPRange{Start: net.ParseIP("10.0.0.1"), End: net.ParseIP("10.0.0.9")}
		})), ip: "10.0.0.9"},
		{name: "OK/Policy", query: sdk(aztables.SASSignatureValues{Identifier: "full"})},
		{name: "OK/PolicyPlusPermissions", query: sdk(aztables.SASSignatureValues{Identifier: "noperm", Permissions: "r"})},
		{name: "ErrAuthenticationFailed/WrongKey", query: tableSAS(t, "d3Jvbmcta2V5", base), want: ErrAuthenticationFailed, detail: "Signature did not match. String to sign used was raud\n2024-06-01T11:00:00Z\n2024-06-01T13:00:00Z\n/table/devstoreaccount1/mytable\n\n\n\n2019-02-02\n\n\n\n"},
		{name: "ErrAuthenticationFailed/TamperedPermissions", query: tamper(t, sdk(with(func(v *aztables.SASSignatureValues) { v.Permissions = "r" })), "sp", "raud"), want: ErrAuthenticationFailed, detail: "Signature did not match"},
		{name: "ErrAuthenticationFailed/TamperedExpiry", query: tamper(t, sdk(base), "se", "2030-01-01T00:00:00Z"), want: ErrAuthenticationFailed, detail: "Signature did not match"},
		{name: "ErrAuthenticationFailed/TamperedTable", query: tamper(t, sdk(base), "tn", "other"), want: ErrAuthenticationFailed, detail: "Signature did not match"},
		{name: "ErrAuthenticationFailed/Expired", query: sdk(with(func(v *aztables.SASSignatureValues) { v.ExpiryTime = testNow.Add(-time.Minute) })), want: ErrAuthenticationFailed, detail: "Signature not valid in the specified time frame: Start [Sat, 01 Jun 2024 11:00:00 GMT] - Expiry [Sat, 01 Jun 2024 11:59:00 GMT] - Current [Sat, 01 Jun 2024 12:00:00 GMT]"},
		{name: "ErrAuthenticationFailed/NotYetValid", query: sdk(with(func(v *aztables.SASSignatureValues) { v.StartTime = testNow.Add(time.Minute) })), want: ErrAuthenticationFailed, detail: "time frame"},
		{name: "ErrAuthenticationFailed/NoExpiry", query: sdk(with(func(v *aztables.SASSignatureValues) { v.ExpiryTime = time.Time{} })), want: ErrAuthenticationFailed, detail: "se) is missing"},
		{name: "ErrAuthenticationFailed/NoPermissions", query: sdk(with(func(v *aztables.SASSignatureValues) { v.Permissions = "" })), want: ErrAuthenticationFailed, detail: "not letters of 'raud'"},
		{name: "ErrPolicyFieldRepeated/Expiry", query: sdk(aztables.SASSignatureValues{Identifier: "full", ExpiryTime: expiry}), want: ErrPolicyFieldRepeated, detail: "not both"},
		{name: "ErrPolicyFieldRepeated/Permissions", query: sdk(aztables.SASSignatureValues{Identifier: "full", Permissions: "r"}), want: ErrPolicyFieldRepeated, detail: "not both"},
		{name: "ErrAuthenticationFailed/UnknownPolicy", query: sdk(aztables.SASSignatureValues{Identifier: "nope"}), want: ErrAuthenticationFailed, detail: "'nope' does not exist"},
		{name: "ErrAuthenticationFailed/PolicyExpired", query: sdk(aztables.SASSignatureValues{Identifier: "old"}), want: ErrAuthenticationFailed, detail: "time frame"},
		{name: "ErrAuthenticationFailed/UnknownPermissionLetter", query: resign(t, sdk(base), "sp", "rwd"), want: ErrAuthenticationFailed, detail: "not letters"},
		{name: "ErrAuthenticationFailed/RowKeyWithoutPartitionKey", query: resign(t, sdk(base), "srk", "r1"), want: ErrAuthenticationFailed, detail: "srk needs spk"},
		{name: "ErrAuthenticationFailed/OldVersion", query: resign(t, sdk(base), "sv", "2011-08-18"), want: ErrAuthenticationFailed, detail: "2012-02-12"},
		{name: "ErrAuthenticationFailed/NoVersion", query: resign(t, sdk(base), "sv", ""), want: ErrAuthenticationFailed, detail: "signed version"},
		{name: "ErrAuthenticationFailed/BadProtocol", query: resign(t, sdk(base), "spr", "http"), want: ErrAuthenticationFailed, detail: "signed protocol"},
		{name: "ErrAuthenticationFailed/BadIP", query: resign(t, sdk(base), "sip", "10.0.0.300"), want: ErrAuthenticationFailed, detail: "signed IP"},
		{name: "ErrAuthenticationFailed/BadExpiry", query: resign(t, sdk(base), "se", "tomorrow"), want: ErrAuthenticationFailed, detail: "not an ISO 8601 time"},
		{name: "ErrProtocolMismatch", query: sdk(with(func(v *aztables.SASSignatureValues) { v.Protocol = aztables.SASProtocolHTTPS })), want: ErrProtocolMismatch},
		{name: "ErrSourceIPMismatch", query: sdk(with(func(v *aztables.SASSignatureValues) { v.IPRange = aztables.IPRange{Start: net.ParseIP("10.0.0.7")} })), ip: "10.0.0.8", want: ErrSourceIPMismatch, detail: "10.0.0.8"},
		{name: "ErrSourceIPMismatch/NoClientIP", query: sdk(with(func(v *aztables.SASSignatureValues) { v.IPRange = aztables.IPRange{Start: net.ParseIP("10.0.0.7")} })), want: ErrSourceIPMismatch},
		{name: "ErrSourceIPMismatch/OtherFamily", query: sdk(with(func(v *aztables.SASSignatureValues) { v.IPRange = aztables.IPRange{Start: net.ParseIP("10.0.0.7")} })), ip: "::1", want: ErrSourceIPMismatch},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Request{
				HTTP:    newRequest("GET", "/devstoreaccount1/MyTable()?"+tt.query, nil),
				Account: acct, Policies: policies, Now: testNow, Secure: tt.secure, ClientIP: addr(tt.ip),
			}
			p, err := Verify(r)
			checkErr(t, err, tt.want, tt.detail)
			if err == nil && (p.Kind != TableSAS || p.Table() != "mytable" || p.Account != DevAccountName) {
				t.Fatalf("principal = %+v", p)
			}
		})
	}
}

// tamper replaces one parameter of a query string without re-signing it.
func tamper(t *testing.T, qs, key, value string) string {
	t.Helper()
	q, err := url.ParseQuery(qs)
	if err != nil {
		t.Fatal(err)
	}
	q.Set(key, value)
	return q.Encode()
}

// resign replaces one parameter of a table SAS and signs it again with the dev key,
// building the string to sign as the table SAS documentation describes, so that the
// check that fails is the one after the signature.
func resign(t *testing.T, qs, key, value string) string {
	t.Helper()
	q, err := url.ParseQuery(tamper(t, qs, key, value))
	if err != nil {
		t.Fatal(err)
	}
	sts := q.Get("sp") + "\n" + q.Get("st") + "\n" + q.Get("se") + "\n/table/devstoreaccount1/" + q.Get("tn") +
		"\n" + q.Get("si") + "\n" + q.Get("sip") + "\n" + q.Get("spr") + "\n" + q.Get("sv") + "\n" +
		q.Get("spk") + "\n" + q.Get("srk") + "\n" + q.Get("epk") + "\n" + q.Get("erk")
	q.Set("sig", hmacSign(t, DevAccountKey, sts))
	return q.Encode()
}

func TestVerify_TableSASPolicyLookupError(t *testing.T) {
	boom := errors.New("store closed")
	qs := tableSAS(t, DevAccountKey, aztables.SASSignatureValues{Identifier: "full"})
	_, err := Verify(Request{
		HTTP: newRequest("GET", "/devstoreaccount1/MyTable()?"+qs, nil), Account: testAccount(t), Now: testNow,
		Policies: func(string) ([]core.AccessPolicy, error) { return nil, boom },
	})
	var ae *AuthError
	if !errors.Is(err, boom) || errors.As(err, &ae) {
		t.Fatalf("err = %v, want the lookup error, not an AuthError", err)
	}
}

// TestVerify_TableSASKeyRange shows that the Go SDK signs the key range fields in the
// documented order (it forgets to put them in the query string: adding them back makes
// the SAS valid) and that Authorize enforces the range.
func TestVerify_TableSASKeyRange(t *testing.T) {
	v := aztables.SASSignatureValues{Permissions: "raud", ExpiryTime: expiry,
		StartPartitionKey: "p1", StartRowKey: "r5", EndPartitionKey: "p3", EndRowKey: "r2"}
	qs := tableSAS(t, DevAccountKey, v)
	verify := func(qs string) (*Principal, error) {
		return Verify(Request{HTTP: newRequest("GET", "/devstoreaccount1/mytable()?"+qs, nil), Account: testAccount(t), Now: testNow})
	}
	if _, err := verify(qs); !errors.Is(err, ErrAuthenticationFailed) {
		t.Fatalf("SDK query without key fields: err = %v, want ErrAuthenticationFailed", err)
	}
	q, _ := url.ParseQuery(qs)
	q.Set("spk", "p1")
	q.Set("srk", "r5")
	q.Set("epk", "p3")
	q.Set("erk", "r2")
	p, err := verify(q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	want := stored.KeyRange{From: stored.KeyAt("p1", "r5"), To: stored.KeyAfter("p3", "r2")}
	if p.KeyRange() != want {
		t.Fatalf("KeyRange = %q, want %q", p.KeyRange(), want)
	}
	for _, k := range []struct {
		pk, rk string
		ok     bool
	}{{"p1", "r5", true}, {"p1", "r4", false}, {"p2", "", true}, {"p3", "r2", true}, {"p3", "r3", false}, {"p0", "z", false}} {
		err := p.Authorize(For(InsertEntity, "MyTable").WithKey(k.pk, k.rk))
		if (err == nil) != k.ok {
			t.Errorf("(%q, %q): err = %v, want ok=%v", k.pk, k.rk, err, k.ok)
		}
	}
}

// TestVerify_TableSASVersions signs table SAS of older versions by hand, with the string
// to sign the service SAS page gives for each: before 2015-02-21 the resource lacks the
// "/table" prefix, before 2015-04-05 there are no sip and spr lines.
func TestVerify_TableSASVersions(t *testing.T) {
	tests := []struct{ name, sv, sts string }{
		{"OK/2013-08-15", "2013-08-15", "r\n\n2024-06-01T13:00:00Z\n/devstoreaccount1/mytable\n\n2013-08-15\np\n\n\n"},
		{"OK/2015-02-21", "2015-02-21", "r\n\n2024-06-01T13:00:00Z\n/table/devstoreaccount1/mytable\n\n2015-02-21\np\n\n\n"},
		{"OK/2015-04-05", "2015-04-05", "r\n\n2024-06-01T13:00:00Z\n/table/devstoreaccount1/mytable\n\n\n\n2015-04-05\np\n\n\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := url.Values{"sv": {tt.sv}, "tn": {"MyTable"}, "sp": {"r"}, "se": {"2024-06-01T13:00:00Z"}, "spk": {"p"}}
			q.Set("sig", hmacSign(t, DevAccountKey, tt.sts))
			p, err := Verify(Request{HTTP: newRequest("GET", "/devstoreaccount1/MyTable()?"+q.Encode(), nil), Account: testAccount(t), Now: testNow})
			if err != nil {
				t.Fatal(err)
			}
			if p.KeyRange().From != stored.PartitionStart("p") {
				t.Fatalf("KeyRange = %q", p.KeyRange())
			}
		})
	}
}

// addr is the client address s, the zero Addr (unknown) for "".
func addr(s string) uri.Addr {
	a, _ := uri.ParseAddr(s)
	return a
}

func TestParseIPRange(t *testing.T) {
	for _, tc := range []struct {
		sip, ip string
		ok, in  bool
	}{
		{"10.0.0.1-10.0.0.9", "10.0.0.9", true, true},
		{"10.0.0.1-10.0.0.9", "10.0.0.10", true, false},
		{"10.0.0.1-10.0.0.9", "::ffff:10.0.0.5", true, true}, // an IPv4-mapped client is its IPv4 address
		{"::ffff:10.0.0.1", "10.0.0.1", true, true},
		{"2001:db8::1-2001:db8::ff", "2001:db8::80", true, true},
		{"2001:db8::1", "10.0.0.1", true, false},
		{"10.0.0.1-2001:db8::1", "", false, false},
		{"fe80::1%eth0", "", false, false},
		{"010.0.0.1", "", false, false},
		{"nope", "", false, false},
	} {
		_, _, ok := parseIPRange(tc.sip)
		if ok != tc.ok || (ok && checkIP(tc.sip, addr(tc.ip)) == nil != tc.in) {
			t.Errorf("sip %q, client %q: ok %v, in %v; want %v, %v", tc.sip, tc.ip, ok, ok && checkIP(tc.sip, addr(tc.ip)) == nil, tc.ok, tc.in)
		}
	}
}
