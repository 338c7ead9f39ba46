package auth

// OAuth bearer tokens (Microsoft Entra ID), for a server started to accept them: a
// request with "Authorization: Bearer <JWT>" over HTTPS authorizes like the account key
// once the token's claims hold. The signature is not verified, as Azurite's "basic" OAuth
// checks it: a local server has no tenant's keys to verify with; the claims are checked
// as Azure Storage checks them, so code that gets its tokens from Entra ID
// (DefaultAzureCredential and the like) runs unchanged.

// TokenVerifier verifies a bearer token for a request (the native server's: package
// entra).
type TokenVerifier interface {
	VerifyToken(r *Request, token string) (*Principal, error)
}

// A refused token is answered as Azure Storage answers it: 401 InvalidAuthenticationInfo
// with a bearer challenge, "WWW-Authenticate: Bearer authorization_uri=… resource_id=…",
// upon which a client asks its identity provider for a new token. Azure names the
// storage account's tenant; a local server has none, so the challenge names the token's
// (its tid claim, or the tenant of its issuer) or, for a token that does not read,
// "common". A bearer token over HTTP stays 403 AuthenticationFailed: it is refused before
// it is read.

// verifyBearer checks a bearer token: only over HTTPS, as Azure Storage requires, and
// only when the server takes tokens (Request.Tokens).
func verifyBearer(r *Request, token string) (*Principal, error) {
	if !r.Secure {
		return nil, authFailed("Authentication scheme Bearer is not allowed with HTTP.")
	}
	if r.Tokens == nil {
		return nil, TokenRefused("", "The authorization scheme 'Bearer' is not supported: the server takes no OAuth tokens.")
	}
	// The verifier gets a copy: a Request handed to an interface escapes to the heap, and
	// so would Verify's, on every request, bearer or not.
	req := *r
	return r.Tokens.VerifyToken(&req, token)
}

// TokenRefused returns the ErrInvalidToken error of a bearer token, with Azure's detail and
// a challenge naming tenant ("common" for "" or a value that is no tenant).
func TokenRefused(tenant, detail string) *AuthError {
	return &AuthError{Err: ErrInvalidToken, Detail: detail, Challenge: BearerChallenge(tenant)}
}

// BearerChallenge returns the WWW-Authenticate value of a refused bearer token: Microsoft
// Entra ID's authorization endpoint for tenant ("common" for "" or a value that is no
// tenant) and Azure Storage's resource ID.
func BearerChallenge(tenant string) string {
	if !isTenant(tenant) {
		tenant = "common"
	}
	return "Bearer authorization_uri=https://login.microsoftonline.com/" + tenant + "/oauth2/authorize resource_id=https://storage.azure.com"
}

// isTenant reports whether s may name a tenant of Microsoft Entra ID: its ID (a GUID) or
// one of its domains. It keeps whatever a token claims out of the header unless it is
// one.
func isTenant(s string) bool {
	if s == "" || len(s) > 253 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}
