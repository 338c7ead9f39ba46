//go:build !js

package rest_test

import (
	"net"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
)

// tableSAS returns a client of table name authenticated by a table SAS with values v.
func (e *env) tableSAS(t *testing.T, name string, v aztables.SASSignatureValues) *aztables.Client {
	t.Helper()
	c, err := aztables.NewClientWithNoCredential(e.url+"/"+name+"?"+e.tableSASQuery(t, name, v), clientOptions())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// tableSASQuery returns the query string of a table SAS of table name with values v.
func (e *env) tableSASQuery(t *testing.T, name string, v aztables.SASSignatureValues) string {
	t.Helper()
	v.TableName = name
	if v.ExpiryTime.IsZero() && v.Identifier == "" {
		v.ExpiryTime = time.Now().Add(time.Hour)
	}
	qs, err := v.Sign(e.cred)
	if err != nil {
		t.Fatal(err)
	}
	// SASSignatureValues.Sign (v1.4.1) signs the key range but leaves it out of the query.
	for _, kv := range [][2]string{{"spk", v.StartPartitionKey}, {"srk", v.StartRowKey}, {"epk", v.EndPartitionKey}, {"erk", v.EndRowKey}} {
		if kv[1] != "" {
			qs += "&" + kv[0] + "=" + url.QueryEscape(kv[1])
		}
	}
	return qs
}

// accountSAS returns a service client authenticated by an account SAS.
func (e *env) accountSAS(t *testing.T, srt aztables.AccountSASResourceTypes, sp aztables.AccountSASPermissions) *aztables.ServiceClient {
	t.Helper()
	return e.signedClient(t, aztables.AccountSASSignatureValues{
		Protocol: aztables.SASProtocolHTTPSandHTTP, Permissions: sp.String(), Services: "t",
		ResourceTypes: srt.String(), ExpiryTime: time.Now().Add(time.Hour).UTC(),
	})
}

// signedClient returns a service client authenticated by the account SAS v signs.
func (e *env) signedClient(t *testing.T, v aztables.AccountSASSignatureValues) *aztables.ServiceClient {
	t.Helper()
	qps, err := v.Sign(e.cred)
	if err != nil {
		t.Fatal(err)
	}
	c, err := aztables.NewServiceClientWithNoCredential(e.url+"/?"+qps.Encode(), clientOptions())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestSDK_TableSAS(t *testing.T) {
	e := newEnv(t)
	e.table(t, "Secured")
	e.table(t, "Other")
	ra := e.tableSAS(t, "Secured", aztables.SASSignatureValues{Permissions: "ra"})
	t.Run("OK", func(t *testing.T) {
		if _, err := ra.AddEntity(ctx, props("p", "r", map[string]any{"A": "a"}), nil); err != nil {
			t.Fatal(err)
		}
		if got, _ := get(t, ra, "p", "r"); got.Properties["A"] != "a" {
			t.Fatalf("got %+v", got)
		}
		if n := countEntities(t, ra); n != 1 {
			t.Fatalf("listed %d entities", n)
		}
	})
	t.Run("ErrPermissionMismatch", func(t *testing.T) {
		_, err := ra.UpdateEntity(ctx, props("p", "r", nil), nil)
		wantCode(t, err, http.StatusForbidden, "AuthorizationPermissionMismatch")
		_, err = ra.DeleteEntity(ctx, "p", "r", nil)
		wantCode(t, err, http.StatusForbidden, "AuthorizationPermissionMismatch")
		_, err = ra.UpsertEntity(ctx, props("p", "r", nil), nil) // needs a and u
		wantCode(t, err, http.StatusForbidden, "AuthorizationPermissionMismatch")
	})
	t.Run("ErrBatchPermission", func(t *testing.T) {
		_, err := ra.SubmitTransaction(ctx, []aztables.TransactionAction{
			action(aztables.TransactionTypeAdd, "p", "b1", nil),
			action(aztables.TransactionTypeDelete, "p", "r", nil),
		}, nil)
		wantBatchError(t, err, "AuthorizationPermissionMismatch", "1:")
		if _, err := ra.GetEntity(ctx, "p", "b1", nil); err == nil {
			t.Fatal("a batch refused at operation 1 applied operation 0")
		}
	})
	t.Run("ErrOtherTable", func(t *testing.T) {
		// A SAS for Secured, used on the URL of Other.
		v := aztables.SASSignatureValues{TableName: "Secured", Permissions: "raud", ExpiryTime: time.Now().Add(time.Hour)}
		qs, _ := v.Sign(e.cred)
		c, _ := aztables.NewClientWithNoCredential(e.url+"/Other?"+qs, clientOptions())
		_, err := c.AddEntity(ctx, props("p", "r", nil), nil)
		wantCode(t, err, http.StatusForbidden, "AuthorizationFailure")
	})
	t.Run("ErrExpired", func(t *testing.T) {
		c := e.tableSAS(t, "Secured", aztables.SASSignatureValues{Permissions: "r", ExpiryTime: time.Now().Add(-time.Minute)})
		_, err := c.GetEntity(ctx, "p", "r", nil)
		wantCode(t, err, http.StatusForbidden, "AuthenticationFailed")
	})
	t.Run("ErrSignature", func(t *testing.T) {
		v := aztables.SASSignatureValues{TableName: "Secured", Permissions: "r", ExpiryTime: time.Now().Add(time.Hour)}
		qs, _ := v.Sign(e.cred)
		c, _ := aztables.NewClientWithNoCredential(e.url+"/Secured?"+qs+"&spk=p", clientOptions()) // spk not signed
		_, err := c.GetEntity(ctx, "p", "r", nil)
		wantCode(t, err, http.StatusForbidden, "AuthenticationFailed")
	})
}

func TestSDK_TableSASKeyRange(t *testing.T) {
	e := newEnv(t)
	owner := e.table(t, "Ranged")
	for _, pk := range []string{"a", "b", "c"} {
		for _, rk := range []string{"1", "2"} {
			if _, err := owner.AddEntity(ctx, props(pk, rk, nil), nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	c := e.tableSAS(t, "Ranged", aztables.SASSignatureValues{Permissions: "raud", StartPartitionKey: "b", EndPartitionKey: "b"})
	t.Run("OK", func(t *testing.T) {
		if _, err := c.GetEntity(ctx, "b", "1", nil); err != nil {
			t.Fatal(err)
		}
		if _, err := c.AddEntity(ctx, props("b", "3", nil), nil); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("QueryWithinRange", func(t *testing.T) {
		got := list(t, c, nil)
		if len(got.entities) != 3 {
			t.Fatalf("listed %d entities, want the 3 of partition b: %v", len(got.entities), got.entities)
		}
		for _, m := range got.entities {
			if m["PartitionKey"] != "b" {
				t.Fatalf("listed %v outside the SAS range", m)
			}
		}
	})
	t.Run("ErrOutsideRange", func(t *testing.T) {
		_, err := c.GetEntity(ctx, "a", "1", nil)
		wantCode(t, err, http.StatusForbidden, "AuthenticationFailed")
		_, err = c.AddEntity(ctx, props("c", "9", nil), nil)
		wantCode(t, err, http.StatusForbidden, "AuthenticationFailed")
	})
}

func TestSDK_AccountSAS(t *testing.T) {
	e := newEnv(t)
	e.table(t, "Acct")
	t.Run("OK", func(t *testing.T) {
		all := e.accountSAS(t, aztables.AccountSASResourceTypes{Service: true, Container: true, Object: true},
			aztables.AccountSASPermissions{Read: true, Write: true, Delete: true, List: true, Add: true, Create: true, Update: true})
		if _, err := all.CreateTable(ctx, "ViaSAS", nil); err != nil {
			t.Fatal(err)
		}
		c := all.NewClient("ViaSAS")
		if _, err := c.AddEntity(ctx, props("p", "r", nil), nil); err != nil {
			t.Fatal(err)
		}
		if _, err := c.UpsertEntity(ctx, props("p", "r", map[string]any{"A": "a"}), nil); err != nil {
			t.Fatal(err)
		}
		if n := len(listTablesWith(t, all)); n != 2 {
			t.Fatalf("listed %d tables", n)
		}
		if _, err := all.DeleteTable(ctx, "ViaSAS", nil); err != nil {
			t.Fatal(err)
		}
	})
	readObjects := e.accountSAS(t, aztables.AccountSASResourceTypes{Object: true}, aztables.AccountSASPermissions{Read: true})
	t.Run("ReadOnly", func(t *testing.T) {
		if _, err := readObjects.NewClient("Acct").NewListEntitiesPager(nil).NextPage(ctx); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("ErrPermissionMismatch", func(t *testing.T) {
		_, err := readObjects.NewClient("Acct").AddEntity(ctx, props("p", "r", nil), nil)
		wantCode(t, err, http.StatusForbidden, "AuthorizationPermissionMismatch")
	})
	t.Run("ErrResourceTypeMismatch", func(t *testing.T) {
		_, err := readObjects.CreateTable(ctx, "Nope", nil)
		wantCode(t, err, http.StatusForbidden, "AuthorizationResourceTypeMismatch")
		_, err = readObjects.NewListTablesPager(nil).NextPage(ctx)
		wantCode(t, err, http.StatusForbidden, "AuthorizationResourceTypeMismatch")
	})
}

// TestSDK_AccountSAS_sourceIP checks sip against the client's address, which the
// handler parses only for requests without an Authorization header.
func TestSDK_AccountSAS_sourceIP(t *testing.T) {
	e := newEnv(t)
	e.table(t, "Acct")
	from := func(ip string) *aztables.ServiceClient {
		return e.signedClient(t, aztables.AccountSASSignatureValues{
			Protocol: aztables.SASProtocolHTTPSandHTTP, Permissions: "r", Services: "t", ResourceTypes: "o",
			ExpiryTime: time.Now().Add(time.Hour).UTC(), IPRange: aztables.IPRange{Start: net.ParseIP(ip)},
		})
	}
	t.Run("OK", func(t *testing.T) {
		if _, err := from("127.0.0.1").NewClient("Acct").NewListEntitiesPager(nil).NextPage(ctx); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("ErrSourceIPMismatch", func(t *testing.T) {
		_, err := from("10.0.0.1").NewClient("Acct").NewListEntitiesPager(nil).NextPage(ctx)
		wantCode(t, err, http.StatusForbidden, "AuthorizationSourceIPMismatch")
	})
}

func TestSDK_SharedKey(t *testing.T) {
	e := newEnv(t)
	e.table(t, "Keyed")
	t.Run("ErrWrongKey", func(t *testing.T) {
		cred, _ := aztables.NewSharedKeyCredential("devstoreaccount1", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==")
		c, _ := aztables.NewServiceClientWithSharedKey(e.url, cred, clientOptions())
		_, err := c.CreateTable(ctx, "Nope", nil)
		wantCode(t, err, http.StatusForbidden, "AuthenticationFailed")
	})
	t.Run("ErrNoCredentials", func(t *testing.T) {
		c, _ := aztables.NewServiceClientWithNoCredential(e.url, clientOptions())
		_, err := c.NewListTablesPager(nil).NextPage(ctx)
		wantCode(t, err, http.StatusForbidden, "AuthenticationFailed")
	})
}

func listTablesWith(t *testing.T, c *aztables.ServiceClient) []string {
	t.Helper()
	var names []string
	pager := c.NewListTablesPager(nil)
	for pager.More() {
		p, err := pager.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, tb := range p.Tables {
			names = append(names, *tb.Name)
		}
	}
	return names
}
