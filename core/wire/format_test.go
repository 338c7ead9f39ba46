package wire_test

import (
	"testing"

	"github.com/tabletopdb/tabletop/core/wire"
)

func TestParseFormat(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		for _, tc := range []struct {
			in   string
			want wire.Metadata
		}{
			{"application/json;odata=nometadata", wire.NoMetadata},
			{"application/json;odata=minimalmetadata", wire.MinimalMetadata},
			{"application/json;odata=fullmetadata", wire.FullMetadata},
			{"application/json", wire.MinimalMetadata},
			{"Application/JSON; ODATA=FullMetadata", wire.FullMetadata},
			{"application/json; odata=nometadata; charset=utf-8; streaming=true", wire.NoMetadata},
			{"*/*", wire.MinimalMetadata},
			{"application/*", wire.MinimalMetadata},
			{"json", wire.MinimalMetadata},
			{"application/json;odata.metadata=full", wire.FullMetadata},
			{`application/json;odata="nometadata"`, wire.NoMetadata},
			{"application/atom+xml, application/json;odata=nometadata", wire.NoMetadata},
			{"application/json;odata=nometadata;q=0.5, application/json;odata=fullmetadata", wire.FullMetadata},
			{"application/json;odata=fullmetadata;q=0.2, application/json;odata=nometadata;q=0.9", wire.NoMetadata},
			{"application/json;odata=fullmetadata, application/json;odata=nometadata", wire.FullMetadata},
			{"application/json;odata=nometadata;q=0, application/json", wire.MinimalMetadata},
			{"application/json;odata=verbose, */*;q=0.1", wire.MinimalMetadata},
		} {
			got, ok := wire.ParseFormat(tc.in)
			if !ok || got != tc.want {
				t.Errorf("ParseFormat(%q) = %v, %v; want %v, true", tc.in, got, ok, tc.want)
			}
		}
	})
	t.Run("NotAcceptable", func(t *testing.T) {
		for _, in := range []string{
			"", " ", "application/atom+xml", "application/xml", "atom", "text/html",
			"application/json;odata=verbose", "application/json;q=0", "application/json;q=abc",
			"application/json;odata=fullmetadata;q=0, application/xml",
		} {
			if got, ok := wire.ParseFormat(in); ok || got != wire.MinimalMetadata {
				t.Errorf("ParseFormat(%q) = %v, %v; want minimalmetadata, false", in, got, ok)
			}
		}
	})
}

func TestMetadata_ContentType(t *testing.T) {
	for m, want := range map[wire.Metadata]string{
		wire.NoMetadata:      "application/json; odata=nometadata; streaming=true; charset=utf-8",
		wire.MinimalMetadata: "application/json; odata=minimalmetadata; streaming=true; charset=utf-8",
		wire.FullMetadata:    "application/json; odata=fullmetadata; streaming=true; charset=utf-8",
	} {
		if got := m.ContentType(); got != want {
			t.Errorf("%v.ContentType() = %q, want %q", m, got, want)
		}
	}
}
