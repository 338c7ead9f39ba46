package rest

import (
	"testing"

	"github.com/tabletopdb/tabletop/worker/rest/uri"
)

// clientIPByAttempts is clientIP as it was: "ip:port" tried first, a bare address then.
func clientIPByAttempts(remote string) uri.Addr {
	a, _, err := uri.ParseAddrPort(remote)
	if err != nil {
		if a, err = uri.ParseAddr(remote); err != nil {
			return uri.Addr{}
		}
	}
	if a.Zone() != "" {
		return uri.Addr{}
	}
	return a.Unmap()
}

func TestClientIP(t *testing.T) {
	for _, tc := range []struct{ remote, want string }{
		{"127.0.0.1:8080", "127.0.0.1"},
		{"203.0.113.9", "203.0.113.9"},
		{"[::1]:443", "::1"},
		{"2001:db8::1", "2001:db8::1"},
		{"::ffff:192.0.2.1", "192.0.2.1"},
		{"[::ffff:192.0.2.1]:80", "192.0.2.1"},
		{"[fe80::1%eth0]:80", "invalid IP"},
		{"", "invalid IP"},
		{"[::1]", "invalid IP"},
		{"host:80", "invalid IP"},
	} {
		t.Run(tc.remote, func(t *testing.T) {
			if got := clientIP(tc.remote).String(); got != tc.want {
				t.Fatalf("clientIP(%q) = %s, want %s", tc.remote, got, tc.want)
			}
		})
	}
}

func TestClientIP_Allocs(t *testing.T) {
	for _, remote := range []string{"203.0.113.9", "2001:db8::1", "127.0.0.1:8080"} {
		if n := testing.AllocsPerRun(100, func() { clientIP(remote) }); n != 0 {
			t.Errorf("clientIP(%q) allocates %v times", remote, n)
		}
	}
}

// FuzzClientIP holds clientIP to the address the two parse attempts found on any input.
func FuzzClientIP(f *testing.F) {
	for _, s := range []string{"127.0.0.1:1", "1.2.3.4", "[::1]:2", "::1", "::1:80", "[::1]", "a:b:c", "1.2.3.4:", ":80", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, remote string) {
		if got, want := clientIP(remote), clientIPByAttempts(remote); got != want {
			t.Fatalf("clientIP(%q) = %v, the two attempts give %v", remote, got, want)
		}
	})
}
