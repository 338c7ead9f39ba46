package auth

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
	"github.com/tabletopdb/tabletop/worker/rest/exchange"
	"github.com/tabletopdb/tabletop/worker/rest/nethttp"
)

// testNow is the server clock of the tests.
var testNow = time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)

// secondaryKey is a second key of the test account, base64.
const secondaryKey = "c2Vjb25kYXJ5LWtleS1vZi10aGUtdGVzdC1hY2NvdW50LXRhYmxldG9wLTEyMzQ1Ng=="

// testAccount is devstoreaccount1 with its well-known key and a secondary key.
func testAccount(t testing.TB) Account {
	a, err := NewAccount(DevAccountName, DevAccountKey, secondaryKey)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// devCred is the Go SDK's credential for devstoreaccount1 with the given key.
func devCred(t testing.TB, key string) *aztables.SharedKeyCredential {
	c, err := aztables.NewSharedKeyCredential(DevAccountName, key)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// newRequest builds a server-side request for target (path and query, as sent).
func newRequest(method, target string, header map[string]string) *exchange.Request {
	r := httptest.NewRequest(method, target, nil)
	for k, v := range header {
		r.Header.Set(k, v)
	}
	return nethttp.Request(r)
}

// hmacSign signs a string to sign with a base64 key, as the SDKs do.
func hmacSign(t testing.TB, key, sts string) string {
	k, err := base64.StdEncoding.DecodeString(key)
	if err != nil {
		t.Fatal(err)
	}
	m := hmac.New(sha256.New, k)
	m.Write([]byte(sts))
	return base64.StdEncoding.EncodeToString(m.Sum(nil))
}

// checkErr fails the test unless err is an *AuthError wrapping want (nil: no error) whose
// detail contains detail.
func checkErr(t *testing.T, err, want error, detail string) {
	t.Helper()
	if want == nil {
		if err != nil {
			t.Fatalf("err = %v, want nil", err)
		}
		return
	}
	var ae *AuthError
	if !errors.As(err, &ae) || !errors.Is(err, want) {
		t.Fatalf("err = %v, want *AuthError wrapping %v", err, want)
	}
	if !strings.Contains(ae.Detail, detail) {
		t.Fatalf("detail = %q, want it to contain %q", ae.Detail, detail)
	}
}
