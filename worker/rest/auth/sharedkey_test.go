package auth

import (
	"net/http"
	"testing"
	"time"
)

// sharedKeyLite returns an Authorization header for a Shared Key Lite string to sign.
func sharedKeyLite(t *testing.T, key, sts string) string {
	return "SharedKeyLite devstoreaccount1:" + hmacSign(t, key, sts)
}

func TestVerify_SharedKey(t *testing.T) {
	date := testNow.Format(http.TimeFormat) // Sat, 01 Jun 2024 12:00:00 GMT
	old := testNow.Add(-16 * time.Minute).Format(http.TimeFormat)
	future := testNow.Add(16 * time.Minute).Format(http.TimeFormat)
	lite := func(d, res string) string { return sharedKeyLite(t, DevAccountKey, d+"\n"+res) }
	full := "SharedKey devstoreaccount1:" + hmacSign(t, DevAccountKey, "PUT\nmd5==\napplication/xml\n"+date+"\n/devstoreaccount1/devstoreaccount1/mytable?comp=acl")
	tests := []struct {
		name    string
		method  string
		target  string
		header  map[string]string
		path    string
		skew    time.Duration
		want    error
		detail  string
		wantKnd Kind
	}{
		{name: "OK/Lite", target: "/devstoreaccount1/Tables", header: map[string]string{"x-ms-date": date, "Authorization": lite(date, "/devstoreaccount1/devstoreaccount1/Tables")}, wantKnd: SharedKeyLite},
		{name: "OK/LiteDateHeader", target: "/devstoreaccount1/Tables", header: map[string]string{"Date": date, "Authorization": lite(date, "/devstoreaccount1/devstoreaccount1/Tables")}, wantKnd: SharedKeyLite},
		{name: "OK/LiteXMsDateWins", target: "/devstoreaccount1/Tables", header: map[string]string{"x-ms-date": date, "Date": old, "Authorization": lite(date, "/devstoreaccount1/devstoreaccount1/Tables")}, wantKnd: SharedKeyLite},
		{name: "OK/LiteComp", target: "/devstoreaccount1/mytable?timeout=5&comp=acl", header: map[string]string{"x-ms-date": date, "Authorization": lite(date, "/devstoreaccount1/devstoreaccount1/mytable?comp=acl")}, wantKnd: SharedKeyLite},
		{name: "OK/LiteServiceRoot", target: "/devstoreaccount1/?restype=service&comp=properties", header: map[string]string{"x-ms-date": date, "Authorization": lite(date, "/devstoreaccount1/devstoreaccount1/?comp=properties")}, wantKnd: SharedKeyLite},
		{name: "OK/LitePathAsSent", target: "/devstoreaccount1/t(PartitionKey='a%20b',RowKey='%C3%A9')", header: map[string]string{"x-ms-date": date, "Authorization": lite(date, "/devstoreaccount1/devstoreaccount1/t(PartitionKey='a%20b',RowKey='%C3%A9')")}, wantKnd: SharedKeyLite},
		{name: "OK/LiteHostStyle", target: "/Tables", path: "/Tables", header: map[string]string{"x-ms-date": date, "Authorization": lite(date, "/devstoreaccount1/Tables")}, wantKnd: SharedKeyLite},
		{name: "OK/LiteSecondaryKey", target: "/devstoreaccount1/Tables", header: map[string]string{"x-ms-date": date, "Authorization": sharedKeyLite(t, secondaryKey, date+"\n/devstoreaccount1/devstoreaccount1/Tables")}, wantKnd: SharedKeyLite},
		{name: "OK/SharedKey", method: "PUT", target: "/devstoreaccount1/mytable?comp=acl", header: map[string]string{"x-ms-date": date, "Content-MD5": "md5==", "Content-Type": "application/xml", "Authorization": full}, wantKnd: SharedKey},
		{name: "OK/SkewOff", target: "/devstoreaccount1/Tables", skew: -1, header: map[string]string{"x-ms-date": old, "Authorization": lite(old, "/devstoreaccount1/devstoreaccount1/Tables")}, wantKnd: SharedKeyLite},
		{name: "OK/WiderSkew", target: "/devstoreaccount1/Tables", skew: time.Hour, header: map[string]string{"x-ms-date": old, "Authorization": lite(old, "/devstoreaccount1/devstoreaccount1/Tables")}, wantKnd: SharedKeyLite},
		{name: "ErrAuthenticationFailed/NoCredentials", target: "/devstoreaccount1/Tables", want: ErrAuthenticationFailed, detail: "neither"},
		{name: "ErrAuthenticationFailed/WrongSignature", target: "/devstoreaccount1/Tables", header: map[string]string{"x-ms-date": date, "Authorization": lite(date, "/devstoreaccount1/Tables")}, want: ErrAuthenticationFailed,
			detail: "is not the same as any computed signature. Server used following string to sign: 'Sat, 01 Jun 2024 12:00:00 GMT\n/devstoreaccount1/devstoreaccount1/Tables'."},
		{name: "ErrAuthenticationFailed/WrongKey", target: "/devstoreaccount1/Tables", header: map[string]string{"x-ms-date": date, "Authorization": sharedKeyLite(t, "d3Jvbmcta2V5", date+"\n/devstoreaccount1/devstoreaccount1/Tables")}, want: ErrAuthenticationFailed, detail: "MAC signature"},
		{name: "ErrAuthenticationFailed/SignatureNotBase64", target: "/devstoreaccount1/Tables", header: map[string]string{"x-ms-date": date, "Authorization": "SharedKeyLite devstoreaccount1:%%%"}, want: ErrAuthenticationFailed, detail: "MAC signature"},
		{name: "ErrAuthenticationFailed/SharedKeyWithoutContentType", method: "PUT", target: "/devstoreaccount1/mytable?comp=acl", header: map[string]string{"x-ms-date": date, "Content-MD5": "md5==", "Authorization": full}, want: ErrAuthenticationFailed, detail: "'PUT\nmd5==\n\nSat"},
		{name: "ErrAuthenticationFailed/OtherAccount", target: "/devstoreaccount1/Tables", header: map[string]string{"x-ms-date": date, "Authorization": "SharedKeyLite other:" + hmacSign(t, DevAccountKey, "x")}, want: ErrAuthenticationFailed, detail: "'other'"},
		{name: "ErrAuthenticationFailed/Scheme", target: "/devstoreaccount1/Tables", header: map[string]string{"x-ms-date": date, "Authorization": "Basic abc"}, want: ErrAuthenticationFailed, detail: "'Basic' is not supported"},
		{name: "ErrAuthenticationFailed/BearerOverHTTP", target: "/devstoreaccount1/Tables", header: map[string]string{"x-ms-date": date, "Authorization": "Bearer abc"}, want: ErrAuthenticationFailed, detail: "Bearer is not allowed with HTTP"},
		{name: "ErrAuthenticationFailed/NoColon", target: "/devstoreaccount1/Tables", header: map[string]string{"x-ms-date": date, "Authorization": "SharedKeyLite devstoreaccount1"}, want: ErrAuthenticationFailed, detail: "not of the form"},
		{name: "ErrAuthenticationFailed/NoDate", target: "/devstoreaccount1/Tables", header: map[string]string{"Authorization": lite("", "/devstoreaccount1/devstoreaccount1/Tables")}, want: ErrAuthenticationFailed, detail: "Request date header not specified"},
		{name: "ErrAuthenticationFailed/BadDate", target: "/devstoreaccount1/Tables", header: map[string]string{"x-ms-date": "yesterday", "Authorization": lite("yesterday", "/devstoreaccount1/devstoreaccount1/Tables")}, want: ErrAuthenticationFailed, detail: "not a valid RFC 1123 date"},
		{name: "ErrAuthenticationFailed/DateTooOld", target: "/devstoreaccount1/Tables", header: map[string]string{"x-ms-date": old, "Authorization": lite(old, "/devstoreaccount1/devstoreaccount1/Tables")}, want: ErrAuthenticationFailed, detail: "Request date header too old: 'Sat, 01 Jun 2024 11:44:00 GMT'."},
		{name: "ErrAuthenticationFailed/DateInFuture", target: "/devstoreaccount1/Tables", header: map[string]string{"x-ms-date": future, "Authorization": lite(future, "/devstoreaccount1/devstoreaccount1/Tables")}, want: ErrAuthenticationFailed, detail: "too far in the future"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			method := tt.method
			if method == "" {
				method = "GET"
			}
			p, err := Verify(Request{HTTP: newRequest(method, tt.target, tt.header), Account: testAccount(t), CanonicalPath: tt.path, Now: testNow, MaxClockSkew: tt.skew})
			checkErr(t, err, tt.want, tt.detail)
			if err == nil && (p.Kind != tt.wantKnd || p.Account != DevAccountName) {
				t.Fatalf("principal = %+v", p)
			}
		})
	}
}

func TestVerify_AuthorizationWinsOverSAS(t *testing.T) {
	date := testNow.Format(http.TimeFormat)
	r := newRequest("GET", "/devstoreaccount1/Tables?sv=2019-02-02&tn=t&sig=bogus", map[string]string{
		"x-ms-date": date, "Authorization": sharedKeyLite(t, DevAccountKey, date+"\n/devstoreaccount1/devstoreaccount1/Tables"),
	})
	p, err := Verify(Request{HTTP: r, Account: testAccount(t), Now: testNow})
	if err != nil || p.Kind != SharedKeyLite {
		t.Fatalf("Verify = %v, %v; want the Authorization header to be used", p, err)
	}
}

func TestPathAsSent(t *testing.T) {
	tests := []struct{ name, requestURI, want string }{
		{"OK/Origin", "/devstoreaccount1/t(PartitionKey='a%20b',RowKey='')?$top=1", "/devstoreaccount1/t(PartitionKey='a%20b',RowKey='')"},
		{"OK/Absolute", "http://127.0.0.1:10002/devstoreaccount1/$batch?x=1", "/devstoreaccount1/$batch"},
		{"OK/AbsoluteNoPath", "http://127.0.0.1:10002", "/"},
		{"OK/Empty", "", "/devstoreaccount1/Tables"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRequest("GET", "/devstoreaccount1/Tables", nil)
			r.RequestURI = tt.requestURI
			if got := PathAsSent(r); got != tt.want {
				t.Fatalf("PathAsSent = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestParseTime(t *testing.T) {
	tests := []struct {
		in   string
		want time.Time
		err  error
	}{
		{"2024-06-01", time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC), nil},
		{"2024-06-01T12:30Z", time.Date(2024, 6, 1, 12, 30, 0, 0, time.UTC), nil},
		{"2024-06-01T12:30:05Z", time.Date(2024, 6, 1, 12, 30, 5, 0, time.UTC), nil},
		{"2024-06-01T12:30:05.1234567Z", time.Date(2024, 6, 1, 12, 30, 5, 123456700, time.UTC), nil},
		{"2024-06-01T14:30:05+02:00", time.Date(2024, 6, 1, 12, 30, 5, 0, time.UTC), nil},
		{"2024-06-01T12:30:05", time.Time{}, ErrTimeInvalid},
		{"01/06/2024", time.Time{}, ErrTimeInvalid},
		{"", time.Time{}, ErrTimeInvalid},
	}
	for _, tt := range tests {
		name := "OK/" + tt.in
		if tt.err != nil {
			name = "ErrTimeInvalid/" + tt.in
		}
		t.Run(name, func(t *testing.T) {
			got, err := ParseTime(tt.in)
			if err != tt.err || !got.Equal(tt.want) || (err == nil && got.Location() != time.UTC) {
				t.Fatalf("ParseTime = %v, %v; want %v, %v", got, err, tt.want, tt.err)
			}
		})
	}
}
