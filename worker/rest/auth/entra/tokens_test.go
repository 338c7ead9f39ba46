package entra

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tabletopdb/tabletop/core/azerr"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
	"github.com/tabletopdb/tabletop/worker/rest/nethttp"
)

// testNow is the server clock of the tests.
var testNow = time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)

// jwt makes an unsigned JWT with claims, as a test's token credential hands out.
func jwt(t testing.TB, claims map[string]any) string {
	t.Helper()
	b, err := json.Marshal(claims)
	if err != nil {
		t.Fatal(err)
	}
	enc := base64.RawURLEncoding.EncodeToString
	return enc([]byte(`{"alg":"RS256","typ":"JWT"}`)) + "." + enc(b) + ".c2lnbmF0dXJl"
}

// goodClaims are the claims of a token Microsoft Entra ID issues for Azure Storage, valid
// at testNow.
func goodClaims() map[string]any {
	return map[string]any{
		"aud": "https://storage.azure.com", "iss": "https://sts.windows.net/72f988bf-86f1-41af-91ab-2d7cd011db47/",
		"nbf": testNow.Unix() - 60, "iat": testNow.Unix() - 60, "exp": testNow.Unix() + 3600,
	}
}

func TestVerify_Bearer(t *testing.T) {
	// with returns goodClaims with each claim of kv (name, value, name, value…) set, or
	// removed for a nil value.
	with := func(kv ...any) map[string]any {
		c := goodClaims()
		for i := 0; i < len(kv); i += 2 {
			if k := kv[i].(string); kv[i+1] == nil {
				delete(c, k)
			} else {
				c[k] = kv[i+1]
			}
		}
		return c
	}
	const tenant = "72f988bf-86f1-41af-91ab-2d7cd011db47" // the tenant of goodClaims' issuer
	tests := []struct {
		name   string
		token  string
		http   bool // over plain HTTP
		tokens auth.TokenVerifier
		detail string // "" for success
		tenant string // the tenant the challenge names; "" when the failure is not a refused token
	}{
		{name: "OK", token: jwt(t, goodClaims())},
		{name: "OK/AudienceWithSlash", token: jwt(t, with("aud", "https://storage.azure.com/"))},
		{name: "OK/AudienceAppID", token: jwt(t, with("aud", "e406a681-f3d4-42a8-90b6-c2b029497af1"))},
		{name: "OK/AudienceAccount", token: jwt(t, with("aud", "https://devstoreaccount1.table.core.windows.net/"))},
		{name: "OK/AudienceList", token: jwt(t, with("aud", []string{"https://other.example", "https://storage.azure.com"}))},
		{name: "OK/IssuerV2", token: jwt(t, with("iss", "https://login.microsoftonline.com/72f988bf-86f1-41af-91ab-2d7cd011db47/v2.0"))},
		{name: "ErrExpired", token: jwt(t, with("exp", testNow.Unix()-1)), detail: "Lifetime validation failed. The token is expired.", tenant: tenant},
		{name: "ErrNotYetValid", token: jwt(t, with("nbf", testNow.Unix()+60)), detail: "not valid yet", tenant: tenant},
		{name: "ErrNoLifetime", token: jwt(t, with("exp", nil)), detail: "no lifetime", tenant: tenant},
		{name: "ErrIssuer", token: jwt(t, with("iss", "https://evil.example/")), detail: "Issuer validation failed", tenant: "common"},
		{name: "ErrTenantOfIssuer", token: jwt(t, with("iss", "https://login.microsoftonline.com/contoso.onmicrosoft.com/v2.0", "aud", "https://other.example")), detail: "Audience validation failed", tenant: "contoso.onmicrosoft.com"},
		{name: "ErrAudienceOtherAccount", token: jwt(t, with("aud", "https://other.table.core.windows.net")), detail: "Audience validation failed", tenant: tenant},
		{name: "ErrAudienceOtherService", token: jwt(t, with("aud", "https://devstoreaccount1.blob.core.windows.net")), detail: "Audience validation failed", tenant: tenant},
		{name: "ErrTenantClaim", token: jwt(t, with("exp", testNow.Unix()-1, "tid", "f8cdef31-a31e-4b4a-93e4-5f571e91255a")), detail: "expired", tenant: "f8cdef31-a31e-4b4a-93e4-5f571e91255a"},
		{name: "ErrTenantClaimNotATenant", token: jwt(t, with("exp", testNow.Unix()-1, "tid", "x\r\nSet-Cookie: a=b")), detail: "expired", tenant: "common"},
		{name: "ErrNotJWT", token: "abc", detail: "not a JWT", tenant: "common"},
		{name: "ErrClaims", token: "a.!!!.c", detail: "do not decode", tenant: "common"},
		{name: "ErrNotAccepted", token: jwt(t, goodClaims()), tokens: nilTokens{}, detail: "'Bearer' is not supported", tenant: "common"},
		// Over HTTP a bearer token is refused before it is read, as today: 403.
		{name: "ErrOverHTTP", token: jwt(t, goodClaims()), http: true, detail: "not allowed with HTTP"},
		{name: "ErrOverHTTPNotAccepted", token: jwt(t, goodClaims()), http: true, tokens: nilTokens{}, detail: "not allowed with HTTP"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest("GET", "/devstoreaccount1/Tables", nil)
			req.Header.Set("Authorization", "Bearer "+tt.token)
			r := auth.Request{HTTP: nethttp.Request(req), Account: auth.DevAccount(), Now: testNow, Secure: !tt.http, Tokens: Tokens{}}
			if _, ok := tt.tokens.(nilTokens); ok {
				r.Tokens = nil
			}
			p, err := auth.Verify(r)
			if tt.detail == "" {
				if err != nil || p.Kind != auth.Bearer || p.Authorize(auth.Access{OwnerOnly: true}) != nil {
					t.Fatalf("principal %+v, err %v", p, err)
				}
				return
			}
			var ae *auth.AuthError
			if !errors.As(err, &ae) || !strings.Contains(ae.Detail, tt.detail) {
				t.Fatalf("err %v, want an AuthError saying %q", err, tt.detail)
			}
			a := azerr.Of(err)
			if tt.tenant == "" {
				if !errors.Is(err, auth.ErrAuthenticationFailed) || a.Status != 403 || a.Code != "AuthenticationFailed" || ae.Challenge != "" {
					t.Fatalf("err %v answers %d %s, challenge %q; want 403 AuthenticationFailed and none", err, a.Status, a.Code, ae.Challenge)
				}
				return
			}
			want := "Bearer authorization_uri=https://login.microsoftonline.com/" + tt.tenant + "/oauth2/authorize resource_id=https://storage.azure.com"
			if !errors.Is(err, auth.ErrInvalidToken) || a.Status != 401 || a.Code != "InvalidAuthenticationInfo" || ae.Challenge != want {
				t.Fatalf("err %v answers %d %s, challenge %q; want 401 InvalidAuthenticationInfo and %q", err, a.Status, a.Code, ae.Challenge, want)
			}
		})
	}
}

// nilTokens marks a case whose request has no TokenVerifier.
type nilTokens struct{}

func (nilTokens) VerifyToken(*auth.Request, string) (*auth.Principal, error) { return nil, nil }
