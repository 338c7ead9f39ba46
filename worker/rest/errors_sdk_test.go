//go:build !js

package rest_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
)

// TestSDK_EntityLimits drives the data model's limits through the SDK: each has its code.
func TestSDK_EntityLimits(t *testing.T) {
	e := newEnv(t)
	c := e.table(t, "Limits")
	many := map[string]any{}
	for i := 0; i < 253; i++ {
		many[fmt.Sprint("P", i)] = int32(i)
	}
	huge := map[string]any{}
	for i := 0; i < 20; i++ {
		huge[fmt.Sprint("B", i)] = aztables.EDMBinary(make([]byte, 60000))
	}
	for _, tc := range []struct {
		name, pk, rk string
		props        map[string]any
		code         string
	}{
		{"ErrTooManyProperties", "p", "1", many, "TooManyProperties"},
		{"ErrEntityTooLarge", "p", "2", huge, "EntityTooLarge"},
		{"ErrValueTooLarge", "p", "3", map[string]any{"S": strings.Repeat("x", 32*1024+1)}, "PropertyValueTooLarge"},
		{"ErrPropertyNameTooLong", "p", "4", map[string]any{strings.Repeat("N", 256): 1}, "PropertyNameTooLong"},
		{"ErrPropertyNameReserved", "p", "5", map[string]any{"odata_ok": 1, "Timestamp2": 1, "1abc": 1}, "PropertyNameInvalid"},
		{"ErrKeyTooLarge", strings.Repeat("k", 513), "6", nil, "OutOfRangeInput"},
		{"ErrKeyControlChar", "p", "a\tb", nil, "OutOfRangeInput"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.AddEntity(ctx, props(tc.pk, tc.rk, tc.props), nil)
			wantCode(t, err, http.StatusBadRequest, tc.code)
		})
	}
	t.Run("OK", func(t *testing.T) {
		p := map[string]any{}
		for i := 0; i < 251; i++ { // and S: 252 custom properties
			p[fmt.Sprint("P", i)] = int32(i)
		}
		p["S"] = strings.Repeat("x", 32*1024)
		if _, err := c.AddEntity(ctx, props(strings.Repeat("k", 512), "", p), nil); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("ErrTooManyComparisons", func(t *testing.T) {
		f := "A eq 1" + strings.Repeat(" or A eq 1", 15)
		_, err := c.NewListEntitiesPager(&aztables.ListEntitiesOptions{Filter: &f}).NextPage(ctx)
		wantCode(t, err, http.StatusBadRequest, "InvalidInput")
	})
}

// TestSDK_SASMismatches covers the remaining authorization codes.
func TestSDK_SASMismatches(t *testing.T) {
	e := newEnv(t)
	e.table(t, "Sas")
	t.Run("ErrProtocolMismatch", func(t *testing.T) {
		c := e.tableSAS(t, "Sas", aztables.SASSignatureValues{Permissions: "r", Protocol: aztables.SASProtocolHTTPS})
		_, err := c.GetEntity(ctx, "p", "r", nil)
		wantCode(t, err, http.StatusForbidden, "AuthorizationProtocolMismatch")
	})
	t.Run("ErrSourceIPMismatch", func(t *testing.T) {
		c := e.tableSAS(t, "Sas", aztables.SASSignatureValues{Permissions: "r", IPRange: aztables.IPRange{Start: []byte{10, 0, 0, 1}}})
		_, err := c.GetEntity(ctx, "p", "r", nil)
		wantCode(t, err, http.StatusForbidden, "AuthorizationSourceIPMismatch")
	})
	t.Run("ErrServiceMismatch", func(t *testing.T) {
		qps, err := aztables.AccountSASSignatureValues{Protocol: aztables.SASProtocolHTTPSandHTTP, Permissions: "r",
			Services: "b", ResourceTypes: "sco", ExpiryTime: time.Now().Add(time.Hour).UTC()}.Sign(e.cred)
		if err != nil {
			t.Fatal(err)
		}
		c, _ := aztables.NewServiceClientWithNoCredential(e.url+"/?"+qps.Encode(), clientOptions())
		_, err = c.NewClient("Sas").GetEntity(ctx, "p", "r", nil)
		wantCode(t, err, http.StatusForbidden, "AuthorizationServiceMismatch")
	})
}
