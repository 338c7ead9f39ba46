package auth

import (
	"net/http"
	"testing"
	"time"

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

// FuzzParseTime_Forms writes instants in every form Azure accepts, with any zone offset,
// and checks that ParseTime reads each back as the same instant.
func FuzzParseTime_Forms(f *testing.F) {
	f.Add(int64(0), int64(0), int16(0))
	f.Add(int64(1700000000), int64(123456700), int16(-330))
	f.Fuzz(func(t *testing.T, sec, ticks int64, offset int16) {
		at := time.Unix(sec%253402300799, (ticks%10000000)*100).UTC() // 1970 to 9999, 100 ns
		if at.Year() > 9998 || ticks < 0 {
			return
		}
		zone := time.FixedZone("", int(offset%(24*60))*60)
		for _, form := range []struct {
			layout string
			keeps  time.Duration
		}{{"2006-01-02T15:04:05.0000000Z07:00", 100}, {time.RFC3339, time.Second}, {"2006-01-02T15:04Z07:00", time.Minute}} {
			text := at.In(zone).Format(form.layout)
			if got, err := ParseTime(text); err != nil || !got.Equal(at.Truncate(form.keeps)) {
				t.Fatalf("ParseTime(%q) = %v, %v; want %v", text, got, err, at.Truncate(form.keeps))
			}
		}
		day := at.Format("2006-01-02")
		if got, err := ParseTime(day); err != nil || !got.Equal(at.Truncate(24*time.Hour)) {
			t.Fatalf("ParseTime(%q) = %v, %v", day, got, err)
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
