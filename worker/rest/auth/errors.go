package auth

import (
	"errors"

	"github.com/tabletopdb/tabletop/core/azerr"
)

// Errors of authentication and authorization. Verify and Authorize return them wrapped in
// an *AuthError.
var (
	// ErrAuthenticationFailed means the request's credentials are missing, malformed,
	// expired or do not match: Azure's 403 AuthenticationFailed.
	ErrAuthenticationFailed = azerr.New(azerr.AuthenticationFailed, "server failed to authenticate the request")
	// ErrInvalidToken means an OAuth bearer token is malformed, outside its lifetime, not
	// issued by Microsoft Entra ID or not meant for this account, or that the server takes
	// no bearer tokens: Azure's 401 InvalidAuthenticationInfo, answered with a bearer
	// challenge (AuthError.Challenge).
	ErrInvalidToken = azerr.New(azerr.InvalidAuthenticationInfo, "bearer token is not valid")
	// ErrAuthorizationFailure means the credentials are valid but do not cover the
	// resource, such as a table SAS used for another table: 403 AuthorizationFailure.
	ErrAuthorizationFailure = azerr.New(azerr.AuthorizationFailure, "request is not authorized to perform this operation")
	// ErrPermissionMismatch means a SAS lacks a permission the operation needs: 403
	// AuthorizationPermissionMismatch.
	ErrPermissionMismatch = azerr.New(azerr.AuthorizationPermissionMismatch, "request is not authorized to perform this operation using this permission")
	// ErrResourceTypeMismatch means an account SAS does not cover the operation's resource
	// type (srt): 403 AuthorizationResourceTypeMismatch.
	ErrResourceTypeMismatch = azerr.New(azerr.AuthorizationResourceTypeMismatch, "request is not authorized to perform this operation using this resource type")
	// ErrServiceMismatch means an account SAS does not cover the Table service (ss): 403
	// AuthorizationServiceMismatch.
	ErrServiceMismatch = azerr.New(azerr.AuthorizationServiceMismatch, "request is not authorized to perform this operation using this service")
	// ErrProtocolMismatch means a SAS allows https only and the request came over http:
	// 403 AuthorizationProtocolMismatch.
	ErrProtocolMismatch = azerr.New(azerr.AuthorizationProtocolMismatch, "request is not authorized to perform this operation using this protocol")
	// ErrSourceIPMismatch means a SAS does not allow the client's address (sip): 403
	// AuthorizationSourceIPMismatch.
	ErrSourceIPMismatch = azerr.New(azerr.AuthorizationSourceIPMismatch, "request is not authorized to perform this operation using this source IP")
	// ErrPolicyFieldRepeated means a SAS that names a stored access policy (si) also sets
	// a field the policy sets (sp, st or se): 400, as Azure's documentation of stored
	// access policies (Set Table ACL) gives.
	ErrPolicyFieldRepeated = azerr.New(azerr.InvalidQueryParameterValue, "a field of the stored access policy is set in the shared access signature too")
	// ErrTimeInvalid means a time is not one of the ISO 8601 forms Azure accepts.
	ErrTimeInvalid = errors.New("time is not an accepted ISO 8601 form")
)

// AuthError is an authentication or authorization failure: one of the sentinel errors and
// a detail for people (for AuthenticationFailed and InvalidAuthenticationInfo, Azure's
// AuthenticationErrorDetail; for AuthorizationSourceIPMismatch, the client address).
type AuthError struct {
	Err    error  // one of the sentinel errors of this package
	Detail string // may be empty
	// Challenge is, for ErrInvalidToken, the value of the WWW-Authenticate header to answer
	// with (BearerChallenge); empty otherwise.
	Challenge string
}

// Error implements error.
func (e *AuthError) Error() string {
	if e.Detail == "" {
		return e.Err.Error()
	}
	return e.Err.Error() + ": " + e.Detail
}

// Unwrap returns the sentinel error, so errors.Is sees through an AuthError.
func (e *AuthError) Unwrap() error { return e.Err }

// AzureCode implements azerr.Coded: the code of the sentinel error, its message naming
// the client's address for AuthorizationSourceIPMismatch. A failure without one of the
// sentinels is AuthenticationFailed.
func (e *AuthError) AzureCode() azerr.Code {
	var sentinel *azerr.Error
	if !errors.As(e.Err, &sentinel) {
		return azerr.AuthenticationFailed
	}
	return sentinel.AzureCode().Fill("", e.Detail)
}

// fail returns an *AuthError of err with a detail.
func fail(err error, detail string) *AuthError { return &AuthError{Err: err, Detail: detail} }

// authFailed returns an AuthenticationFailed error with a detail.
func authFailed(detail string) *AuthError { return fail(ErrAuthenticationFailed, detail) }

// notWellFormed is Azure's detail for a SAS whose fields cannot be understood.
func notWellFormed(why string) *AuthError {
	return authFailed("Signature fields not well formed. " + why)
}
