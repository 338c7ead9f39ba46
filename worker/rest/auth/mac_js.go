//go:build js && wasm

package auth

import (
	"hash"

	"github.com/tabletopdb/tabletop/worker/rest/auth/hmacsha256"
)

// keyedMAC returns an HMAC-SHA256 state keyed with key. Under js/wasm each is keyed
// anew: a Durable Object serves one request at a time, and pooling states (mac.go) would
// add code to the edge build for nothing. It is hmacsha256's, not crypto/hmac's:
// crypto/hmac and crypto/sha256 link Go's FIPS 140 module, a large share of the edge
// wasm for one MAC, and are no faster under js/wasm.
func keyedMAC(key []byte) hash.Hash { return hmacsha256.New(key) }

// releaseMAC does nothing under js/wasm: states are not kept.
func releaseMAC([]byte, hash.Hash) {}
