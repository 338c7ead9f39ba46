package batch

import (
	"regexp"
	"testing"
)

func TestNewBoundaries(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		uuid := `[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}`
		batchRE := regexp.MustCompile(`^batchresponse_` + uuid + `$`)
		changesetRE := regexp.MustCompile(`^changesetresponse_` + uuid + `$`)
		seen := map[string]bool{}
		for range 100 {
			b, c := NewBoundaries()
			if !batchRE.MatchString(b) || !changesetRE.MatchString(c) {
				t.Fatalf("boundaries %q, %q are not <kind>response_<uuid v4>", b, c)
			}
			if seen[b] || seen[c] {
				t.Fatalf("boundary repeated: %q %q", b, c)
			}
			seen[b], seen[c] = true, true
		}
	})
}

func TestContentType(t *testing.T) {
	if got := ContentType("batchresponse_x"); got != "multipart/mixed; boundary=batchresponse_x" {
		t.Fatalf("got %q", got)
	}
}
