package endpoint

import (
	"net/http"
	"strings"
	"testing"
)

// TestReadError: an error answer reads as Azure's code and the first line of its message,
// from XML (with the authentication detail), JSON or plain text.
func TestReadError(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		header     http.Header
		want       Error
	}{
		{"XML", "<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>AuthenticationFailed</Code><Message>Server failed to authenticate the request.\nRequestId:0b7f\nTime:2026-11-29T01:00:00.0000000Z</Message><AuthenticationErrorDetail>Signature did not match.</AuthenticationErrorDetail></Error>", http.Header{},
			Error{403, "AuthenticationFailed", "Server failed to authenticate the request. (Signature did not match.)"}},
		{"JSON", `{"odata.error":{"code":"TableNotFound","message":{"lang":"en-US","value":"The table specified does not exist.\nRequestId:5d1c\nTime:2026-11-29T01:00:00Z"}}}`, http.Header{},
			Error{404, "TableNotFound", "The table specified does not exist."}},
		{"Text", "busy", http.Header{"X-Ms-Error-Code": {"ServerBusy"}}, Error{503, "ServerBusy", "busy"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := readError(tc.want.Status, tc.header, strings.NewReader(tc.body)); *got != tc.want {
				t.Errorf("got %+v\nwant %+v", *got, tc.want)
			}
		})
	}
}
