//go:build linux

package native

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// serveEnv makes the test binary run the server program itself (see TestMain), so that
// TestMemory_HostileBodies can measure the server's memory apart from its own.
const serveEnv = "TABLETOP_TEST_SERVE"

func TestMain(m *testing.M) {
	if os.Getenv(serveEnv) == "1" {
		os.Args = append(os.Args[:1], strings.Fields(os.Getenv(serveEnv+"_ARGS"))...)
		Main()
		return
	}
	os.Exit(m.Run())
}

// maxHostileRSS bounds the server's resident memory while it holds the hostile
// connections: the body budget (64 MiB) plus the runtime and the connections. Without the
// budget, the 100 stalled bodies alone hold over 200 MB.
const maxHostileRSS = 160 << 20

// TestMemory_HostileBodies holds 200 connections whose bodies stall after 2 MiB or
// announce more than any operation takes, prints the server's RSS, checks that it stays
// bounded, and that another client is served meanwhile.
func TestMemory_HostileBodies(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("starts the server program; measures memory, which the race detector multiplies")
	}
	addr, pid := startProcess(t)
	var wg sync.WaitGroup
	for i := 0; i < 200; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			hostileConn(t, addr, i%2 == 0)
		}()
	}
	wg.Wait()
	var rss int64
	for i := 0; i < 5; i++ { // the highest of a second's samples, while the server reads what was sent
		time.Sleep(200 * time.Millisecond)
		rss = max(rss, residentBytes(t, pid))
	}
	fmt.Printf("server RSS with 200 hostile connections: %.1f MB\n", float64(rss)/1e6)
	if rss > maxHostileRSS {
		t.Fatalf("server RSS %d MB, want at most %d MB", rss>>20, maxHostileRSS>>20)
	}
	for i := 0; i < 20; i++ {
		req, _ := http.NewRequest(http.MethodGet, "http://"+addr+"/devstoreaccount1/Tables", nil)
		req.Header.Set("x-ms-version", "2019-02-02")
		req.Header.Set("Accept", "application/json")
		signLite(req)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("client beside the hostile connections: %d", resp.StatusCode)
		}
	}
}

// hostileConn opens a connection with an authenticated insert whose body either stalls
// after 2 MiB of a 4,000,000 bytes announced (stall) or announces 100 MB (oversized) and
// sends the same. The connection is left open until the test ends.
func hostileConn(t *testing.T, addr string, stall bool) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Error(err)
		return
	}
	t.Cleanup(func() { conn.Close() })
	req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/devstoreaccount1/hostile", nil)
	signLite(req)
	length := 4_000_000
	if !stall {
		length = 100_000_000
	}
	fmt.Fprintf(conn, "POST /devstoreaccount1/hostile HTTP/1.1\r\nHost: %s\r\nx-ms-version: 2019-02-02\r\n"+
		"x-ms-date: %s\r\nAuthorization: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n",
		addr, req.Header.Get("x-ms-date"), req.Header.Get("Authorization"), length)
	conn.SetWriteDeadline(time.Now().Add(2 * time.Second))
	conn.Write([]byte(`{"PartitionKey":"p","RowKey":"r","S":"` + strings.Repeat("x", 2<<20)))
}

// startProcess runs the server program in a child process on a free port and returns
// its address and process ID; the process is killed when the test ends.
func startProcess(t *testing.T) (string, int) {
	t.Helper()
	addr, cmd := startProcessArgs(t, "-data :memory:")
	return addr, cmd.Process.Pid
}

// startProcessArgs runs the server program with args (and a free port, no log, no web)
// in a child process and returns its address and command; the process is killed when
// the test ends.
func startProcessArgs(t *testing.T, args string) (string, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), serveEnv+"=1", serveEnv+"_ARGS=-addr 127.0.0.1:0 -quiet -web none "+args)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if u, ok := strings.CutPrefix(strings.Replace(sc.Text(), "https://", "http://", 1), "Tabletop listening on http://"); ok {
			go io.Copy(io.Discard, out)
			return u, cmd
		}
	}
	t.Fatal("server did not start")
	return "", nil
}

// residentBytes reads the VmRSS of process pid.
func residentBytes(t *testing.T, pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	t.Fatal("no VmRSS")
	return 0
}
