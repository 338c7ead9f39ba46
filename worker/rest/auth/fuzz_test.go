package auth

import (
	"net/http"
	"testing"

	"github.com/tabletopdb/tabletop/worker/rest/nethttp"
)

func FuzzParseTime(f *testing.F) {
	for _, s := range []string{"2024-06-01", "2024-06-01T12:30Z", "2024-06-01T12:30:05.1234567+02:00", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseTime(s)
		if err == nil && got.Location().String() != "UTC" {
			t.Fatalf("ParseTime(%q) is not UTC", s)
		}
	})
}

// FuzzVerify feeds arbitrary query strings and Authorization headers to Verify: it must
// never panic, and anything it accepts must carry a signature made with the key.
func FuzzVerify(f *testing.F) {
	f.Add("sv=2019-02-02&tn=t&sp=r&se=2030-01-01&sig=abc", "")
	f.Add("sv=2020-12-06&ss=t&srt=sco&sp=rl&se=2030-01-01&sip=1.2.3.4-1.2.3.9&sig=abc", "")
	f.Add("", "SharedKeyLite devstoreaccount1:abc")
	f.Fuzz(func(t *testing.T, query, authorization string) {
		r, err := http.NewRequest("GET", "http://127.0.0.1/devstoreaccount1/t?"+query, nil)
		if err != nil {
			return
		}
		r.Header.Set("Authorization", authorization)
		r.Header.Set("x-ms-date", testNow.Format(http.TimeFormat))
		if p, err := Verify(Request{HTTP: nethttp.Request(r), Account: testAccount(t), Now: testNow}); err == nil {
			t.Fatalf("Verify accepted a random request: %+v", p)
		}
	})
}
