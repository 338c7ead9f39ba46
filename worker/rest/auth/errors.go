package auth

import "errors"

// Errors of authentication and authorization. Verify and Authorize return them wrapped in
// an *AuthError.
var (
	// ErrAuthenticationFailed means the request's credentials are missing, malformed,
	// expired or do not match: Azure's 403 AuthenticationFailed.
	ErrAuthenticationFailed = errors.New("server failed to authenticate the request")
	// ErrAuthorizationFailure means the credentials are valid but do not cover the
	// resource, such as a table SAS used for another table: 403 AuthorizationFailure.
	ErrAuthorizationFailure = errors.New("request is not authorized to perform this operation")
	// ErrPermissionMismatch means a SAS lacks a permission the operation needs: 403
	// AuthorizationPermissionMismatch.
	ErrPermissionMismatch = errors.New("request is not authorized to perform this operation using this permission")
	// ErrResourceTypeMismatch means an account SAS does not cover the operation's resource
	// type (srt): 403 AuthorizationResourceTypeMismatch.
	ErrResourceTypeMismatch = errors.New("request is not authorized to perform this operation using this resource type")
	// ErrServiceMismatch means an account SAS does not cover the Table service (ss): 403
	// AuthorizationServiceMismatch.
	ErrServiceMismatch = errors.New("request is not authorized to perform this operation using this service")
	// ErrProtocolMismatch means a SAS allows https only and the request came over http:
	// 403 AuthorizationProtocolMismatch.
	ErrProtocolMismatch = errors.New("request is not authorized to perform this operation using this protocol")
	// ErrSourceIPMismatch means a SAS does not allow the client's address (sip): 403
	// AuthorizationSourceIPMismatch.
	ErrSourceIPMismatch = errors.New("request is not authorized to perform this operation using this source IP")
	// ErrTimeInvalid means a time is not one of the ISO 8601 forms Azure accepts.
	ErrTimeInvalid = errors.New("time is not an accepted ISO 8601 form")
)

// AuthError is an authentication or authorization failure: one of the sentinel errors and
// a detail for people (for AuthenticationFailed, Azure's AuthenticationErrorDetail; for
// AuthorizationSourceIPMismatch, the client address).
type AuthError struct {
	Err    error  // one of the sentinel errors of this package
	Detail string // may be empty
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

// azureErrors gives the Azure error code and message of each sentinel error.
var azureErrors = map[error][2]string{
	ErrAuthenticationFailed: {"AuthenticationFailed", "Server failed to authenticate the request. Make sure the value of Authorization header is formed correctly including the signature."},
	ErrAuthorizationFailure: {"AuthorizationFailure", "This request is not authorized to perform this operation."},
	ErrPermissionMismatch:   {"AuthorizationPermissionMismatch", "This request is not authorized to perform this operation using this permission."},
	ErrResourceTypeMismatch: {"AuthorizationResourceTypeMismatch", "This request is not authorized to perform this operation using this resource type."},
	ErrServiceMismatch:      {"AuthorizationServiceMismatch", "This request is not authorized to perform this operation using this service."},
	ErrProtocolMismatch:     {"AuthorizationProtocolMismatch", "This request is not authorized to perform this operation using this protocol."},
	ErrSourceIPMismatch:     {"AuthorizationSourceIPMismatch", "This request is not authorized to perform this operation using this source IP"},
}

// Code returns the Azure error code of the failure, such as "AuthenticationFailed". All
// of them are answered with HTTP status 403.
func (e *AuthError) Code() string {
	if c, ok := azureErrors[e.Err]; ok {
		return c[0]
	}
	return "AuthenticationFailed"
}

// Message returns Azure's message for the failure, without the RequestId and Time lines
// the REST layer appends.
func (e *AuthError) Message() string {
	c, ok := azureErrors[e.Err]
	switch {
	case !ok:
		return azureErrors[ErrAuthenticationFailed][1]
	case e.Err == ErrSourceIPMismatch:
		return c[1] + " " + e.Detail + "."
	}
	return c[1]
}

// fail returns an *AuthError of err with a detail.
func fail(err error, detail string) *AuthError { return &AuthError{Err: err, Detail: detail} }

// authFailed returns an AuthenticationFailed error with a detail.
func authFailed(detail string) *AuthError { return fail(ErrAuthenticationFailed, detail) }

// notWellFormed is Azure's detail for a SAS whose fields cannot be understood.
func notWellFormed(why string) *AuthError {
	return authFailed("Signature fields not well formed. " + why)
}
