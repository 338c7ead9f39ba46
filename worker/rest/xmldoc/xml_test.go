package xmldoc

import (
	"bytes"
	"testing"
	"time"
)

func TestWriteStats(t *testing.T) {
	var b bytes.Buffer
	if err := WriteStats(&b, time.Date(2024, 6, 1, 14, 0, 0, 0, time.FixedZone("CEST", 2*3600))); err != nil {
		t.Fatal(err)
	}
	const want = `<?xml version="1.0" encoding="utf-8"?><StorageServiceStats><GeoReplication><Status>live</Status><LastSyncTime>Sat, 01 Jun 2024 12:00:00 GMT</LastSyncTime></GeoReplication></StorageServiceStats>`
	if b.String() != want {
		t.Fatalf("WriteStats =\n%s\nwant\n%s", b.String(), want)
	}
}

func TestWriteError(t *testing.T) {
	tests := []struct {
		name string
		fn   func(*bytes.Buffer) error
		want string
	}{
		{"OK/Error", func(b *bytes.Buffer) error {
			return WriteError(b, "InvalidXmlDocument", "XML specified is not syntactically valid.\nRequestId:1\nTime:2024-06-01T12:00:00.0000000Z", "")
		}, `<?xml version="1.0" encoding="utf-8"?><Error><Code>InvalidXmlDocument</Code><Message>XML specified is not syntactically valid.&#xA;RequestId:1&#xA;Time:2024-06-01T12:00:00.0000000Z</Message></Error>`},
		{"OK/AuthError", func(b *bytes.Buffer) error {
			return WriteError(b, "AuthenticationFailed", "Server failed <x>", "Signature did not match & more")
		}, `<?xml version="1.0" encoding="utf-8"?><Error><Code>AuthenticationFailed</Code><Message>Server failed &lt;x&gt;</Message><AuthenticationErrorDetail>Signature did not match &amp; more</AuthenticationErrorDetail></Error>`},
		{"OK/AuthErrorNoDetail", func(b *bytes.Buffer) error { return WriteError(b, "AuthorizationFailure", "m", "") },
			`<?xml version="1.0" encoding="utf-8"?><Error><Code>AuthorizationFailure</Code><Message>m</Message></Error>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := tt.fn(&b); err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.want {
				t.Fatalf("got\n%s\nwant\n%s", b.String(), tt.want)
			}
		})
	}
}
