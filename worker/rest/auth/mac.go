//go:build !js

package auth

import (
	"crypto/hmac"
	"crypto/sha256"
	"hash"
	"sync"
)

// macPools holds, per account key (its bytes as the map key), HMAC-SHA256 states keyed
// with it: a request reuses one rather than keying a new one, which costs allocations
// and two SHA-256 blocks.
var macPools struct {
	sync.RWMutex
	m map[string]*sync.Pool
}

// keyedMAC returns an HMAC-SHA256 state keyed with key, reset; give it back with
// releaseMAC.
func keyedMAC(key []byte) hash.Hash {
	m := macPool(key).Get().(hash.Hash)
	m.Reset()
	return m
}

// releaseMAC keeps m, keyed with key, for a later keyedMAC.
func releaseMAC(key []byte, m hash.Hash) { macPool(key).Put(m) }

// macPool returns the pool of HMAC-SHA256 states keyed with key.
func macPool(key []byte) *sync.Pool {
	macPools.RLock()
	p := macPools.m[string(key)]
	macPools.RUnlock()
	if p != nil {
		return p
	}
	macPools.Lock()
	defer macPools.Unlock()
	if p = macPools.m[string(key)]; p == nil {
		k := string(key)
		p = &sync.Pool{New: func() any { return hmac.New(sha256.New, []byte(k)) }}
		if macPools.m == nil {
			macPools.m = make(map[string]*sync.Pool)
		}
		macPools.m[k] = p
	}
	return p
}
