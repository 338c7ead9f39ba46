//go:build !js

package rest_test

import (
	"context"
	"crypto/tls"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/worker/native/http1"
	"github.com/tabletopdb/tabletop/worker/native/tlstest"
	"github.com/tabletopdb/tabletop/worker/rest"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
	"github.com/tabletopdb/tabletop/worker/rest/auth/entra"
)

// tokenService serves a store over HTTPS with bearer tokens accepted (entra.Tokens, the
// native server's -oauth) and returns a Go SDK service client whose credential is cred.
func tokenService(t *testing.T, cred azcore.TokenCredential) *aztables.ServiceClient {
	t.Helper()
	base, transport := tokenServer(t)
	svc, err := aztables.NewServiceClient(base, cred,
		&aztables.ClientOptions{ClientOptions: policy.ClientOptions{Transport: transport, Retry: policy.RetryOptions{MaxRetries: -1}}})
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

// tokenServer serves a store over HTTPS with bearer tokens accepted and returns the
// account's URL and a client that trusts the server's certificate.
func tokenServer(t *testing.T) (string, *http.Client) {
	t.Helper()
	st, err := core.Open(core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	h, err := rest.New(rest.Options{Accounts: []*rest.Account{{Account: auth.DevAccount(), Store: st}}, Tokens: entra.Tokens{}})
	if err != nil {
		t.Fatal(err)
	}
	cert := tlstest.NewCertificate(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &http1.Server{Handler: h}
	go s.Serve(tls.NewListener(ln, cert.ServerConfig(t)))
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		s.Shutdown(ctx)
	})
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: cert.Pool}}}
	return "https://" + ln.Addr().String() + "/" + auth.DevAccountName, client
}

// TestSDK_TokenCredential: the Go SDK with a token credential does over HTTPS what it does
// with the account key: tables, every entity write, queries, a batch, and a token for
// another account's Table service is refused.
func TestSDK_TokenCredential(t *testing.T) {
	svc := tokenService(t, tlstest.EntraToken{})
	if _, err := svc.CreateTable(ctx, "Tokens", nil); err != nil {
		t.Fatal(err)
	}
	c := svc.NewClient("Tokens")
	if _, err := c.AddEntity(ctx, []byte(`{"PartitionKey":"p","RowKey":"1","V":1}`), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := c.UpsertEntity(ctx, []byte(`{"PartitionKey":"p","RowKey":"2","V":2}`), &aztables.UpsertEntityOptions{UpdateMode: aztables.UpdateModeMerge}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.UpdateEntity(ctx, []byte(`{"PartitionKey":"p","RowKey":"1","V":10}`), &aztables.UpdateEntityOptions{UpdateMode: aztables.UpdateModeReplace}); err != nil {
		t.Fatal(err)
	}
	ops := []aztables.TransactionAction{{ActionType: aztables.TransactionTypeAdd, Entity: []byte(`{"PartitionKey":"p","RowKey":"3","V":3}`)}}
	if _, err := c.SubmitTransaction(ctx, ops, nil); err != nil {
		t.Fatal(err)
	}
	page, err := c.NewListEntitiesPager(&aztables.ListEntitiesOptions{Filter: to.Ptr("V gt 2")}).NextPage(ctx)
	if err != nil || len(page.Entities) != 2 {
		t.Fatalf("query: %d entities, err %v", len(page.Entities), err)
	}
	if _, err := c.DeleteEntity(ctx, "p", "2", nil); err != nil {
		t.Fatal(err)
	}
	tables, err := svc.NewListTablesPager(nil).NextPage(ctx)
	if err != nil || len(tables.Tables) != 1 {
		t.Fatalf("list tables: %+v, %v", tables.Tables, err)
	}
	if _, err := svc.DeleteTable(ctx, "Tokens", nil); err != nil {
		t.Fatal(err)
	}
	t.Run("ErrOtherAccount", func(t *testing.T) {
		other := tokenService(t, tlstest.EntraToken{Audience: "https://someoneelse.table.core.windows.net"})
		_, err := other.CreateTable(ctx, "Tokens", nil)
		wantChallenge(t, err, entraTenant)
	})
	t.Run("ErrExpired", func(t *testing.T) {
		// The SDK's bearer policy forgets its token on a 401 with a challenge; it asks for a
		// new one on the next request, not again for this one: one token per operation.
		cred := &countingToken{exp: time.Now().Add(-time.Minute)}
		expired := tokenService(t, cred)
		_, err := expired.CreateTable(ctx, "Tokens", nil)
		wantChallenge(t, err, entraTenant)
		_, err = expired.NewListTablesPager(nil).NextPage(ctx)
		wantChallenge(t, err, entraTenant)
		if cred.calls != 2 {
			t.Fatalf("%d tokens asked for by two operations, want 2", cred.calls)
		}
	})
}

// entraTenant is the tenant of tlstest.EntraToken's issuer.
const entraTenant = "72f988bf-86f1-41af-91ab-2d7cd011db47"

// wantChallenge fails t unless err is Azure's answer to a refused bearer token: 401
// InvalidAuthenticationInfo with a bearer challenge naming tenant.
func wantChallenge(t *testing.T, err error, tenant string) {
	t.Helper()
	wantCode(t, err, http.StatusUnauthorized, "InvalidAuthenticationInfo")
	var re *azcore.ResponseError
	errors.As(err, &re)
	want := "Bearer authorization_uri=https://login.microsoftonline.com/" + tenant + "/oauth2/authorize resource_id=https://storage.azure.com"
	if got := re.RawResponse.Header.Get("WWW-Authenticate"); got != want {
		t.Fatalf("WWW-Authenticate %q, want %q", got, want)
	}
}

// countingToken is a token credential handing out tokens of Microsoft Entra ID for Azure
// Storage that expire at exp, counting them.
type countingToken struct {
	exp   time.Time
	calls int
}

func (c *countingToken) GetToken(context.Context, policy.TokenRequestOptions) (azcore.AccessToken, error) {
	c.calls++
	return azcore.AccessToken{Token: rawToken(map[string]any{"aud": "https://storage.azure.com", "iss": "https://sts.windows.net/" + entraTenant + "/",
		"nbf": c.exp.Add(-time.Hour).Unix(), "exp": c.exp.Unix()}), ExpiresOn: time.Now().Add(time.Hour)}, nil
}

// rawToken is an unsigned JWT with claims.
func rawToken(claims map[string]any) string {
	b, _ := json.Marshal(claims)
	enc := base64.RawURLEncoding.EncodeToString
	return enc([]byte(`{"alg":"RS256","typ":"JWT"}`)) + "." + enc(b) + ".c2ln"
}

// TestTokenRefused_Answer: a refused bearer token is answered 401 InvalidAuthenticationInfo
// with Azure's bearer challenge and the detail, in JSON and in XML; the tenant is the
// token's, or "common" for a token that does not read. Shared Key failures keep their 403.
func TestTokenRefused_Answer(t *testing.T) {
	base, client := tokenServer(t)
	expired := rawToken(map[string]any{"aud": "https://storage.azure.com", "iss": "https://sts.windows.net/" + entraTenant + "/",
		"nbf": time.Now().Add(-2 * time.Hour).Unix(), "exp": time.Now().Add(-time.Hour).Unix()})
	for _, tc := range []struct {
		name, target, auth string
		status             int
		code, challenge    string
		detail             string // in the XML answer's AuthenticationErrorDetail
	}{
		{name: "JSON", target: "/Tables", auth: "Bearer " + expired, status: 401, code: "InvalidAuthenticationInfo",
			challenge: "Bearer authorization_uri=https://login.microsoftonline.com/" + entraTenant + "/oauth2/authorize resource_id=https://storage.azure.com"},
		{name: "XML", target: "/?restype=service&comp=properties", auth: "Bearer " + expired, status: 401, code: "InvalidAuthenticationInfo",
			challenge: "Bearer authorization_uri=https://login.microsoftonline.com/" + entraTenant + "/oauth2/authorize resource_id=https://storage.azure.com",
			detail:    "<AuthenticationErrorDetail>Lifetime validation failed. The token is expired.</AuthenticationErrorDetail>"},
		{name: "Malformed", target: "/?restype=service&comp=properties", auth: "Bearer not-a-jwt", status: 401, code: "InvalidAuthenticationInfo",
			challenge: "Bearer authorization_uri=https://login.microsoftonline.com/common/oauth2/authorize resource_id=https://storage.azure.com",
			detail:    "<AuthenticationErrorDetail>The bearer token is not a JWT.</AuthenticationErrorDetail>"},
		{name: "SharedKeyUnchanged", target: "/Tables", auth: "SharedKeyLite devstoreaccount1:c2ln", status: 403, code: "AuthenticationFailed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest("GET", base+tc.target, nil)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Authorization", tc.auth)
			req.Header.Set("x-ms-date", time.Now().UTC().Format(http.TimeFormat))
			req.Header.Set("x-ms-version", "2020-12-06")
			res, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != tc.status || res.Header.Get("x-ms-error-code") != tc.code || res.Header.Get("WWW-Authenticate") != tc.challenge {
				t.Fatalf("%d %s, WWW-Authenticate %q; want %d %s, %q\n%s", res.StatusCode, res.Header.Get("x-ms-error-code"), res.Header.Get("WWW-Authenticate"), tc.status, tc.code, tc.challenge, body)
			}
			if tc.status == 401 && !strings.Contains(string(body), "Server failed to authenticate the request. Please refer to the information in the www-authenticate header.") {
				t.Fatalf("body %s, want Azure's message", body)
			}
			if !strings.Contains(string(body), tc.detail) {
				t.Fatalf("body %s, want %s", body, tc.detail)
			}
		})
	}
}
