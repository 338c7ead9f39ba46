package auth

import (
	"encoding/base64"
	"net/http"
	"testing"
)

// TestAppendAuthorization: a client's signature is the one the server computes, for both
// schemes, with and without comp.
func TestAppendAuthorization(t *testing.T) {
	key, err := base64.StdEncoding.DecodeString(DevAccountKey)
	if err != nil {
		t.Fatal(err)
	}
	date := testNow.Format(http.TimeFormat)
	tests := []struct {
		name string
		kind Kind
		s    Signed
		sts  string
	}{
		{"SharedKey", SharedKey, Signed{Method: "PUT", ContentMD5: "md5==", ContentType: "application/xml", Date: date, Path: "/devstoreaccount1/mytable", Comp: "acl", HasComp: true},
			"PUT\nmd5==\napplication/xml\n" + date + "\n/devstoreaccount1/devstoreaccount1/mytable?comp=acl"},
		{"SharedKeyLite", SharedKeyLite, Signed{Method: "GET", Date: date, Path: "/devstoreaccount1/Tables"}, date + "\n/devstoreaccount1/devstoreaccount1/Tables"},
		{"SharedKeyLite/Root", SharedKeyLite, Signed{Date: date}, date + "\n/devstoreaccount1/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(AppendAuthorization([]byte("x "), tt.kind, "devstoreaccount1", key, tt.s))
			want := "x " + tt.kind.String() + " devstoreaccount1:" + hmacSign(t, DevAccountKey, tt.sts)
			if got != want {
				t.Fatalf("got %q, want %q", got, want)
			}
		})
	}
}
