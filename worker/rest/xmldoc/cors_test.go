package xmldoc

import (
	"reflect"
	"testing"

	"github.com/tabletopdb/tabletop/worker/rest/exchange"
)

// docRules are the three rules of the evaluation example of "CORS support for the Azure
// Storage services".
var docRules = &Properties{Cors: []CorsRule{
	{AllowedOrigins: []string{"http://www.contoso.com"}, AllowedMethods: []string{"PUT", "HEAD"}, MaxAgeInSeconds: 5,
		ExposedHeaders: []string{"x-ms-*"}, AllowedHeaders: []string{"x-ms-blob-content-type", "x-ms-blob-content-disposition"}},
	{AllowedOrigins: []string{"*"}, AllowedMethods: []string{"PUT", "GET"}, MaxAgeInSeconds: 5,
		ExposedHeaders: []string{"x-ms-*"}, AllowedHeaders: []string{"x-ms-blob-content-type", "x-ms-blob-content-disposition"}},
	{AllowedOrigins: []string{"http://www.contoso.com"}, AllowedMethods: []string{"GET"}, MaxAgeInSeconds: 5,
		ExposedHeaders: []string{"x-ms-*"}, AllowedHeaders: []string{"x-ms-client-request-id"}},
}}

func TestProperties_Preflight(t *testing.T) {
	app := &Properties{Cors: []CorsRule{
		{AllowedOrigins: []string{"https://app.example.com", "https://*.example.org"}, AllowedMethods: []string{"GET", "POST", "PATCH"},
			AllowedHeaders: []string{"x-ms-*", "content-type", "accept"}, MaxAgeInSeconds: 600},
		{AllowedOrigins: []string{"*"}, AllowedMethods: []string{"DELETE"}, AllowedHeaders: []string{"*"}, MaxAgeInSeconds: 60},
	}}
	tests := []struct {
		name    string
		p       *Properties
		origin  string
		method  string
		headers []string
		rule    int // index of the rule that must match, -1 for none
	}{
		{"OK/DocFirstRule", docRules, "http://www.contoso.com", "PUT", []string{"x-ms-blob-content-type"}, 0},
		{"OK/DocSecondRule", docRules, "http://www.contoso.com", "GET", []string{"x-ms-blob-content-type"}, 1},
		{"ErrNoMatch/DocFirstMatchDecides", docRules, "http://www.contoso.com", "GET", []string{"x-ms-client-request-id"}, -1},
		{"OK/NoHeaders", app, "https://app.example.com", "GET", nil, 0},
		{"OK/PrefixHeader", app, "https://app.example.com", "POST", []string{"X-MS-Version", "x-ms-date", "Content-Type"}, 0},
		{"OK/OriginCaseInsensitive", app, "HTTPS://App.Example.com", "GET", nil, 0},
		{"OK/SubdomainWildcard", app, "https://tables.example.org", "PATCH", []string{"accept"}, 0},
		{"OK/StarOriginStarHeaders", app, "http://elsewhere", "DELETE", []string{"anything", "x-custom"}, 1},
		{"OK/MethodCaseInsensitive", app, "https://app.example.com", "patch", nil, 0},
		{"ErrNoMatch/HeaderNotAllowed", app, "https://app.example.com", "GET", []string{"x-custom"}, -1},
		{"ErrNoMatch/SubdomainWildcardNeedsSubdomain", app, "https://.example.org", "GET", nil, -1},
		{"ErrNoMatch/Method", app, "https://app.example.com", "PUT", nil, -1},
		{"ErrNoMatch/Origin", app, "https://evil.example.com", "GET", nil, -1},
		{"ErrNoMatch/NoOrigin", app, "", "DELETE", nil, -1},
		{"ErrNoMatch/NoMethod", app, "https://app.example.com", "", nil, -1},
		{"ErrNoMatch/NoRules", &Properties{Cors: []CorsRule{}}, "https://app.example.com", "GET", nil, -1},
		{"ErrNoMatch/NilProperties", nil, "https://app.example.com", "GET", nil, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, ok := tt.p.Preflight(tt.origin, tt.method, tt.headers)
			if tt.rule < 0 {
				if ok || res != nil {
					t.Fatalf("Preflight = %+v, want no match", res)
				}
				return
			}
			if !ok || res.Rule != &tt.p.Cors[tt.rule] {
				t.Fatalf("Preflight = %+v, %v; want rule %d", res, ok, tt.rule)
			}
		})
	}
}

func TestCorsResult_Header(t *testing.T) {
	res, ok := docRules.Preflight("http://www.contoso.com", "PUT", SplitList("x-ms-blob-content-type, x-ms-blob-content-disposition"))
	if !ok {
		t.Fatal("no match")
	}
	want := exchange.Header{
		"Access-Control-Allow-Origin":      {"http://www.contoso.com"},
		"Access-Control-Allow-Methods":     {"PUT"},
		"Access-Control-Allow-Headers":     {"x-ms-blob-content-type,x-ms-blob-content-disposition"},
		"Access-Control-Max-Age":           {"5"},
		"Access-Control-Allow-Credentials": {"true"},
	}
	if got := res.Header(); !reflect.DeepEqual(got, want) {
		t.Fatalf("Header = %v, want %v", got, want)
	}
}

// TestProperties_ActualRequestHeaders follows the table of "Understanding how the Vary
// header is set" for GET/HEAD, and the rule that other methods get no Vary.
func TestProperties_ActualRequestHeaders(t *testing.T) {
	exact := &Properties{Cors: []CorsRule{{AllowedOrigins: []string{"http://a.com"}, AllowedMethods: []string{"GET", "PUT"},
		ExposedHeaders: []string{"x-ms-request-*", "ETag"}}}}
	star := &Properties{Cors: []CorsRule{{AllowedOrigins: []string{"*"}, AllowedMethods: []string{"GET"}, ExposedHeaders: []string{"x-ms-*"}}}}
	response := exchange.Header{"X-Ms-Request-Id": {"1"}, "X-Ms-Version": {"2019-02-02"}, "Content-Type": {"application/json"}}
	tests := []struct {
		name, origin, method string
		p                    *Properties
		want                 exchange.Header
	}{
		{"OK/NoOriginNoRules", "", "GET", &Properties{}, nil},
		{"OK/NoOriginRulesNoStar", "", "GET", exact, exchange.Header{"Vary": {"Origin"}}},
		{"OK/NoOriginStarRule", "", "GET", star, exchange.Header{"Access-Control-Allow-Origin": {"*"}, "Access-Control-Expose-Headers": {"X-Ms-Request-Id,X-Ms-Version"}}},
		{"OK/OriginNoRules", "http://a.com", "GET", nil, nil},
		{"OK/OriginExactMatch", "http://a.com", "GET", exact, exchange.Header{"Access-Control-Allow-Origin": {"http://a.com"}, "Access-Control-Allow-Credentials": {"true"},
			"Access-Control-Expose-Headers": {"ETag,X-Ms-Request-Id"}, "Vary": {"Origin"}}},
		{"OK/OriginNoMatch", "http://b.com", "GET", exact, exchange.Header{"Vary": {"Origin"}}},
		{"OK/OriginStarMatch", "http://b.com", "HEAD", &Properties{Cors: []CorsRule{{AllowedOrigins: []string{"*"}, AllowedMethods: []string{"HEAD"}}}}, exchange.Header{"Access-Control-Allow-Origin": {"*"}}},
		{"OK/PutExactMatchNoVary", "http://a.com", "PUT", exact, exchange.Header{"Access-Control-Allow-Origin": {"http://a.com"}, "Access-Control-Allow-Credentials": {"true"},
			"Access-Control-Expose-Headers": {"ETag,X-Ms-Request-Id"}}},
		{"OK/PostNoMatchNothing", "http://a.com", "POST", exact, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.p.ActualRequestHeaders(tt.origin, tt.method, response); !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("ActualRequestHeaders = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestSplitList(t *testing.T) {
	if got := SplitList(" a, b ,,c "); !reflect.DeepEqual(got, []string{"a", "b", "c"}) {
		t.Fatalf("SplitList = %q", got)
	}
	if got := SplitList(" , "); got != nil {
		t.Fatalf("SplitList of blanks = %q", got)
	}
}
