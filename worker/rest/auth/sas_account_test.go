package auth

import (
	"net/url"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
)

// accountSAS signs v with the Go SDK and returns the query string it produces.
func accountSAS(t *testing.T, key string, v aztables.AccountSASSignatureValues) string {
	t.Helper()
	p, err := v.Sign(devCred(t, key))
	if err != nil {
		t.Fatal(err)
	}
	return p.Encode()
}

// scopedAccountSAS builds a 2020-12-06 account SAS with an encryption scope, signed with
// the documented string to sign (no SDK at hand produces one).
func scopedAccountSAS(t *testing.T, ses string) string {
	q := url.Values{"sv": {"2020-12-06"}, "ss": {"t"}, "srt": {"sco"}, "sp": {"rl"}, "se": {"2024-06-01T13:00:00Z"}, "ses": {ses}}
	sts := "devstoreaccount1\nrl\nt\nsco\n\n2024-06-01T13:00:00Z\n\n\n2020-12-06\n" + ses + "\n"
	q.Set("sig", hmacSign(t, DevAccountKey, sts))
	return q.Encode()
}

func TestVerify_AccountSAS(t *testing.T) {
	base := aztables.AccountSASSignatureValues{Permissions: "rwdlacu", Services: "t", ResourceTypes: "sco", StartTime: start, ExpiryTime: expiry}
	with := func(f func(*aztables.AccountSASSignatureValues)) string {
		v := base
		f(&v)
		return accountSAS(t, DevAccountKey, v)
	}
	tests := []struct {
		name   string
		query  string
		secure bool
		want   error
		detail string
	}{
		{name: "OK", query: with(func(*aztables.AccountSASSignatureValues) {})},
		{name: "OK/SecondaryKey", query: accountSAS(t, secondaryKey, base)},
		{name: "OK/AllServices", query: with(func(v *aztables.AccountSASSignatureValues) { v.Services = "bqtf" })},
		{name: "OK/Version2020SignedTheOldWay", query: with(func(v *aztables.AccountSASSignatureValues) { v.Version = "2021-06-08" })},
		{name: "OK/EncryptionScope", query: scopedAccountSAS(t, "scope1")},
		{name: "OK/HTTPSOverHTTPS", query: with(func(v *aztables.AccountSASSignatureValues) { v.Protocol = aztables.SASProtocolHTTPS }), secure: true},
		{name: "ErrAuthenticationFailed/Tampered", query: tamper(t, with(func(v *aztables.AccountSASSignatureValues) { v.Permissions = "r" }), "sp", "rw"), want: ErrAuthenticationFailed, detail: "Signature did not match. String to sign used was devstoreaccount1\nrw\nt\nsco\n"},
		{name: "ErrAuthenticationFailed/TamperedScope", query: tamper(t, scopedAccountSAS(t, "scope1"), "ses", "scope2"), want: ErrAuthenticationFailed, detail: "\n2020-12-06\nscope2\n"},
		{name: "ErrAuthenticationFailed/WrongKey", query: accountSAS(t, "d3Jvbmcta2V5", base), want: ErrAuthenticationFailed, detail: "Signature did not match"},
		{name: "ErrAuthenticationFailed/Expired", query: with(func(v *aztables.AccountSASSignatureValues) {
			v.StartTime, v.ExpiryTime = time.Time{}, testNow.Add(-time.Second)
		}), want: ErrAuthenticationFailed, detail: "time frame"},
		{name: "ErrAuthenticationFailed/OldVersion", query: with(func(v *aztables.AccountSASSignatureValues) { v.Version = "2015-02-21" }), want: ErrAuthenticationFailed, detail: "2015-04-05"},
		{name: "ErrAuthenticationFailed/NoResourceTypes", query: tamper(t, with(func(*aztables.AccountSASSignatureValues) {}), "srt", ""), want: ErrAuthenticationFailed, detail: "needs ss, srt, sp and se"},
		{name: "ErrServiceMismatch", query: with(func(v *aztables.AccountSASSignatureValues) { v.Services = "bq" }), want: ErrServiceMismatch},
		{name: "ErrProtocolMismatch", query: with(func(v *aztables.AccountSASSignatureValues) { v.Protocol = aztables.SASProtocolHTTPS }), want: ErrProtocolMismatch},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Verify(Request{HTTP: newRequest("GET", "/devstoreaccount1/Tables?"+tt.query, nil), Account: testAccount(t), Now: testNow, Secure: tt.secure})
			checkErr(t, err, tt.want, tt.detail)
			if err == nil && p.Kind != AccountSAS {
				t.Fatalf("Kind = %v", p.Kind)
			}
		})
	}
}

func TestVerify_AccountSASBadLetters(t *testing.T) {
	for _, f := range []struct{ key, value string }{{"sp", "rz"}, {"srt", "sx"}, {"ss", "tz"}, {"sp", "rr"}, {"srt", "ss"}} {
		t.Run("ErrAuthenticationFailed/"+f.key+"="+f.value, func(t *testing.T) {
			q := url.Values{"sv": {"2019-02-02"}, "ss": {"t"}, "srt": {"sco"}, "sp": {"r"}, "se": {"2024-06-01T13:00:00Z"}}
			q.Set(f.key, f.value)
			sts := "devstoreaccount1\n" + q.Get("sp") + "\n" + q.Get("ss") + "\n" + q.Get("srt") + "\n\n2024-06-01T13:00:00Z\n\n\n2019-02-02\n"
			q.Set("sig", hmacSign(t, DevAccountKey, sts))
			_, err := Verify(Request{HTTP: newRequest("GET", "/devstoreaccount1/Tables?"+q.Encode(), nil), Account: testAccount(t), Now: testNow})
			checkErr(t, err, ErrAuthenticationFailed, "Unknown letters")
		})
	}
}
