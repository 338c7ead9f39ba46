//go:build linux

package native

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/tabletopdb/tabletop/worker/rest"
)

// subscribers is how many change feed requests TestMemory_Subscribers holds open.
const subscribers = 1000

// maxSubscribersRSS bounds how much the server's resident memory may grow while it holds
// the subscribers' requests.
const maxSubscribersRSS = 50 << 20

// TestMemory_Subscribers holds 1,000 change feed requests waiting on one table (wait=30),
// none of them reading: it prints how much the server's RSS grew, checks the bound, that
// a write meanwhile is answered at once, and that every subscriber then receives it.
func TestMemory_Subscribers(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("starts the server program; measures memory, which the race detector multiplies")
	}
	addr, pid := startProcess(t)
	signed(t, addr, "POST", "/devstoreaccount1/Tables", `{"TableName":"live"}`)
	end := signed(t, addr, "GET", "/devstoreaccount1/live()?comp=changes", "").Header.Get(rest.CheckpointHeader)
	base := sampleRSS(t, pid)
	conns := make([]net.Conn, subscribers)
	for i := range conns {
		conns[i] = subscribe(t, addr, end)
	}
	grown := sampleRSS(t, pid) - base
	fmt.Printf("server RSS grew by %.1f MB with %d subscribers waiting\n", float64(grown)/1e6, subscribers)
	if grown > maxSubscribersRSS {
		t.Fatalf("server RSS grew by %d MB, want at most %d MB", grown>>20, maxSubscribersRSS>>20)
	}
	start := time.Now()
	signed(t, addr, "POST", "/devstoreaccount1/live", `{"PartitionKey":"p","RowKey":"1"}`)
	if took := time.Since(start); took > time.Second {
		t.Fatalf("a write beside the subscribers took %v", took)
	}
	for i, c := range conns {
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatalf("subscriber %d: %v", i, err)
		}
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"RowKey":"1"`) {
			t.Fatalf("subscriber %d: %d %s", i, resp.StatusCode, body)
		}
	}
}

// subscribe sends a change feed request after checkpoint since that waits up to 30 s,
// on a connection of its own, closed when the test ends, and reads nothing.
func subscribe(t *testing.T, addr, since string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	req, _ := http.NewRequest("GET", "http://"+addr+"/devstoreaccount1/live()?comp=changes&wait=30&since="+since, nil)
	req.Header.Set("x-ms-version", "2019-02-02")
	req.Header.Set("Accept", "application/json;odata=nometadata")
	signLite(req)
	if err := req.Write(c); err != nil {
		t.Fatal(err)
	}
	return c
}

// signed sends a signed request with a JSON body (none if "") and checks it succeeded.
func signed(t *testing.T, addr, method, path, body string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(method, "http://"+addr+path, strings.NewReader(body))
	req.Header.Set("x-ms-version", "2019-02-02")
	req.Header.Set("Accept", "application/json;odata=nometadata")
	req.Header.Set("Content-Type", "application/json")
	signLite(req)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, resp.Body)
	if resp.StatusCode >= 300 {
		t.Fatalf("%s %s: %d", method, path, resp.StatusCode)
	}
	return resp
}

// sampleRSS is the highest of a second's samples of the resident memory of process pid.
func sampleRSS(t *testing.T, pid int) int64 {
	var rss int64
	for i := 0; i < 5; i++ {
		time.Sleep(200 * time.Millisecond)
		rss = max(rss, residentBytes(t, pid))
	}
	return rss
}

// TestSubscribers_Vanish holds 200 change feed requests (wait=30) on a server run in this
// process, then closes their connections, as clients killed or cut off do: the server's
// goroutines come back to what they were within seconds, not when the waits end.
func TestSubscribers_Vanish(t *testing.T) {
	if testing.Short() {
		t.Skip("holds 200 connections")
	}
	s := start(t, config{data: memoryData, quiet: true, web: "none"})
	addr := strings.TrimPrefix(s.url, "http://")
	signed(t, addr, "POST", "/devstoreaccount1/Tables", `{"TableName":"live"}`)
	end := signed(t, addr, "GET", "/devstoreaccount1/live()?comp=changes", "").Header.Get(rest.CheckpointHeader)
	base := runtime.NumGoroutine()
	conns := make([]net.Conn, 200)
	for i := range conns {
		conns[i] = subscribe(t, addr, end)
	}
	settle := func(want func(n int) bool) int {
		n := runtime.NumGoroutine()
		for deadline := time.Now().Add(5 * time.Second); !want(n) && time.Now().Before(deadline); n = runtime.NumGoroutine() {
			time.Sleep(20 * time.Millisecond)
		}
		return n
	}
	if n := settle(func(n int) bool { return n >= base+len(conns) }); n < base+len(conns) {
		t.Fatalf("%d goroutines with %d subscribers waiting, %d before", n, len(conns), base)
	}
	for _, c := range conns {
		c.Close()
	}
	if n := settle(func(n int) bool { return n <= base+10 }); n > base+10 {
		t.Fatalf("%d goroutines 5 s after the %d subscribers went, %d before", n, len(conns), base)
	}
}
