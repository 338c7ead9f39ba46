package auth

import (
	"runtime"
	"sync"
	"testing"
)

// TestAccount_matches checks signatures under accounts of different keys, concurrently:
// each is verified with its own key only, whichever pooled HMAC state serves it, and
// verifying reuses a state rather than keying a new one.
func TestAccount_matches(t *testing.T) {
	other := "b3RoZXIga2V5IG9mIGFuIGFjY291bnQsIG5vdCB0aGUgZGV2ZWxvcG1lbnQgb25lIQ=="
	dev, err := NewAccount("a", DevAccountKey)
	if err != nil {
		t.Fatal(err)
	}
	both, err := NewAccount("b", other, DevAccountKey)
	if err != nil {
		t.Fatal(err)
	}
	only, err := NewAccount("c", other)
	if err != nil {
		t.Fatal(err)
	}
	sigDev, sigOther := hmacSign(t, DevAccountKey, "sts"), hmacSign(t, other, "sts")
	t.Run("OK", func(t *testing.T) {
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				for range 200 {
					if !dev.matches("sts", sigDev) || !both.matches("sts", sigDev) || !both.matches("sts", sigOther) || !only.matches("sts", sigOther) {
						t.Error("a valid signature was refused")
						return
					}
					if dev.matches("sts", sigOther) || only.matches("sts", sigDev) || dev.matches("sts2", sigDev) {
						t.Error("a signature under another key or string was accepted")
						return
					}
				}
			})
		}
		wg.Wait()
	})
	t.Run("Allocs", func(t *testing.T) {
		// The signature, the string to sign and the sum in a pooled scratch: no HMAC keyed per
		// call, and no allocation.
		if raceEnabled {
			t.Skip("the race detector drops pooled values at random")
		}
		if runtime.GOOS == "js" {
			t.Skip("js/wasm keys a new state per verification (mac_js.go)")
		}
		if n := testing.AllocsPerRun(100, func() { dev.matches("sts", sigDev) }); n > 0 {
			t.Fatalf("%v allocations per verification", n)
		}
	})
}
