package auth_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/tabletopdb/tabletop/worker/rest/auth"
	"github.com/tabletopdb/tabletop/worker/rest/nethttp"
)

// Example verifies a Shared Key Lite request for Query Tables and authorizes it.
func Example() {
	now := time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)
	acct := auth.DevAccount()

	// What a client does: sign "date\n/account/path-as-sent" with the account key.
	date := now.Format(http.TimeFormat)
	mac := hmac.New(sha256.New, acct.Keys[0])
	mac.Write([]byte(date + "\n/devstoreaccount1/devstoreaccount1/Tables"))
	r := httptest.NewRequest("GET", "/devstoreaccount1/Tables", nil)
	r.Header.Set("x-ms-date", date)
	r.Header.Set("Authorization", "SharedKeyLite devstoreaccount1:"+base64.StdEncoding.EncodeToString(mac.Sum(nil)))

	req := nethttp.Request(r)
	p, err := auth.Verify(auth.Request{HTTP: req, Account: acct, Now: now})
	fmt.Println(p.Kind, err, p.Authorize(auth.For(auth.QueryTables, "")))

	// An hour later the same request is refused: its date is too old.
	_, err = auth.Verify(auth.Request{HTTP: req, Account: acct, Now: now.Add(time.Hour)})
	var ae *auth.AuthError
	if errors.As(err, &ae) {
		fmt.Println(ae.AzureCode().Name, ae.Detail)
	}
	// Output:
	// SharedKeyLite <nil> <nil>
	// AuthenticationFailed Request date header too old: 'Sat, 01 Jun 2024 12:00:00 GMT'.
}
