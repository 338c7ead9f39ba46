// Package xmldoc reads and writes the account-level XML documents of the Azure Table
// service: table ACLs (stored access policies), service properties (analytics settings
// and CORS rules), service stats and XML error bodies; and it evaluates CORS rules for
// preflight and actual requests as Azure Storage does.
//
// # Table ACL
//
// ParseACL reads <SignedIdentifiers> (elements in any order; an empty body clears the
// ACL) and WriteACL writes it back. At most five identifiers, each with an Id of 1 to 64
// characters (unique); Start and Expiry are optional ISO 8601 times, normalized to
// Azure's 2006-01-02T15:04:05.0000000Z form; Permission is optional, letters of "raud"
// in any order, each at most once, normalized to "raud" order. Anything else is
// ErrXMLInvalid (400 InvalidXmlDocument).
//
// # Service properties
//
// ParseProperties reads <StorageServiceProperties>. As in Azure (2013-08-15 and later) a
// PUT may omit any of Logging, HourMetrics, MinuteMetrics and Cors, which keep their
// previous values: the REST layer stores Merge(old, parsed), starting from
// DefaultProperties. An element that is given must be complete, with these exceptions
// where the Go SDK's model makes a child optional: a Metrics Version defaults to "1.0",
// a missing Metrics RetentionPolicy means disabled, and IncludeAPIs is needed only when
// metrics are enabled. Retention days run from 1 to 365. CORS: at most five rules; every
// rule needs AllowedOrigins, AllowedMethods, AllowedHeaders, ExposedHeaders and
// MaxAgeInSeconds (the header lists may be empty); methods from DELETE, GET, HEAD, MERGE,
// POST, OPTIONS, PUT and PATCH; at most 64 origins, 64 literal and 2 prefixed ("x-ms-*")
// headers per list, 256 characters per item and 2 KiB for all CORS values together.
//
// # CORS
//
// Preflight and ActualRequestHeaders follow "CORS support for the Azure Storage
// services": rules are tried in order and the first whose origins and methods match is
// chosen; for a preflight its allowed headers must then cover every requested header, or
// the preflight fails (403 CorsPreflightFailure) even if a later rule would allow it.
// Origins match "*", exactly, or by a subdomain wildcard ("https://*.contoso.com");
// unlike the Azure page, which says case-sensitive, scheme and host are compared
// case-insensitively (browsers send them in lower case anyway). Allowed and exposed
// headers match case-insensitively, a trailing "*" matching any header with that prefix.
// A preflight answer echoes the origin, the requested method and headers, with
// Access-Control-Max-Age and Access-Control-Allow-Credentials. On actual requests a rule
// allowing all origins gives Access-Control-Allow-Origin: *; an exact match echoes the
// origin with Access-Control-Allow-Credentials, and GET/HEAD answers carry Vary: Origin
// as the page's table says.
//
// # XML
//
// The package reads and writes its documents itself (xmlread.go, xmlbind.go,
// xmlwrite.go) rather than with encoding/xml, whose reflection-driven code would be a
// large share of the edge build's code. It reads as encoding/xml's Unmarshal reads into
// the same structs, strictly (the five predefined entities and character references, the
// characters XML allows, "]]>" only ending CDATA, an XML declaration of version 1.0 and
// UTF-8; what follows the root element is not read), and writes the bytes Marshal would
// write; fuzz tests hold the two together. One difference is kept: an element or
// attribute name with a non-ASCII character that XML 1.0 does not allow in names (such
// as "×") is read, where encoding/xml refuses the document.
//
// The package compiles for GOOS=js GOARCH=wasm and links neither net/http nor encoding/xml.
package xmldoc
