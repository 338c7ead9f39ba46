package main

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
)

// cannedServer answers each request on a connection with the next of answers, verbatim,
// and closes the connection when an answer is "" (before reading the request it would
// answer). It returns the endpoint and the request lines it read.
func cannedServer(t *testing.T, answers ...string) (string, <-chan string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	lines := make(chan string, len(answers))
	go func() {
		for len(answers) > 0 {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			r := bufio.NewReader(nc)
			for len(answers) > 0 {
				answer := answers[0]
				answers = answers[1:]
				if answer == "" || !readRequest(r, lines) {
					break
				}
				nc.Write([]byte(answer))
			}
			nc.Close()
		}
	}()
	return "http://" + ln.Addr().String() + "/acct", lines
}

// readRequest reads one request (head and Content-Length body) and sends its first line.
func readRequest(r *bufio.Reader, lines chan<- string) bool {
	req, err := http.ReadRequest(r)
	if err != nil {
		return false
	}
	io.Copy(io.Discard, req.Body)
	lines <- req.Method + " " + req.RequestURI + " " + req.Header.Get("Authorization")[:len("SharedKeyLite acct:")]
	return true
}

func TestClient_Do(t *testing.T) {
	cfg := config{account: "acct", key: devKey}
	t.Run("OK", func(t *testing.T) {
		url, lines := cannedServer(t,
			"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
			"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nx-ms-continuation-NextPartitionKey: 1!8!cDAx\r\n"+
				"X-MS-CONTINUATION-NEXTROWKEY: 1!8!MDAx\r\n\r\n3\r\nabc\r\n2;ext=1\r\nde\r\n0\r\nTrailer: x\r\n\r\n",
			"HTTP/1.1 204 No Content\r\n\r\n",
			"HTTP/1.1 200 OK\r\n\r\nuntil the end")
		c, err := newClient(cfg, url, 1)
		if err != nil {
			t.Fatal(err)
		}
		want := []response{{status: 200, body: []byte("hello")}, {status: 200, body: []byte("abcde"), nextPK: "1!8!cDAx", nextRK: "1!8!MDAx"},
			{status: 204}, {status: 200, body: []byte("until the end")}}
		for i, w := range want {
			body := ""
			if w.status == 204 {
				body = `{"a":1}`
			}
			res, err := c.do(http.MethodGet, "/t(PartitionKey='a',RowKey='b')", body)
			if err != nil || res.status != w.status || string(res.body) != string(w.body) || res.nextPK != w.nextPK || res.nextRK != w.nextRK {
				t.Fatalf("answer %d: %+v %v, want %+v", i, res, err, w)
			}
		}
		if got := <-lines; got != "GET /acct/t(PartitionKey='a',RowKey='b') SharedKeyLite acct:" {
			t.Fatalf("request line %q", got)
		}
	})
	t.Run("ErrIdleClosed", func(t *testing.T) {
		// The server closes the kept connection; the second request is sent again on a new one.
		url, _ := cannedServer(t, "HTTP/1.1 204 No Content\r\n\r\n", "", "HTTP/1.1 204 No Content\r\n\r\n")
		c, err := newClient(cfg, url, 1)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 2 {
			if res, err := c.do(http.MethodGet, "/t", ""); err != nil || res.status != 204 {
				t.Fatalf("request %d: %+v %v", i, res, err)
			}
		}
	})
	t.Run("ErrFraming", func(t *testing.T) {
		url, _ := cannedServer(t, "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n")
		c, err := newClient(cfg, url, 1)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.do(http.MethodGet, "/t", ""); !errors.Is(err, errFraming) {
			t.Fatalf("err = %v, want errFraming", err)
		}
	})
	t.Run("ErrEndpoint", func(t *testing.T) {
		if _, err := newClient(cfg, "https://example.com/acct", 1); err == nil || !strings.Contains(err.Error(), "endpoint") {
			t.Fatalf("err = %v", err)
		}
	})
}
