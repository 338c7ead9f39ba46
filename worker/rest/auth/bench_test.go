package auth

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
)

// BenchmarkVerify measures Shared Key Lite and table SAS verification over request paths
// of growing length (the canonicalized resource is hashed).
func BenchmarkVerify(b *testing.B) {
	date := testNow.Format(http.TimeFormat)
	acct := testAccount(b)
	for _, n := range []int{10, 100, 1000} {
		path := "/devstoreaccount1/t(PartitionKey='" + strings.Repeat("p", n) + "',RowKey='r')"
		b.Run(fmt.Sprintf("kind=SharedKeyLite/n=%d", n), func(b *testing.B) {
			r := newRequest("GET", path, map[string]string{"x-ms-date": date,
				"Authorization": "SharedKeyLite devstoreaccount1:" + hmacSign(b, DevAccountKey, date+"\n/devstoreaccount1"+path)})
			for b.Loop() {
				if _, err := Verify(Request{HTTP: r, Account: acct, Now: testNow}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("kind=TableSAS/n=%d", n), func(b *testing.B) {
			qs, err := aztables.SASSignatureValues{TableName: "t", Permissions: "r", ExpiryTime: expiry}.Sign(devCred(b, DevAccountKey))
			if err != nil {
				b.Fatal(err)
			}
			r := newRequest("GET", path+"?"+qs, nil)
			for b.Loop() {
				if _, err := Verify(Request{HTTP: r, Account: acct, Now: testNow}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
