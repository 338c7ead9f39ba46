package batch

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/tabletopdb/tabletop/worker/rest/uri"
)

// testCT is the Content-Type of bodies built by batchBody.
const testCT = "multipart/mixed; boundary=batch_b1"

// batchBody frames ops (whole HTTP requests) the way the Go client does, with CRLF.
func batchBody(ops ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "--batch_b1\r\nContent-Type: multipart/mixed; boundary=changeset_c1\r\n\r\n")
	for _, op := range ops {
		fmt.Fprintf(&b, "--changeset_c1\r\nContent-Transfer-Encoding: binary\r\n"+
			"Content-Type: application/http\r\n\r\n%s\r\n", op)
	}
	fmt.Fprintf(&b, "--changeset_c1--\r\n\r\n--batch_b1--\r\n")
	return b.String()
}

// insertOp is an insert of RowKey rk with an optional extra JSON property value.
func insertOp(rk, pad string) string {
	return "POST http://127.0.0.1:10002/devstoreaccount1/t HTTP/1.1\r\n" +
		"Content-Type: application/json\r\nPrefer: return-no-content\r\n\r\n" +
		`{"PartitionKey":"p","RowKey":"` + rk + `","Pad":"` + pad + `"}`
}

// insertOps returns n inserts with RowKeys 0..n-1.
func insertOps(n int) []string {
	ops := make([]string, n)
	for i := range ops {
		ops[i] = insertOp(fmt.Sprint(i), "")
	}
	return ops
}

// fixture reads a request body captured from an official client, and its Content-Type
// (taken from the body's first line, as the service's clients do for responses).
func fixture(t testing.TB, name string) (body, contentType string) {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(b), "\r\n")
	return string(b), "multipart/mixed; boundary=" + strings.TrimPrefix(first, "--")
}

// wantOp is what a test expects of one SubRequest; header lists only the names checked,
// and a name in absent must not be there.
type wantOp struct {
	method, url string
	header      map[string]string
	absent      []string
	body        string
}

func checkOps(t *testing.T, got []SubRequest, want []wantOp) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d operations, want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Method != w.method || target(g.URL) != w.url || string(g.Body) != w.body {
			t.Errorf("op %d = %s %s %q, want %s %s %q", i, g.Method, target(g.URL), g.Body, w.method, w.url, w.body)
		}
		for name, v := range w.header {
			if vs, ok := g.Header[name]; !ok || len(vs) != 1 || vs[0] != v {
				t.Errorf("op %d header %s = %q, want %q", i, name, vs, v)
			}
		}
		for _, name := range w.absent {
			if _, ok := g.Header[name]; ok {
				t.Errorf("op %d has header %s", i, name)
			}
		}
	}
}

// target is u as the request line names it: scheme://host and the request URI, or the
// request URI alone for a path.
func target(u *uri.URL) string {
	if u.Scheme == "" {
		return u.RequestURI()
	}
	return u.Scheme + "://" + u.Host + u.RequestURI()
}
