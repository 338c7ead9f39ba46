package http1

import (
	"bufio"
	"context"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tabletopdb/tabletop/worker/rest/exchange"
)

// serveTest serves h on a free loopback port until the test ends and returns the address.
func serveTest(t *testing.T, s *Server) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if s.ErrorLog == nil {
		s.ErrorLog = log.New(io.Discard, "", 0)
	}
	done := make(chan error, 1)
	go func() { done <- s.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := s.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
		if err := <-done; !errors.Is(err, ErrServerClosed) {
			t.Errorf("Serve: %v", err)
		}
	})
	return ln.Addr().String()
}

// echo answers with the method, target, host and body it read, and a header naming the
// request's X-Test header.
var echo = exchange.HandlerFunc(func(w exchange.ResponseWriter, r *exchange.Request) {
	b, err := io.ReadAll(r.Body)
	if err != nil {
		w.Header().Set("Connection", "close")
		w.WriteHeader(400)
		io.WriteString(w, "body: "+err.Error())
		return
	}
	w.Header().Set("Content-Type", "text/plain")
	w.Header().Set("X-Test", r.Header.Get("X-Test"))
	io.WriteString(w, r.Method+" "+r.RequestURI+" "+r.Host+" "+strconv.FormatInt(r.ContentLength, 10)+" "+string(b))
})

// rawConn is a client connection that writes raw bytes and reads answers.
type rawConn struct {
	t  *testing.T
	c  net.Conn
	br *bufio.Reader
}

func dial(t *testing.T, addr string) *rawConn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(10 * time.Second))
	return &rawConn{t: t, c: c, br: bufio.NewReader(c)}
}

func (rc *rawConn) send(s string) {
	rc.t.Helper()
	if _, err := io.WriteString(rc.c, s); err != nil {
		rc.t.Fatal(err)
	}
}

// read reads one answer to a request of method and its whole body.
func (rc *rawConn) read(method string) (*http.Response, string) {
	rc.t.Helper()
	resp, err := http.ReadResponse(rc.br, &http.Request{Method: method})
	if err != nil {
		rc.t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		rc.t.Fatal(err)
	}
	return resp, string(b)
}

// closed reports whether the server closed the connection: a read ends with EOF or a
// reset, not a timeout.
func (rc *rawConn) closed() bool {
	rc.c.SetReadDeadline(time.Now().Add(2 * time.Second))
	_, err := rc.br.ReadByte()
	return err != nil && !errors.Is(err, os.ErrDeadlineExceeded)
}

func TestServer_KeepAliveAndPipelining(t *testing.T) {
	rc := dial(t, serveTest(t, &Server{Handler: echo}))
	rc.send("GET /a HTTP/1.1\r\nHost: h\r\n\r\n")
	if resp, body := rc.read("GET"); resp.StatusCode != 200 || body != "GET /a h 0 " || resp.ContentLength != int64(len(body)) {
		t.Fatalf("first: %d %q %d", resp.StatusCode, body, resp.ContentLength)
	}
	// Two requests in one write: answered in order on the same connection.
	rc.send("POST /b HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nxyzGET /c?q=1 HTTP/1.1\r\nhost: h2\r\nx-test: v\r\n\r\n")
	if _, body := rc.read("POST"); body != "POST /b h 3 xyz" {
		t.Fatalf("second: %q", body)
	}
	resp, body := rc.read("GET")
	if body != "GET /c?q=1 h2 0 " || resp.Header.Get("X-Test") != "v" || resp.Header.Get("Date") == "" {
		t.Fatalf("third: %q %v", body, resp.Header)
	}
}

func TestServer_ChunkedRequest(t *testing.T) {
	rc := dial(t, serveTest(t, &Server{Handler: echo}))
	rc.send("PUT /t HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3 ;ext=1\r\nabc\r\nA\r\n0123456789\r\n0\r\nTrailer: x\r\n\r\n")
	if _, body := rc.read("PUT"); body != "PUT /t h -1 abc0123456789" {
		t.Fatalf("got %q", body)
	}
	// Both framings: chunked is read, and the connection closes after the answer.
	rc.send("PUT /t HTTP/1.1\r\nHost: h\r\nContent-Length: 100\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n")
	if _, body := rc.read("PUT"); body != "PUT /t h -1 ok" || !rc.closed() {
		t.Fatalf("got %q", body)
	}
}

func TestServer_MalformedChunk(t *testing.T) {
	for _, chunks := range []string{
		"zz\r\nab\r\n0\r\n\r\n",                                        // not hexadecimal
		"2\r\nabX\r\n0\r\n\r\n",                                        // data longer than its size
		"2\nab\r\n0\r\n\r\n",                                           // a size line without CR
		strings.Repeat("1", 20) + "\r\n",                               // a size beyond int64
		" 2\r\nab\r\n0\r\n\r\n",                                        // space before the size
		"2\r\nab\r\n0\r\n folded\r\n\r\n",                              // a trailer line that is no field
		"2;a\rb\r\nab\r\n0\r\n\r\n",                                    // a CR inside the extensions
		strings.Repeat("1;"+strings.Repeat("e", 1000)+"\r\nx\r\n", 20), // framing without end
	} {
		rc := dial(t, serveTest(t, &Server{Handler: echo}))
		rc.send("POST /t HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n" + chunks)
		if resp, body := rc.read("POST"); resp.StatusCode != 400 || !strings.Contains(body, "malformed chunked") || !rc.closed() {
			t.Errorf("%q: %d %q", chunks, resp.StatusCode, body)
		}
	}
}

func TestServer_AnswerFraming(t *testing.T) {
	big := strings.Repeat("x", maxBuffered+1)
	h := exchange.HandlerFunc(func(w exchange.ResponseWriter, r *exchange.Request) {
		switch r.URL.Path {
		case "/big":
			io.WriteString(w, big[:10])
			io.WriteString(w, big[10:])
		case "/declared":
			w.Header().Set("Content-Length", strconv.Itoa(len(big)))
			io.WriteString(w, big)
		case "/empty":
		case "/nocontent":
			w.WriteHeader(204)
			if _, err := io.WriteString(w, "x"); err != ErrBodyNotAllowed {
				t.Errorf("Write after 204: %v", err)
			}
		case "/sniff":
			io.WriteString(w, "<html><body>hi</body></html>")
		case "/split":
			w.Header().Set("X-Split", "a\r\nInjected: yes")
		}
	})
	rc := dial(t, serveTest(t, &Server{Handler: h}))
	for _, tc := range []struct {
		method, path string
		length       int64
		te           string
		body         string
	}{
		{"GET", "/big", -1, "chunked", big},
		{"GET", "/declared", int64(len(big)), "", big},
		{"HEAD", "/declared", int64(len(big)), "", ""},
		{"GET", "/empty", 0, "", ""},
		{"HEAD", "/empty", -1, "", ""},
		{"GET", "/nocontent", -1, "", ""},
		{"GET", "/sniff", 28, "", "<html><body>hi</body></html>"},
		{"GET", "/split", 0, "", ""},
	} {
		rc.send(tc.method + " " + tc.path + " HTTP/1.1\r\nHost: h\r\n\r\n")
		resp, body := rc.read(tc.method)
		if cl := resp.Header.Get("Content-Length"); tc.length >= 0 && cl != strconv.FormatInt(tc.length, 10) || tc.length < 0 && cl != "" {
			t.Errorf("%s %s: Content-Length %q, want %d", tc.method, tc.path, cl, tc.length)
		}
		if te := strings.Join(resp.TransferEncoding, ","); te != tc.te || body != tc.body {
			t.Errorf("%s %s: Transfer-Encoding %q body of %d bytes", tc.method, tc.path, te, len(body))
		}
		switch tc.path {
		case "/sniff":
			if ct := resp.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
				t.Errorf("sniffed %q", ct)
			}
		case "/split":
			if resp.Header.Get("Injected") != "" || resp.Header.Get("X-Split") != "a  Injected: yes" {
				t.Errorf("split header: %v", resp.Header)
			}
		}
	}
}

func TestServer_ConnectionClose(t *testing.T) {
	addr := serveTest(t, &Server{Handler: echo})
	for _, tc := range []struct {
		name, request string
		closes        bool
		connection    string
	}{
		{"ClientClose", "GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n", true, "close"},
		{"HTTP10", "GET / HTTP/1.0\r\n\r\n", true, "close"},
		{"HTTP10KeepAlive", "GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n", false, "keep-alive"},
		{"HandlerClose", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nq\r\n", true, "close"},
		{"KeepAlive", "GET / HTTP/1.1\r\nHost: h\r\n\r\n", false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rc := dial(t, addr)
			rc.send(tc.request)
			resp, _ := rc.read("GET")
			// http.ReadResponse moves "Connection: close" to resp.Close.
			if got := resp.Header.Get("Connection"); resp.Close && tc.connection != "close" || !resp.Close && got != tc.connection {
				t.Errorf("Connection: %q (close %v), want %q", got, resp.Close, tc.connection)
			}
			if got := rc.closed(); got != tc.closes {
				t.Errorf("closed: %v, want %v", got, tc.closes)
			}
		})
	}
}

func TestServer_Refused(t *testing.T) {
	var mu sync.Mutex
	var refused []int
	refuse := func(w exchange.ResponseWriter, status int, reason string) {
		mu.Lock()
		refused = append(refused, status)
		mu.Unlock()
		w.WriteHeader(400)
		io.WriteString(w, reason)
	}
	addr := serveTest(t, &Server{Handler: echo, Refuse: refuse, MaxHeaderBytes: 4096})
	for _, tc := range []struct {
		name, request string
		status        int
	}{
		{"NoHost", "GET / HTTP/1.1\r\n\r\n", 400},
		{"TwoHosts", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400},
		{"BadHost", "GET / HTTP/1.1\r\nHost: a b\r\n\r\n", 400},
		{"NoColon", "GET / HTTP/1.1\r\nHost: h\r\nno colon\r\n\r\n", 400},
		{"SpaceBeforeColon", "GET / HTTP/1.1\r\nHost: h\r\nX-A : b\r\n\r\n", 400},
		{"Folding", "GET / HTTP/1.1\r\nHost: h\r\nX-A: b\r\n c\r\n\r\n", 400},
		{"ControlInValue", "GET / HTTP/1.1\r\nHost: h\r\nX-A: b\x01c\r\n\r\n", 400},
		{"BadLength", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: +3\r\n\r\nabc", 400},
		{"TwoLengths", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", 400},
		{"Gzip", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip\r\n\r\n", 501},
		{"ChunkedHTTP10", "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400},
		{"Expectation", "POST / HTTP/1.1\r\nHost: h\r\nExpect: something\r\n\r\n", 417},
		{"Version", "GET / HTTP/2.0\r\nHost: h\r\n\r\n", 505},
		{"BadVersion", "GET / HTTP/1.1x\r\nHost: h\r\n\r\n", 400},
		{"BadMethod", "G(T / HTTP/1.1\r\nHost: h\r\n\r\n", 400},
		{"BadTarget", "GET a%zz HTTP/1.1\r\nHost: h\r\n\r\n", 400},
		{"TooLarge", "GET / HTTP/1.1\r\nHost: h\r\nX-Big: " + strings.Repeat("b", 8192) + "\r\n\r\n", 431},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mu.Lock()
			refused = refused[:0]
			mu.Unlock()
			rc := dial(t, addr)
			go io.WriteString(rc.c, tc.request)
			resp, body := rc.read("GET")
			mu.Lock()
			got := append([]int(nil), refused...)
			mu.Unlock()
			if len(got) != 1 || got[0] != tc.status || resp.StatusCode != 400 || body == "" || !resp.Close || !rc.closed() {
				t.Fatalf("refused %v; answer %d %q %v", got, resp.StatusCode, body, resp.Header)
			}
		})
	}
}

func TestServer_ExpectContinue(t *testing.T) {
	rc := dial(t, serveTest(t, &Server{Handler: echo}))
	rc.send("PUT /t HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n")
	line, err := rc.br.ReadString('\n')
	if err != nil || line != "HTTP/1.1 100 Continue\r\n" {
		t.Fatalf("got %q, %v", line, err)
	}
	rc.br.ReadString('\n')
	rc.send("ok")
	if _, body := rc.read("PUT"); body != "PUT /t h 2 ok" {
		t.Fatalf("got %q", body)
	}
}

// TestServer_ExpectContinueUnread: a handler that answers without reading the body sends
// no "100 Continue", and the connection closes (the client may or may not send the body).
func TestServer_ExpectContinueUnread(t *testing.T) {
	h := exchange.HandlerFunc(func(w exchange.ResponseWriter, r *exchange.Request) { w.WriteHeader(413) })
	rc := dial(t, serveTest(t, &Server{Handler: h}))
	rc.send("PUT /t HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n")
	if resp, _ := rc.read("PUT"); resp.StatusCode != 413 || !rc.closed() {
		t.Fatalf("got %d", resp.StatusCode)
	}
}

// TestServer_UnreadBody: what a handler leaves of a body is dropped, and the connection
// serves on; beyond maxDrain, the connection closes.
func TestServer_UnreadBody(t *testing.T) {
	h := exchange.HandlerFunc(func(w exchange.ResponseWriter, r *exchange.Request) { io.WriteString(w, "ok") })
	addr := serveTest(t, &Server{Handler: h})
	rc := dial(t, addr)
	rc.send("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhelloGET / HTTP/1.1\r\nHost: h\r\n\r\n")
	rc.read("POST")
	if _, body := rc.read("GET"); body != "ok" {
		t.Fatalf("after a drained body: %q", body)
	}
	rc = dial(t, addr)
	go io.WriteString(rc.c, "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1000000\r\n\r\n"+strings.Repeat("x", 1000000))
	if resp, _ := rc.read("POST"); resp.StatusCode != 200 || !rc.closed() {
		t.Fatalf("large unread body: %d, connection kept", resp.StatusCode)
	}
}

func TestServer_Timeouts(t *testing.T) {
	addr := serveTest(t, &Server{Handler: echo, ReadHeaderTimeout: 200 * time.Millisecond, IdleTimeout: 300 * time.Millisecond})
	for _, tc := range []struct{ name, request string }{
		{"NoRequest", ""},
		{"StalledHead", "GET / HTTP/1.1\r\nHost:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rc := dial(t, addr)
			rc.send(tc.request)
			start := time.Now()
			if !rc.closed() {
				t.Fatal("not closed")
			}
			if d := time.Since(start); d > 1900*time.Millisecond { // closed() gives up at 2 s
				t.Fatalf("closed after %v", d)
			}
		})
	}
	rc := dial(t, addr)
	rc.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
	rc.read("GET")
	if !rc.closed() {
		t.Fatal("idle connection not closed")
	}
}

// TestServer_WriteTimeout: an answer to a client that reads none of it fails the
// handler's Write after WriteTimeout, and its connection closes; an answer read slowly
// but steadily, each write taken within the bound, is whole.
func TestServer_WriteTimeout(t *testing.T) {
	const size = 64 << 20 // more than loopback's socket buffers hold
	failed := make(chan error, 1)
	h := exchange.HandlerFunc(func(w exchange.ResponseWriter, r *exchange.Request) {
		chunk := make([]byte, 1<<20)
		n := size
		if r.RequestURI == "/small" {
			n = len(chunk) * 4
		}
		for ; n > 0; n -= len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				failed <- err
				return
			}
		}
	})
	addr := serveTest(t, &Server{Handler: h, WriteTimeout: 200 * time.Millisecond})
	rc := dial(t, addr)
	rc.send("GET /large HTTP/1.1\r\nHost: h\r\n\r\n")
	select {
	case err := <-failed:
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("Write failed with %v, want a deadline", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the answer to a client that reads nothing is still being written")
	}
	rc = dial(t, addr)
	rc.send("GET /small HTTP/1.1\r\nHost: h\r\n\r\n")
	var got int
	buf := make([]byte, 64<<10)
	for got < 4<<20 {
		time.Sleep(time.Millisecond) // a slow reader: every write still moves within the bound
		n, err := rc.br.Read(buf)
		if err != nil {
			t.Fatalf("after %d bytes: %v", got, err)
		}
		got += n
	}
}

// TestServer_Panic: a handler's panic closes its connection; the server serves on.
func TestServer_Panic(t *testing.T) {
	h := exchange.HandlerFunc(func(w exchange.ResponseWriter, r *exchange.Request) {
		if r.URL.Path == "/panic" {
			panic("boom")
		}
		io.WriteString(w, "ok")
	})
	addr := serveTest(t, &Server{Handler: h})
	rc := dial(t, addr)
	rc.send("GET /panic HTTP/1.1\r\nHost: h\r\n\r\n")
	if !rc.closed() {
		t.Fatal("connection kept after a panic")
	}
	rc = dial(t, addr)
	rc.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
	if _, body := rc.read("GET"); body != "ok" {
		t.Fatalf("after a panic: %q", body)
	}
}

// TestServer_Shutdown: Shutdown closes idle connections at once, lets an answer in
// flight finish (with "Connection: close"), then returns; Serve returns ErrServerClosed.
func TestServer_Shutdown(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	h := exchange.HandlerFunc(func(w exchange.ResponseWriter, r *exchange.Request) {
		if r.URL.Path == "/slow" {
			close(entered)
			<-release
		}
		io.WriteString(w, "done")
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{Handler: h}
	served := make(chan error, 1)
	go func() { served <- s.Serve(ln) }()
	idle := dial(t, ln.Addr().String())
	idle.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
	idle.read("GET")
	busy := dial(t, ln.Addr().String())
	busy.send("GET /slow HTTP/1.1\r\nHost: h\r\n\r\n")
	<-entered
	shut := make(chan error, 1)
	go func() { shut <- s.Shutdown(context.Background()) }()
	if !idle.closed() {
		t.Fatal("idle connection kept")
	}
	select {
	case err := <-shut:
		t.Fatalf("Shutdown returned %v with an answer in flight", err)
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	if resp, body := busy.read("GET"); body != "done" || !resp.Close {
		t.Fatalf("answer in flight: %q %v", body, resp.Header)
	}
	if err := <-shut; err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	if err := <-served; !errors.Is(err, ErrServerClosed) {
		t.Fatalf("Serve: %v", err)
	}
	if !busy.closed() {
		t.Fatal("connection kept after Shutdown")
	}
}

// TestServer_ShutdownDeadline: Shutdown returns the context's error when an answer does
// not finish in time.
func TestServer_ShutdownDeadline(t *testing.T) {
	release := make(chan struct{})
	entered := make(chan struct{})
	h := exchange.HandlerFunc(func(w exchange.ResponseWriter, r *exchange.Request) { close(entered); <-release })
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	s := &Server{Handler: h}
	go s.Serve(ln)
	rc := dial(t, ln.Addr().String())
	rc.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
	<-entered
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := s.Shutdown(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Shutdown: %v", err)
	}
	close(release)
}

// TestServer_ReadDeadline: the handler bounds its body's reading through
// exchange.SetReadDeadline.
func TestServer_ReadDeadline(t *testing.T) {
	h := exchange.HandlerFunc(func(w exchange.ResponseWriter, r *exchange.Request) {
		exchange.SetReadDeadline(w, time.Now().Add(50*time.Millisecond))
		_, err := io.ReadAll(r.Body)
		w.Header().Set("Connection", "close")
		io.WriteString(w, strconv.FormatBool(errors.Is(err, os.ErrDeadlineExceeded)))
	})
	rc := dial(t, serveTest(t, &Server{Handler: h}))
	rc.send("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\nabc")
	if _, body := rc.read("POST"); body != "true" {
		t.Fatalf("got %q", body)
	}
}

// TestServer_NetHTTPClient: net/http's client, with keep-alive connections, reads every
// framing the server writes.
func TestServer_NetHTTPClient(t *testing.T) {
	addr := serveTest(t, &Server{Handler: echo})
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	defer client.CloseIdleConnections()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 50 {
				payload := strings.Repeat("p", (i*50+j)*331)
				resp, err := client.Post("http://"+addr+"/x", "text/plain", strings.NewReader(payload))
				if err != nil {
					t.Error(err)
					return
				}
				b, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				if err != nil || !strings.HasSuffix(string(b), " "+payload) {
					t.Errorf("request %d/%d: %v, %d bytes", i, j, err, len(b))
					return
				}
			}
		}()
	}
	wg.Wait()
}
