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

// verifyBearer checks a bearer token: only over HTTPS, as Azure Storage requires.
func verifyBearer(r *Request, token string) (*Principal, error) {
	if !r.Secure {
		return nil, authFailed("Authentication scheme Bearer is not allowed with HTTP.")
	}
	return r.Tokens.VerifyToken(r, token)
}
