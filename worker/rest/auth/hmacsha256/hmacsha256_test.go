package hmacsha256

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
)

// TestNew_Sum checks fixed vectors: RFC 4231's HMAC-SHA-256 test cases 1, 2, 4, 6 and 7
// (a short key, a key shorter than the output, a long message, and keys longer than a
// block), and agreement with crypto/hmac across the padding boundaries.
func TestNew_Sum(t *testing.T) {
	rep := func(b byte, n int) []byte { return bytes.Repeat([]byte{b}, n) }
	seq := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(i + 1)
		}
		return b
	}
	t.Run("OK", func(t *testing.T) {
		for _, tc := range []struct {
			name      string
			key, data []byte
			want      string
		}{
			{"rfc4231-1", rep(0x0b, 20), []byte("Hi There"), "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"},
			{"rfc4231-2", []byte("Jefe"), []byte("what do ya want for nothing?"), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"},
			{"rfc4231-4", seq(25), rep(0xcd, 50), "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"},
			{"rfc4231-6", rep(0xaa, 131), []byte("Test Using Larger Than Block-Size Key - Hash Key First"), "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"},
			{"rfc4231-7", rep(0xaa, 131), []byte("This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm."), "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"},
		} {
			m := New(tc.key)
			m.Write(tc.data)
			if got := hex.EncodeToString(m.Sum(nil)); got != tc.want {
				t.Errorf("%s: got %s, want %s", tc.name, got, tc.want)
			}
		}
	})
	t.Run("OK/lengths", func(t *testing.T) {
		for _, keyLen := range []int{0, 1, 32, 63, 64, 65, 200} {
			for n := 0; n <= 3*BlockSize+1; n++ {
				key, msg := seq(keyLen), []byte(strings.Repeat("abcdefg", n)[:n])
				assertSame(t, key, [][]byte{msg})
			}
		}
	})
}

// TestMac_Reset checks that Sum leaves the state as it was and Reset starts a new
// message under the same key.
func TestMac_Reset(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		m := New([]byte("key"))
		m.Write([]byte("first message"))
		first := m.Sum(nil)
		if again := m.Sum(nil); !bytes.Equal(first, again) {
			t.Fatalf("a second Sum differs: %x, %x", first, again)
		}
		m.Write([]byte(" and more"))
		want := hmac.New(sha256.New, []byte("key"))
		want.Write([]byte("first message and more"))
		if got := m.Sum([]byte("prefix")); !bytes.Equal(got, append([]byte("prefix"), want.Sum(nil)...)) {
			t.Fatalf("Sum after Sum and Write: got %x", got)
		}
		m.Reset()
		m.Write([]byte("first message"))
		if got := m.Sum(nil); !bytes.Equal(got, first) {
			t.Fatalf("after Reset: got %x, want %x", got, first)
		}
		if m.Size() != sha256.Size || m.BlockSize() != sha256.BlockSize {
			t.Fatalf("Size %d, BlockSize %d", m.Size(), m.BlockSize())
		}
	})
}

// TestDigest_Sum checks the plain SHA-256 against FIPS 180-4's examples and crypto/sha256.
func TestDigest_Sum(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		for msg, want := range map[string]string{
			"":    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
			"abc": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
			"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq": "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
		} {
			var d digest
			d.reset()
			d.write([]byte(msg))
			if got := hex.EncodeToString(d.sum(nil)); got != want {
				t.Errorf("SHA-256(%q) = %s, want %s", msg, got, want)
			}
		}
		big := bytes.Repeat([]byte("a"), 1000000)
		var d digest
		d.reset()
		d.write(big)
		if got, want := d.sum(nil), sha256.Sum256(big); !bytes.Equal(got, want[:]) {
			t.Errorf("SHA-256 of a million a's: %x, want %x", got, want)
		}
	})
}

// FuzzNew checks that HMAC-SHA256 agrees with crypto/hmac over crypto/sha256 for any key
// and any message written in any two pieces.
func FuzzNew(f *testing.F) {
	f.Add([]byte("key"), []byte("message"), 3)
	f.Add(bytes.Repeat([]byte{1}, 100), bytes.Repeat([]byte{2}, 130), 64)
	f.Fuzz(func(t *testing.T, key, msg []byte, cut int) {
		if cut < 0 || cut > len(msg) {
			cut = len(msg) / 2
		}
		assertSame(t, key, [][]byte{msg[:cut], msg[cut:]})
	})
}

// assertSame fails t unless New(key) and crypto/hmac give the same MAC of the pieces.
func assertSame(t *testing.T, key []byte, pieces [][]byte) {
	t.Helper()
	got, want := New(key), hmac.New(sha256.New, key)
	for _, p := range pieces {
		got.Write(p)
		want.Write(p)
	}
	if g, w := got.Sum(nil), want.Sum(nil); !bytes.Equal(g, w) {
		t.Fatalf("key %x, pieces %x: got %x, want %x", key, pieces, g, w)
	}
}
