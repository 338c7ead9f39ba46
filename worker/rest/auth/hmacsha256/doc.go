// Package hmacsha256 is HMAC-SHA256 (RFC 2104 over FIPS 180-4 SHA-256) in plain Go, for
// the edge build only: importing crypto/sha256 or crypto/hmac links Go's FIPS 140 module
// (its AES, SHA-3, SHA-512 and DRBG code and the self-tests registered at init), a large
// share of the edge wasm's gzip budget for one MAC. Native builds keep crypto/hmac,
// whose assembly is much faster there; under js/wasm, where crypto/sha256 has no
// assembly either, the two cost about the same for a Shared Key string-to-sign
// (BenchmarkNew, side by side).
//
// Its tests compare every result with crypto/hmac and crypto/sha256 (fixed vectors from
// RFC 4231 and FIPS 180-4 examples, and a fuzz target over keys and messages).
package hmacsha256
