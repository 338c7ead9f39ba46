package exchange

import (
	"errors"
	"mime"
	"reflect"
	"testing"
)

var mediaTypeSeeds = []string{
	"multipart/mixed; boundary=batch_1", `multipart/mixed; boundary="a b;c\"d"`, "application/json;odata=minimalmetadata;streaming=true;charset=utf-8",
	"Application/HTTP", "text", "text/", "/x", "a/b/c", "a/b;", "a/b; ;", "a/b; x", "a/b; x=", "a/b; x=1; x=1", "a/b; x=1; X=2",
	"a/b; name*=utf-8''%E2%82%AC", "a/b; name*0=a; name*1*=%41; name*2=c", "a/b; name*0*=utf-8''%41; name*1=b", "a/b; n*=bad''x",
	"a/b; n*=utf-8''%4", "a/b; n*=utf-8''%+1", `a/b; x="unterminated`, "a/b; x=\"a\r\"", "", " ", "a/b;x={}", "a/b\x00",
}

func TestParseMediaType(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		mt, params, err := ParseMediaType(`Multipart/Mixed; Boundary="batch_x"; q=1`)
		if err != nil || mt != "multipart/mixed" || !reflect.DeepEqual(params, map[string]string{"boundary": "batch_x", "q": "1"}) {
			t.Errorf("ParseMediaType = %q, %v, %v", mt, params, err)
		}
	})
	t.Run("ErrMediaType", func(t *testing.T) {
		if _, _, err := ParseMediaType("a/b/c"); !errors.Is(err, ErrMediaType) {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("ErrMediaParameter", func(t *testing.T) {
		if mt, _, err := ParseMediaType("a/b; x"); !errors.Is(err, ErrMediaParameter) || mt != "a/b" {
			t.Errorf("mt %q, err = %v", mt, err)
		}
	})
	for _, s := range mediaTypeSeeds {
		sameAsMime(t, s)
	}
}

// FuzzParseMediaType holds ParseMediaType to mime.ParseMediaType: the same media type,
// parameters, and success or failure.
func FuzzParseMediaType(f *testing.F) {
	for _, s := range mediaTypeSeeds {
		f.Add(s)
	}
	f.Fuzz(sameAsMime)
}

func sameAsMime(t *testing.T, v string) {
	mt, params, err := ParseMediaType(v)
	wmt, wparams, werr := mime.ParseMediaType(v)
	if mt != wmt || (err == nil) != (werr == nil) || (err == nil && !reflect.DeepEqual(params, wparams)) {
		t.Fatalf("ParseMediaType(%q) = %q, %v, %v; mime: %q, %v, %v", v, mt, params, err, wmt, wparams, werr)
	}
}
