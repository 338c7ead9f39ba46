package hmacsha256

import (
	"crypto/hmac"
	"crypto/sha256"
	"hash"
	"strconv"
	"testing"
)

// BenchmarkNew keys a MAC and signs a message of a Shared Key string-to-sign's size and
// larger, with this package and with crypto/hmac side by side (under js/wasm both run
// portable Go: GOOS=js GOARCH=wasm go test -bench . -exec=$(go env GOROOT)/lib/wasm/go_js_wasm_exec).
func BenchmarkNew(b *testing.B) {
	key := make([]byte, 64)
	for _, n := range []int{200, 4096} {
		msg := make([]byte, n)
		for _, impl := range []struct {
			name   string
			newMAC func([]byte) hash.Hash
		}{
			{"hmacsha256", New},
			{"crypto", func(k []byte) hash.Hash { return hmac.New(sha256.New, k) }},
		} {
			newMAC := impl.newMAC
			b.Run(impl.name+"/n="+strconv.Itoa(n), func(b *testing.B) {
				b.SetBytes(int64(n))
				var sum [Size]byte
				for b.Loop() {
					m := newMAC(key)
					m.Write(msg)
					m.Sum(sum[:0])
				}
			})
		}
	}
}
