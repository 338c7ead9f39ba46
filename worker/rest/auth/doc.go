// Package auth authenticates and authorizes Azure Table service requests the way Azure
// Storage does: Shared Key, Shared Key Lite, table (service) SAS and account SAS, and
// OAuth bearer tokens through a TokenVerifier (bearer.go).
//
// Verify turns an HTTP request into a Principal; Principal.Authorize then checks that the
// principal may perform one operation, described by an Access (For builds the Access of
// each Table service operation from Azure's permission tables). Every failure is an
// *AuthError that wraps one of the sentinel errors below, each declared with its Azure
// error code (core/azerr); the AuthError adds, for AuthenticationFailed and
// InvalidAuthenticationInfo, the AuthenticationErrorDetail (AuthError.Detail), and for a
// refused bearer token (ErrInvalidToken, 401) the bearer challenge (AuthError.Challenge).
//
// # Rules and choices
//
//   - No credentials at all is ErrAuthenticationFailed: anonymous access is not allowed.
//   - An Authorization header takes precedence: when a request carries both an
//     Authorization header and SAS query parameters, only the header is checked.
//   - Shared Key and Shared Key Lite requests must carry x-ms-date or Date, within
//     DefaultClockSkew (15 minutes, as Azure) of Request.Now in either direction;
//     Request.MaxClockSkew changes that and a negative value turns the check off.
//   - Signatures are compared in constant time against every key of the account
//     (primary and secondary).
//   - A SAS with sig and tn (and no ss/srt) is a table SAS; one with ss or srt is an
//     account SAS. Table SAS versions from 2012-02-12 are understood (the string to sign
//     gained the "/table" prefix in 2015-02-21 and sip/spr in 2015-04-05); account SAS
//     needs 2015-04-05 or later. From 2020-12-06 the account SAS string to sign ends with
//     the encryption scope (ses); when ses is empty the older form is accepted too,
//     because the Go SDK still signs that form whatever version it is asked for.
//   - A table SAS naming a stored access policy (si) takes start, expiry and
//     permissions from the policy; a field set in both places is ErrAuthenticationFailed
//     ("Access policy fields can be associated with signature or SAS identifier but not
//     both"), where Azure's documentation speaks of a 400.
//   - A table SAS grants entity operations on its own table only (tn, compared
//     case-insensitively). Query Tables, Create/Delete Table, ACL and service operations
//     with a table SAS, or a different table, are ErrAuthorizationFailure (403
//     AuthorizationFailure), as Azure answers.
//   - SAS key ranges (spk, srk, epk, erk) are inclusive tuple bounds on (PartitionKey,
//     RowKey): spk alone bounds the partition key only, srk needs spk and erk needs epk.
//     An entity operation outside the range is ErrAuthenticationFailed with a detail;
//     queries are not refused but must be narrowed to Principal.KeyRange.
//   - Account SAS: ss must contain "t" (else ErrServiceMismatch), the operation's
//     resource type must be in srt (else ErrResourceTypeMismatch), and its permissions in
//     sp (else ErrPermissionMismatch); Write also grants Create, as Azure's "Create Table:
//     c or w" says. Get/Set Table ACL are for Shared Key only.
//   - spr=https refuses requests that did not come over https (ErrProtocolMismatch);
//     sip refuses other client addresses (ErrSourceIPMismatch).
//
// The package compiles for GOOS=js GOARCH=wasm; it uses net/http for its types only.
package auth
