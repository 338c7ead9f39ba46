//go:build !js

package native

import (
	"bufio"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tabletopdb/tabletop/worker/rest/auth"
)

// started is a server run in the background by start.
type started struct {
	connStr string
	url     string
	log     *syncBuffer
	stop    func() error // cancels the context and waits for run to return
}

// start runs the server with cfg (addr 127.0.0.1:0) and waits for its announcement.
func start(t *testing.T, cfg config) *started {
	t.Helper()
	cfg.addr = "127.0.0.1:0"
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	logs := &syncBuffer{}
	done := make(chan error, 1)
	go func() { done <- run(ctx, cfg, pw, logs); pw.Close() }()
	s := &started{log: logs}
	sc := bufio.NewScanner(pr)
	for s.connStr == "" && sc.Scan() {
		line := sc.Text()
		if u, ok := strings.CutPrefix(line, "Tabletop listening on "); ok {
			s.url = u
		}
		if strings.HasPrefix(line, "DefaultEndpointsProtocol=") {
			s.connStr = line
		}
	}
	go io.Copy(io.Discard, pr)
	if s.connStr == "" {
		cancel()
		t.Fatalf("server did not start: %v", <-done)
	}
	var once sync.Once
	var err error
	s.stop = func() error {
		once.Do(func() { cancel(); err = <-done })
		return err
	}
	t.Cleanup(func() { s.stop() })
	return s
}

func client(t *testing.T, s *started, table string) *aztables.Client {
	t.Helper()
	svc, err := aztables.NewServiceClientFromConnectionString(s.connStr, &aztables.ClientOptions{
		ClientOptions: azcore.ClientOptions{Retry: policy.RetryOptions{MaxRetries: -1}}})
	if err != nil {
		t.Fatal(err)
	}
	return svc.NewClient(table)
}

func TestRun_Persistence(t *testing.T) {
	dir := t.TempDir()
	cfg := config{data: dir, quiet: true, web: filepath.Join(dir, "noweb")}
	s := start(t, cfg)
	c := client(t, s, "Durable")
	if _, err := c.CreateTable(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := c.AddEntity(context.Background(), []byte(`{"PartitionKey":"p","RowKey":"r","A":"kept"}`), nil); err != nil {
		t.Fatal(err)
	}
	if err := s.stop(); err != nil {
		t.Fatalf("stop: %v", err)
	}
	s = start(t, cfg)
	got, err := client(t, s, "Durable").GetEntity(context.Background(), "p", "r", nil)
	if err != nil || !strings.Contains(string(got.Value), `"A":"kept"`) {
		t.Fatalf("after restart: %s, %v", got.Value, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "devstoreaccount1")); err != nil {
		t.Fatalf("data directory per account: %v", err)
	}
}

func TestRun_GracefulShutdown(t *testing.T) {
	s := start(t, config{data: memoryData, quiet: true, web: "none"})
	c := client(t, s, "Slow")
	if _, err := c.CreateTable(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	// Stop while an insert is in flight, its body still arriving: it must complete.
	pr, pw := io.Pipe()
	req, _ := http.NewRequest(http.MethodPost, s.url+"/devstoreaccount1/Slow", pr)
	req.Header.Set("Accept", "application/json;odata=nometadata")
	signLite(req)
	result := make(chan int, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Error(err)
			result <- 0
			return
		}
		resp.Body.Close()
		result <- resp.StatusCode
	}()
	io.WriteString(pw, `{"PartitionKey":"p",`)
	time.Sleep(100 * time.Millisecond)
	stopped := make(chan error, 1)
	go func() { stopped <- s.stop() }()
	time.Sleep(100 * time.Millisecond)
	io.WriteString(pw, `"RowKey":"r"}`)
	pw.Close()
	if status := <-result; status != http.StatusCreated {
		t.Fatalf("in-flight insert: status %d", status)
	}
	if err := <-stopped; err != nil {
		t.Fatalf("stop: %v", err)
	}
}

func TestRun_Log(t *testing.T) {
	s := start(t, config{data: memoryData, web: "none"})
	if _, err := client(t, s, "Logged").CreateTable(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	s.stop()
	re := regexp.MustCompile(`(?m)^\d{4}/\d\d/\d\d \d\d:\d\d:\d\d\.\d{6} POST /devstoreaccount1/Tables 201 \S+$`)
	if !re.MatchString(s.log.String()) {
		t.Fatalf("log:\n%s", s.log.String())
	}
}

func TestRun_Web(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "index.html"), []byte("<h1>playground</h1>"), 0o644)
	os.WriteFile(filepath.Join(dir, "app.js"), []byte("console.log(1)"), 0o644)
	s := start(t, config{data: memoryData, quiet: true, web: dir})
	for path, want := range map[string]string{"/": "<h1>playground</h1>", "/web/app.js": "console.log(1)"} {
		resp, err := http.Get(s.url + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || string(b) != want {
			t.Fatalf("GET %s: %d %s", path, resp.StatusCode, b)
		}
	}
	// The page's files are also served beside it, so the page at "/" finds them there:
	// HEAD /playground/app.js, which it sends to learn where they are, is not the API's 400.
	os.MkdirAll(filepath.Join(dir, "playground"), 0o755)
	os.WriteFile(filepath.Join(dir, "playground", "app.js"), []byte("export {}"), 0o644)
	for path, want := range map[string]int{"/playground/app.js": 200, "/playground/none.js": 400, "/playground/app.js?comp=x": 400, "/app.js": 400} {
		req, _ := http.NewRequest(http.MethodHead, s.url+path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Fatalf("HEAD %s: %d, want %d", path, resp.StatusCode, want)
		}
	}
	os.WriteFile(filepath.Join(dir, "sw.js"), []byte("self"), 0o644)
	resp, err := http.Get(s.url + "/web/sw.js")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := resp.Header.Get("Service-Worker-Allowed"); got != "/" {
		t.Fatalf("the service worker may not control the page at /: Service-Worker-Allowed %q", got)
	}
	resp, err = http.Get(s.url + "/devstoreaccount1/Tables")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("API request without credentials: %d", resp.StatusCode)
	}
}

func TestRun_WebCaching(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "index.html"), []byte("<h1>playground</h1>"), 0o644)
	os.MkdirAll(filepath.Join(dir, "dist"), 0o755)
	os.WriteFile(filepath.Join(dir, "dist", "tabletop.wasm"), []byte("\x00asm\x01\x00\x00\x00"), 0o644)
	s := start(t, config{data: memoryData, quiet: true, web: dir})
	for _, path := range []string{"/", "/dist/tabletop.wasm", "/web/dist/tabletop.wasm"} {
		t.Run(path, func(t *testing.T) {
			resp, err := http.Get(s.url + path)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK || resp.Header.Get("Cache-Control") != "no-cache" {
				t.Fatalf("GET %s: %d, Cache-Control %q, want 200 and no-cache", path, resp.StatusCode, resp.Header.Get("Cache-Control"))
			}
			if strings.HasSuffix(path, ".wasm") && resp.Header.Get("Content-Type") != "application/wasm" {
				t.Fatalf("GET %s: Content-Type %q: a browser compiles the module as it arrives only from application/wasm", path, resp.Header.Get("Content-Type"))
			}
			req, _ := http.NewRequest(http.MethodGet, s.url+path, nil)
			req.Header.Set("If-Modified-Since", resp.Header.Get("Last-Modified"))
			again, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			again.Body.Close()
			if again.StatusCode != http.StatusNotModified {
				t.Fatalf("GET %s revalidated: %d, want 304", path, again.StatusCode)
			}
		})
	}
}

// signLite signs req with SharedKeyLite for the development account.
func signLite(req *http.Request) {
	date := time.Now().UTC().Format(http.TimeFormat)
	req.Header.Set("x-ms-date", date)
	key, _ := base64.StdEncoding.DecodeString(auth.DevAccountKey)
	m := hmac.New(sha256.New, key)
	res := "/" + auth.DevAccountName + req.URL.EscapedPath()
	if comp := req.URL.Query()["comp"]; len(comp) > 0 {
		res += "?comp=" + comp[0]
	}
	m.Write([]byte(date + "\n" + res))
	req.Header.Set("Authorization", "SharedKeyLite "+auth.DevAccountName+":"+base64.StdEncoding.EncodeToString(m.Sum(nil)))
}

// syncBuffer is a goroutine-safe strings.Builder.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
