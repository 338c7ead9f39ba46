package object

import (
	"errors"
	"strings"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/worker/rest"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
)

// corsProperties allows GET and POST from https://app.example and exposes x-ms-* headers.
const corsProperties = `<?xml version="1.0" encoding="utf-8"?><StorageServiceProperties><Cors><CorsRule>` +
	`<AllowedOrigins>https://app.example</AllowedOrigins><AllowedMethods>GET,POST</AllowedMethods>` +
	`<AllowedHeaders>*</AllowedHeaders><ExposedHeaders>x-ms-*</ExposedHeaders><MaxAgeInSeconds>60</MaxAgeInSeconds>` +
	`</CorsRule></Cors></StorageServiceProperties>`

func TestCorsLines(t *testing.T) {
	s, err := core.Open(core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	a := &rest.Account{Account: auth.DevAccount(), Store: s}
	a.UseProperties(corsProperties)
	t.Run("OK", func(t *testing.T) {
		got, err := corsLines(a, "https://app.example\x00POST\x00x-ms-error-code\x00content-type")
		if err != nil || !strings.Contains(got, "Access-Control-Allow-Origin: https://app.example\n") ||
			!strings.Contains(got, "Access-Control-Expose-Headers: X-Ms-Error-Code\n") {
			t.Fatalf("got %q, %v", got, err)
		}
		if got, err := corsLines(a, "https://evil.example\x00POST\x00x-ms-error-code"); err != nil || strings.Contains(got, "Allow-Origin") {
			t.Fatalf("another origin: got %q, %v", got, err)
		}
	})
	t.Run("ErrBadArgument", func(t *testing.T) {
		if _, err := corsLines(a, "https://app.example"); !errors.Is(err, ErrBadArgument) {
			t.Fatalf("got %v", err)
		}
	})
}
