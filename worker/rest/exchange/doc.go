// Package exchange is one HTTP exchange as worker/rest sees it, without net/http: a
// Request (method, target, headers, body), a ResponseWriter (status, headers, body) and
// the Handler that answers one with the other, plus the few pieces of HTTP vocabulary
// the protocol needs (canonical header names, status texts, the HTTP date format, media
// types as mime.ParseMediaType parses them).
//
// It exists so that the edge build, which never listens on a socket, does not link
// net/http: net/http's package initialisation pulls crypto/tls, crypto/x509 and the
// rest of a network stack into the binary, a large share of the edge wasm. Three hosts
// fill these types: the native server's HTTP/1.1 layer (worker/native/http1) reads each
// request straight into a Request; the edge bridge (worker/edge/bridge) fills one from
// what JavaScript hands it; and worker/rest/nethttp adapts net/http to them, for tests and
// for programs that embed the REST API in their own net/http server.
//
// The types mirror net/http's where they overlap, so that the protocol code reads the
// same and behaves the same byte for byte: Header is a map from canonical names to
// values with the same Get, Set, Add, Values and Del, CanonicalKey spells a name as
// net/textproto does and ParseMediaType parses as mime does (fuzz tests hold each pair
// together), so that the edge build links neither net/http nor mime.
package exchange
