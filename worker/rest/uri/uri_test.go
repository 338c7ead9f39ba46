package uri

import (
	"net/netip"
	"net/url"
	"reflect"
	"strings"
	"testing"
)

// seeds are targets, queries and addresses of every shape the functions meet.
var seeds = []string{
	"", "*", "/", "/t", "/devstoreaccount1/Tables('t')?comp=acl", "/t(PartitionKey='a%20b',RowKey='%27')",
	"http://127.0.0.1:10002/devstoreaccount1/t()?$filter=a%20eq%201&$top=2", "https://h/p?", "https://h/p?a?b",
	"http://[::1]:80/x", "http://[fe80::1%25en0]/", "http://[1.2.3.4]/", "http://[::ffff:1.2.3.4]/",
	"http://h:1:2/", "foo://h:1:2/", "http://u:p@h/", "http://u@v@h/", "http://%41/", "http://%c3%a9/",
	"http://h /", "http://h/%zz", "http://h/a%2fb", "http://h/a|b^c", "http://h/é", "HTTP://H/", "urn:x", "mailto:a@b",
	"//h/p", "///p", "a:b", "a/b:c", "1a:b", ":x", "/p#frag", "/p#%zz", "http://h/\x7f", "http://[::1", "http://[x]:a/",
	"a=1&b=2", "a=1;b=2", "%zz=1", "a=%2", "a+b=c+d", "&&a&=x&", "=", "a=b=c",
	"1.2.3.4", "01.2.3.4", "1.2.3", "1.2.3.4.5", "256.1.1.1", "::", "::1", "1::", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7::",
	"::ffff:1.2.3.4", "::1.2.3.4", "1:2:3:4:5:6:1.2.3.4", "fe80::1%eth0", "fe80::1%", "12345::", ":1", "1:", "1:::2",
	"0:0:1:0:0:0:0:1", "1:0:0:2:0:0:0:3", "1:0:0:2:0:0:3:4", "0:0:1:0:0:1:0:0", "1:0:2:0:3:0:4:0", "[::1]:80", "1.2.3.4:80", "::1:80", "[1.2.3.4]:80", "[::1]:", "[::1]:99999", "[::1]:+80", "[::1]:0080", ":80", "[]:80", "[::1%x]:1",
}

// TestParseRequestURI checks the seeds against url.ParseRequestURI.
func TestParseRequestURI(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		for _, s := range seeds {
			checkRequestURI(t, s)
		}
	})
}

// TestParse checks the seeds against url.Parse.
func TestParse(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		for _, s := range seeds {
			checkParse(t, s)
		}
	})
}

// TestParseQuery checks the seeds against url.ParseQuery and url.QueryUnescape.
func TestParseQuery(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		for _, s := range seeds {
			checkQuery(t, s)
		}
	})
}

// TestParseAddr checks the seeds against netip.ParseAddr.
func TestParseAddr(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		for _, a := range seeds {
			for _, b := range seeds {
				checkAddr(t, a, b)
			}
		}
	})
}

// FuzzParseRequestURI compares ParseRequestURI and Parse with net/url's.
func FuzzParseRequestURI(f *testing.F) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkRequestURI(t, s)
		checkParse(t, s)
	})
}

// FuzzParseQuery compares ParseQuery and QueryUnescape with net/url's.
func FuzzParseQuery(f *testing.F) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(checkQuery)
}

// FuzzParseAddr compares ParseAddr, String, Unmap and Compare with net/netip's.
func FuzzParseAddr(f *testing.F) {
	for _, s := range seeds {
		f.Add(s, "::1")
	}
	f.Fuzz(checkAddr)
}

// TestParseAddrPort checks the seeds against netip.ParseAddrPort.
func TestParseAddrPort(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		for _, s := range seeds {
			checkAddrPort(t, s)
		}
	})
}

// FuzzParseAddrPort compares ParseAddrPort with net/netip's.
func FuzzParseAddrPort(f *testing.F) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(checkAddrPort)
}

func checkAddrPort(t *testing.T, s string) {
	t.Helper()
	a, port, err := ParseAddrPort(s)
	w, werr := netip.ParseAddrPort(s)
	if (err != nil) != (werr != nil) || err == nil && (a.String() != w.Addr().String() || a.Is4() != w.Addr().Is4() || port != w.Port()) {
		t.Fatalf("ParseAddrPort(%q) = %s, %d, %v; net/netip: %s, %v", s, a, port, err, w, werr)
	}
}

func checkRequestURI(t *testing.T, s string) {
	t.Helper()
	got, err := ParseRequestURI(s)
	want, werr := url.ParseRequestURI(s)
	compareURL(t, "ParseRequestURI", s, got, err, want, werr)
}

func checkParse(t *testing.T, s string) {
	t.Helper()
	got, err := Parse(s)
	want, werr := url.Parse(s)
	compareURL(t, "Parse", s, got, err, want, werr)
}

// compareURL fails t unless got and err say what want and werr do.
func compareURL(t *testing.T, fn, s string, got *URL, err error, want *url.URL, werr error) {
	t.Helper()
	if (err != nil) != (werr != nil) || err != nil && !sameError(err.Error(), werr.Error()) {
		t.Fatalf("%s(%q): error %v, net/url: %v", fn, s, err, werr)
	}
	if err != nil {
		return
	}
	g := []any{got.Scheme, got.Opaque, got.Host, got.Path, got.RawQuery, got.ForceQuery, got.EscapedPath(), got.RequestURI()}
	w := []any{want.Scheme, want.Opaque, want.Host, want.Path, want.RawQuery, want.ForceQuery, want.EscapedPath(), want.RequestURI()}
	if !reflect.DeepEqual(g, w) {
		t.Fatalf("%s(%q) = %q, net/url: %q", fn, s, g, w)
	}
}

// sameError compares error texts; after "invalid host: " net/netip words its own detail.
func sameError(got, want string) bool {
	const host = `": invalid host: `
	if i := strings.Index(want, host); i >= 0 {
		return strings.HasPrefix(got, want[:i+len(host)])
	}
	return got == want
}

func checkQuery(t *testing.T, s string) {
	t.Helper()
	got, err := ParseQuery(s)
	want, werr := url.ParseQuery(s)
	if (err != nil) != (werr != nil) || err != nil && err.Error() != werr.Error() || !reflect.DeepEqual(map[string][]string(got), map[string][]string(want)) {
		t.Fatalf("ParseQuery(%q) = %q, %v; net/url: %q, %v", s, got, err, want, werr)
	}
	u, err := QueryUnescape(s)
	wu, werr := url.QueryUnescape(s)
	if u != wu || (err != nil) != (werr != nil) || err != nil && err.Error() != werr.Error() {
		t.Fatalf("QueryUnescape(%q) = %q, %v; net/url: %q, %v", s, u, err, wu, werr)
	}
}

func checkAddr(t *testing.T, a, b string) {
	t.Helper()
	ga, err := ParseAddr(a)
	wa, werr := netip.ParseAddr(a)
	if (err != nil) != (werr != nil) {
		t.Fatalf("ParseAddr(%q): error %v, net/netip: %v", a, err, werr)
	}
	if err != nil {
		if !strings.HasPrefix(err.Error(), "ParseAddr(") {
			t.Fatalf("ParseAddr(%q): error %v", a, err)
		}
		return
	}
	if ga.String() != wa.String() || ga.Is4() != wa.Is4() || ga.Zone() != wa.Zone() || ga.IsValid() != wa.IsValid() ||
		ga.Unmap().String() != wa.Unmap().String() || ga.Unmap().Is4() != wa.Unmap().Is4() {
		t.Fatalf("ParseAddr(%q) = %s (is4 %v, unmapped %s), net/netip: %s (is4 %v, unmapped %s)", a, ga, ga.Is4(), ga.Unmap(), wa, wa.Is4(), wa.Unmap())
	}
	gb, err := ParseAddr(b)
	wb, _ := netip.ParseAddr(b)
	if err != nil {
		gb = Addr{}
	}
	if got, want := ga.Compare(gb), wa.Compare(wb); got != want {
		t.Fatalf("Compare(%s, %s) = %d, net/netip: %d", ga, gb, got, want)
	}
	if got, want := ga.Unmap().Compare(gb.Unmap()), wa.Unmap().Compare(wb.Unmap()); got != want {
		t.Fatalf("Unmap().Compare(%s, %s) = %d, net/netip: %d", ga, gb, got, want)
	}
}
