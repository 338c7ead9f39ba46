package batch

import (
	"crypto/rand"
	"encoding/hex"
)

// NewBoundaries returns fresh response boundaries, "batchresponse_<uuid>" and
// "changesetresponse_<uuid>", with random (version 4) UUIDs from crypto/rand.
func NewBoundaries() (batch, changeset string) {
	return "batchresponse_" + newUUID(), "changesetresponse_" + newUUID()
}

// newUUID returns a random version 4 UUID in its 36-character text form.
func newUUID() string {
	var u [16]byte
	rand.Read(u[:]) // never fails: crypto/rand.Read aborts the program instead
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	var s [36]byte
	hex.Encode(s[0:8], u[0:4])
	hex.Encode(s[9:13], u[4:6])
	hex.Encode(s[14:18], u[6:8])
	hex.Encode(s[19:23], u[8:10])
	hex.Encode(s[24:36], u[10:16])
	s[8], s[13], s[18], s[23] = '-', '-', '-', '-'
	return string(s[:])
}
