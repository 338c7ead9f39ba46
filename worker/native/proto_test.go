//go:build !js

package native

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestRun_ProtocolErrors sends requests the HTTP layer refuses before any handler runs:
// the answers carry an Azure error body and code, not plain text.
func TestRun_ProtocolErrors(t *testing.T) {
	s := start(t, config{data: memoryData, quiet: true, web: "none"})
	addr := strings.TrimPrefix(s.url, "http://")
	for _, tc := range []struct {
		name, request, code string
	}{
		{"BadHeader", "GET /devstoreaccount1/Tables HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n", "InvalidInput"},
		{"BadContentLength", "POST /devstoreaccount1/Tables HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n", "InvalidInput"},
		{"NoHost", "GET /devstoreaccount1/Tables HTTP/1.1\r\n\r\n", "InvalidInput"},
		{"UnknownTransferEncoding", "POST /devstoreaccount1/t HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", "UnsupportedHeader"},
		{"HeadersTooLarge", "GET /devstoreaccount1/Tables HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("b", 1<<20+8192) + "\r\n\r\n", "InvalidInput"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			conn.SetDeadline(time.Now().Add(10 * time.Second))
			go io.WriteString(conn, tc.request)
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != http.StatusBadRequest || resp.Header.Get("x-ms-error-code") != tc.code ||
				!strings.HasPrefix(string(b), `{"odata.error":{"code":"`+tc.code+`"`) || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
				t.Fatalf("got %d %v %s", resp.StatusCode, resp.Header, b)
			}
		})
	}
}
