//go:build js && wasm

package auth

import (
	"crypto/hmac"
	"crypto/sha256"
	"hash"
)

// keyedMAC returns an HMAC-SHA256 state keyed with key. Under js/wasm each is keyed
// anew: a Durable Object serves one request at a time, and pooling states (mac.go) would
// cost the edge build about a kilobyte of its 1.5 MB.
func keyedMAC(key []byte) hash.Hash { return hmac.New(sha256.New, key) }

// releaseMAC does nothing under js/wasm: states are not kept.
func releaseMAC([]byte, hash.Hash) {}
