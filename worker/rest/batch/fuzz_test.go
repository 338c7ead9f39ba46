package batch

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/tabletopdb/tabletop/worker/rest/exchange"
)

func FuzzReadRequest(f *testing.F) {
	for _, name := range []string{"go_sdk_request.txt", "js_sdk_request.txt"} {
		body, ct := fixture(f, name)
		f.Add([]byte(body), ct)
		f.Add([]byte(strings.ReplaceAll(body, "\r\n", "\n")), ct)
	}
	f.Add([]byte(batchBody(insertOps(3)...)), testCT)
	f.Add([]byte(batchBody("MERGE /a/t(PartitionKey='p',RowKey='') HTTP/1.1\r\nIf-Match: *\r\n\r\n{}")), testCT)
	f.Add([]byte(batchBody("GET /a/t() HTTP/1.1\r\n\r\n")), testCT)
	f.Add([]byte("--batch_b1\r\nContent-Type: multipart/mixed; boundary=x\r\n\r\n--x\r\n\r\n--x--\r\n--batch_b1--"), testCT)
	f.Add([]byte("--batch_b1--"), testCT)
	f.Add([]byte("{}"), "application/json")
	f.Fuzz(func(t *testing.T, body []byte, contentType string) {
		subs, err := ReadRequest(bytes.NewReader(body), contentType)
		if err != nil {
			if !isSentinel(err) {
				t.Fatalf("error %v wraps no sentinel", err)
			}
			return
		}
		if len(subs) == 0 || len(subs) > 100 {
			t.Fatalf("%d operations", len(subs))
		}
		for _, s := range subs {
			query := s.Method == "GET" && len(subs) == 1 // a query stands alone
			if !(changesetMethod(s.Method) || query) || s.URL == nil {
				t.Fatalf("operation %s %v", s.Method, s.URL)
			}
		}
		checkRoundTrip(t, subs)
	})
}

func isSentinel(err error) bool {
	for _, s := range []error{ErrMalformed, ErrTooLarge, ErrTooManyOperations, ErrEmpty,
		ErrMultipleChangesets, ErrMethod} {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

// checkRoundTrip frames subs again and checks that ReadRequest gives them back.
func checkRoundTrip(t *testing.T, subs []SubRequest) {
	ops := make([]string, len(subs))
	for i, s := range subs {
		if bytes.Contains(s.Body, []byte("--changeset_c1")) {
			return
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%s %s HTTP/1.1\r\n", s.Method, target(s.URL))
		for _, name := range slices.Sorted(func(yield func(string) bool) {
			for k := range s.Header {
				if !yield(k) {
					return
				}
			}
		}) {
			for _, v := range s.Header[name] {
				fmt.Fprintf(&b, "%s: %s\r\n", name, v)
			}
		}
		fmt.Fprintf(&b, "\r\n%s", s.Body)
		ops[i] = b.String()
	}
	again, err := ReadRequest(strings.NewReader(batchBody(ops...)), testCT)
	if err != nil {
		t.Fatalf("reframed: %v\n%q", err, batchBody(ops...))
	}
	for i, s := range subs {
		a := again[i]
		if a.Method != s.Method || target(a.URL) != target(s.URL) || !bytes.Equal(a.Body, s.Body) ||
			fmt.Sprint(a.Header) != fmt.Sprint(s.Header) {
			t.Fatalf("operation %d: got %s %s %v %q, want %s %s %v %q", i,
				a.Method, target(a.URL), a.Header, a.Body, s.Method, target(s.URL), s.Header, s.Body)
		}
	}
}

// FuzzWriteResponse checks that any response is framed so that the Go client's reading
// (boundary from the first line, multipart, http.ReadResponse) gets its status and body back.
func FuzzWriteResponse(f *testing.F) {
	f.Add(204, "ETag", testETag, []byte(nil))
	f.Add(409, "Content-Type", "application/json", []byte(testError))
	f.Add(200, "X", "a\r\nb", []byte("\r\n\r\n--x"))
	f.Fuzz(func(t *testing.T, status int, name, value string, body []byte) {
		if framingHeader(name) || strings.ContainsFunc(value, isControl) {
			t.Skip("the REST layer never sets this header; net/http would not either")
		}
		batch, changeset := NewBoundaries()
		r := Response{Status: status, Header: exchange.Header{name: {value}}, Body: body}
		var b bytes.Buffer
		if err := WriteResponse(&b, batch, changeset, []Response{r}); err != nil {
			if !errors.Is(err, ErrStatus) {
				t.Fatal(err)
			}
			return
		}
		got, gotBody := readLikeGoClient(t, b.Bytes())
		if got.StatusCode != status || bodyAllowed(status) && !bytes.Equal(gotBody, body) {
			t.Fatalf("got %d %q, want %d %q", got.StatusCode, gotBody, status, body)
		}
	})
}

// framingHeader reports whether name changes how http.ReadResponse frames a body.
func framingHeader(name string) bool {
	switch http.CanonicalHeaderKey(name) {
	case "Content-Length", "Transfer-Encoding", "Trailer", "Connection", "Upgrade":
		return true
	}
	return false
}

func isControl(r rune) bool { return r < ' ' && r != '\t' && r != '\r' && r != '\n' || r == 0x7f }

// bodyAllowed reports whether a response with status may have a body.
func bodyAllowed(status int) bool {
	return status >= 200 && status != http.StatusNoContent && status != http.StatusNotModified
}

// readLikeGoClient reads a single-response batch body the way aztables does.
func readLikeGoClient(t *testing.T, body []byte) (*http.Response, []byte) {
	t.Helper()
	outer := multipart.NewReader(bytes.NewReader(body), firstBoundary(body))
	part, err := outer.NextPart()
	if err != nil {
		t.Fatal(err)
	}
	inner, err := io.ReadAll(part)
	if err != nil {
		t.Fatal(err)
	}
	sub, err := multipart.NewReader(bytes.NewReader(inner), firstBoundary(inner)).NextPart()
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(sub)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(raw)), nil)
	if err != nil {
		t.Fatalf("%v in %q", err, raw)
	}
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, got
}

// firstBoundary reads the boundary from the first line, "--<boundary>\r\n".
func firstBoundary(b []byte) string {
	line, _, _ := bytes.Cut(b, []byte("\n"))
	return strings.TrimSuffix(strings.TrimPrefix(string(line), "--"), "\r")
}
