//go:build !js

package rest_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/worker/rest"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
)

// newEnvOpts is newEnv with the Handler's limits set by opts (its Accounts are filled in).
func newEnvOpts(t *testing.T, opts rest.Options) *env {
	t.Helper()
	st, err := core.Open(core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	opts.Accounts = []*rest.Account{{Account: auth.DevAccount(), Store: st}}
	h, err := rest.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	addr := serve(t, h)
	t.Cleanup(func() { st.Close() })
	e := &env{addr: addr, store: st, url: "http://" + addr + "/" + auth.DevAccountName}
	do(t, signedRequest(t, e, http.MethodPost, "/Tables", `{"TableName":"Hostile"}`))
	return e
}

// rawConn sends the head of req (its headers as signed, with the given extra header lines)
// and then body, on a new connection, and returns the connection and its reader.
func rawConn(t *testing.T, e *env, req *http.Request, extra, body string) (net.Conn, *bufio.Reader) {
	t.Helper()
	conn, err := net.Dial("tcp", e.addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: %s\r\n", req.Method, req.URL.RequestURI(), req.URL.Host)
	for k, vs := range req.Header {
		for _, v := range vs {
			fmt.Fprintf(&b, "%s: %s\r\n", k, v)
		}
	}
	b.WriteString(extra + "\r\n" + body)
	if _, err := io.WriteString(conn, b.String()); err != nil {
		t.Fatal(err)
	}
	return conn, bufio.NewReader(conn)
}

// readAnswer reads one response within d and checks its status, code and that the
// server closes the connection after it.
func readAnswer(t *testing.T, conn net.Conn, br *bufio.Reader, d time.Duration, status int, code string) {
	t.Helper()
	conn.SetReadDeadline(time.Now().Add(d))
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("no answer within %s: %v", d, err)
	}
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != status || resp.Header.Get("x-ms-error-code") != code || !strings.Contains(string(b), code) {
		t.Fatalf("got %d %s %s, want %d %s", resp.StatusCode, resp.Header.Get("x-ms-error-code"), b, status, code)
	}
	if _, err := br.ReadByte(); err != io.EOF {
		t.Fatalf("connection left open after the answer (%v)", err)
	}
}

func TestRaw_StalledBody(t *testing.T) {
	e := newEnvOpts(t, rest.Options{BodyTimeout: 500 * time.Millisecond})
	t.Run("Unauthenticated", func(t *testing.T) {
		// Shared Key does not sign the body: a bad signature is answered at once, without
		// waiting for a body that never comes.
		req := signedRequest(t, e, http.MethodPost, "/Hostile", "")
		req.Header.Set("Authorization", "SharedKeyLite "+auth.DevAccountName+":AAAA")
		conn, br := rawConn(t, e, req, "Content-Type: application/json\r\nContent-Length: 100000\r\n", `{"Partit`)
		readAnswer(t, conn, br, 300*time.Millisecond, 403, "AuthenticationFailed")
	})
	t.Run("IgnoredBody", func(t *testing.T) {
		// An operation that takes no body answers at once, whatever its body does.
		req := signedRequest(t, e, http.MethodGet, "/Tables", "")
		conn, br := rawConn(t, e, req, "Content-Length: 100000\r\n", "{")
		conn.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
		resp, err := http.ReadResponse(br, nil)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET with a stalled body: %v %v", resp, err)
		}
	})
	t.Run("ErrBodyTimeout", func(t *testing.T) {
		req := signedRequest(t, e, http.MethodPost, "/Hostile", "")
		conn, br := rawConn(t, e, req, "Content-Type: application/json\r\nContent-Length: 100000\r\n", `{"Partit`)
		readAnswer(t, conn, br, 5*time.Second, 408, "OperationTimedOut")
	})
	t.Run("ErrBodyTimeoutChunked", func(t *testing.T) {
		req := signedRequest(t, e, http.MethodPost, "/$batch", "")
		conn, br := rawConn(t, e, req, "Content-Type: multipart/mixed; boundary=b\r\nTransfer-Encoding: chunked\r\n", "5\r\n--b\r\n")
		readAnswer(t, conn, br, 5*time.Second, 408, "OperationTimedOut")
	})
}

func TestRaw_MalformedChunked(t *testing.T) {
	e := newEnvOpts(t, rest.Options{})
	for _, tc := range []struct{ name, path, ct string }{
		{"Insert", "/Hostile", "application/json"},
		{"Batch", "/$batch", "multipart/mixed; boundary=b"},
		{"SetACL", "/Hostile?comp=acl", "application/xml"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := signedRequest(t, e, http.MethodPost, tc.path, "")
			if tc.name == "SetACL" {
				req = signedRequest(t, e, http.MethodPut, tc.path, "")
			}
			conn, br := rawConn(t, e, req, "Content-Type: "+tc.ct+"\r\nTransfer-Encoding: chunked\r\n", "zz\r\nabc\r\n0\r\n\r\n")
			code := "InvalidInput"
			readAnswer(t, conn, br, 5*time.Second, 400, code)
		})
	}
}

// TestRaw_EarlyEnd: a body whose client stops sending it and closes its side before its
// Content-Length, or inside a chunk, is 400 InvalidInput at once, not a timeout.
func TestRaw_EarlyEnd(t *testing.T) {
	e := newEnvOpts(t, rest.Options{BodyTimeout: time.Minute})
	for name, framing := range map[string][2]string{
		"ContentLength": {"Content-Length: 100\r\n", `{"PartitionKey":"p","RowKey":"early"}`},
		"Chunked":       {"Transfer-Encoding: chunked\r\n", "40\r\n" + `{"PartitionKey":"p","RowKey":"early"}`},
	} {
		t.Run(name, func(t *testing.T) {
			req := signedRequest(t, e, http.MethodPost, "/Hostile", "")
			conn, br := rawConn(t, e, req, "Content-Type: application/json\r\n"+framing[0], framing[1])
			conn.(*net.TCPConn).CloseWrite()
			readAnswer(t, conn, br, 5*time.Second, 400, "InvalidInput")
		})
	}
}

// TestRaw_BodyMemory holds bodies that announce much and send little: memory is reserved
// as bytes arrive, so they do not spend the budget, and a body that would pass it is 503.
func TestRaw_BodyMemory(t *testing.T) {
	e := newEnvOpts(t, rest.Options{MaxBodyMemory: 1 << 20, BodyTimeout: 10 * time.Second})
	for i := 0; i < 10; i++ {
		req := signedRequest(t, e, http.MethodPost, "/Hostile", "")
		rawConn(t, e, req, "Content-Type: application/json\r\nContent-Length: 4000000\r\n", `{"PartitionKey":"p"`)
	}
	time.Sleep(100 * time.Millisecond) // let the server start reading them
	resp := do(t, signedRequest(t, e, http.MethodPost, "/Hostile", `{"PartitionKey":"p","RowKey":"ok"}`))
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("insert beside stalled bodies: %d %s", resp.StatusCode, body(resp))
	}
	t.Run("ErrServerBusy", func(t *testing.T) {
		req := signedRequest(t, e, http.MethodPost, "/Hostile", "")
		conn, br := rawConn(t, e, req, "Content-Type: application/json\r\nContent-Length: 2000000\r\n",
			`{"PartitionKey":"p","RowKey":"big","S":"`+strings.Repeat("x", 1<<20))
		readAnswer(t, conn, br, 5*time.Second, 503, "ServerBusy")
	})
}

// TestRaw_BodyMemorySmall serves small bodies under a budget smaller than the buffer a
// body of unknown length starts with: a body announcing its length reserves only that.
func TestRaw_BodyMemorySmall(t *testing.T) {
	e := newEnvOpts(t, rest.Options{MaxBodyMemory: 1000})
	t.Run("OK", func(t *testing.T) {
		resp := do(t, signedRequest(t, e, http.MethodPost, "/Hostile", `{"PartitionKey":"p","RowKey":"small"}`))
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("small insert under a 1,000-byte budget: %d %s", resp.StatusCode, body(resp))
		}
	})
	t.Run("ErrServerBusy", func(t *testing.T) {
		entity := `{"PartitionKey":"p","RowKey":"big","S":"` + strings.Repeat("x", 1000) + `"}`
		wantRaw(t, do(t, signedRequest(t, e, http.MethodPost, "/Hostile", entity)), 503, "ServerBusy")
	})
}

// TestRaw_BodyText refuses bodies that are not exactly one JSON object of valid Unicode.
func TestRaw_BodyText(t *testing.T) {
	e := newEnvOpts(t, rest.Options{})
	for name, b := range map[string]string{
		"NULAfterObject":   "{\"PartitionKey\":\"p\",\"RowKey\":\"nul\"}\x00garbage",
		"LoneSurrogateKey": `{"PartitionKey":"p","RowKey":"\ud800"}`,
		"LoneSurrogate":    `{"PartitionKey":"p","RowKey":"s","V":"a\udc00"}`,
		"InvalidUTF8":      "{\"PartitionKey\":\"p\",\"RowKey\":\"\xff\"}",
	} {
		t.Run(name, func(t *testing.T) {
			wantRaw(t, do(t, signedRequest(t, e, http.MethodPost, "/Hostile", b)), 400, "InvalidInput")
		})
	}
	// Distinct keys stay distinct: neither lone surrogate was stored as U+FFFD.
	for _, rk := range []string{`\ud800`, `\udbff`} {
		wantRaw(t, do(t, signedRequest(t, e, http.MethodPost, "/Hostile", `{"PartitionKey":"p","RowKey":"`+rk+`"}`)), 400, "InvalidInput")
	}
	resp := do(t, signedRequest(t, e, http.MethodGet, "/Hostile()", ""))
	if resp.StatusCode != http.StatusOK || strings.Contains(body(resp), `"RowKey"`) {
		t.Fatalf("something was stored: %s", body(resp))
	}
}

// TestRaw_BodyDeadlineEnds checks that the body deadline ends with the body: a keep-alive
// connection idle past it still serves the next request.
func TestRaw_BodyDeadlineEnds(t *testing.T) {
	e := newEnvOpts(t, rest.Options{BodyTimeout: 200 * time.Millisecond})
	entity := `{"PartitionKey":"p","RowKey":"1"}`
	req := signedRequest(t, e, http.MethodPost, "/Hostile", "")
	conn, br := rawConn(t, e, req, fmt.Sprintf("Content-Type: application/json\r\nContent-Length: %d\r\n", len(entity)), entity)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("insert: %v %v", resp, err)
	}
	io.Copy(io.Discard, resp.Body)
	time.Sleep(400 * time.Millisecond)
	next := signedRequest(t, e, http.MethodGet, "/Tables", "")
	next.Write(conn)
	resp, err = http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("next request on the connection: %v %v", resp, err)
	}
}
