package hmacsha256

import "hash"

// mac is an HMAC-SHA256 state (RFC 2104): the inner digest runs over the key XOR ipad
// and the message; Sum closes it with the outer digest over the key XOR opad.
type mac struct {
	inner, outer digest
	ipad, opad   [BlockSize]byte
}

// New returns an HMAC-SHA256 keyed with key, as crypto/hmac.New(sha256.New, key) does: a
// key longer than a block is hashed first.
func New(key []byte) hash.Hash {
	m := &mac{}
	if len(key) > BlockSize {
		var d digest
		d.reset()
		d.write(key)
		key = d.sum(nil)
	}
	copy(m.ipad[:], key)
	copy(m.opad[:], key)
	for i := range m.ipad {
		m.ipad[i] ^= 0x36
		m.opad[i] ^= 0x5c
	}
	m.Reset()
	return m
}

// Write adds p to the message; it never fails.
func (m *mac) Write(p []byte) (int, error) {
	m.inner.write(p)
	return len(p), nil
}

// Sum appends the MAC of the message so far to b, leaving the state unchanged.
func (m *mac) Sum(b []byte) []byte {
	var in [Size]byte
	m.outer.reset()
	m.outer.write(m.opad[:])
	m.outer.write(m.inner.sum(in[:0]))
	return m.outer.sum(b)
}

// Reset starts a new message under the same key.
func (m *mac) Reset() {
	m.inner.reset()
	m.inner.write(m.ipad[:])
}

// Size is the MAC's length, 32 bytes.
func (m *mac) Size() int { return Size }

// BlockSize is SHA-256's block length, 64 bytes.
func (m *mac) BlockSize() int { return BlockSize }
