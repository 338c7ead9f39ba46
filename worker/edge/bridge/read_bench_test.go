package bridge

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/worker/rest"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
)

// BenchmarkServeFrame_PointRead is the Go side of the edge's warm point read: one signed
// Get Entity of a table of 1,000 entities, its head as the entry Worker forwards it
// (workerd's lower-case header names), through ServeFrame into the REST handler over a
// memory store and back as an answer frame. Run it natively or under js/wasm
// (GOOS=js GOARCH=wasm go test -exec=... -bench ServeFrame ./worker/edge/bridge/).
func BenchmarkServeFrame_PointRead(b *testing.B) {
	h, head := pointRead(b)
	frame := []byte(head)
	var out []byte
	b.ReportAllocs()
	for b.Loop() {
		out = ServeFrame(h, out[:0], frame, len(frame), nil)
	}
	if head, body := splitAnswer(b, out); !strings.HasPrefix(head, "200\n") {
		b.Fatalf("answer %q %q", head, body)
	}
}

// pointRead returns a REST handler over a memory store holding table bench, 1,000
// entities in 10 partitions, and the head of a Shared Key Lite signed read of one.
func pointRead(tb testing.TB) (*rest.Handler, string) {
	st, err := core.Open(core.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	acct := auth.DevAccount()
	h, err := rest.New(rest.Options{Accounts: []*rest.Account{{Account: acct, Store: st}}})
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := st.CreateTable("bench"); err != nil {
		tb.Fatal(err)
	}
	for i := range 1000 {
		put := signedHead(acct, "PUT", "/bench(PartitionKey='p"+strconv.Itoa(i%10)+"',RowKey='r"+strconv.Itoa(i)+"')")
		frame := []byte(put + `{"n":` + strconv.Itoa(i) + `,"s":"some text of a typical entity"}`)
		if head, body := splitAnswer(tb, ServeFrame(h, nil, frame, len(put), nil)); !strings.HasPrefix(head, "204\n") {
			tb.Fatalf("insert %d: %q %q", i, head, body)
		}
	}
	return h, signedHead(acct, "GET", "/bench(PartitionKey='p7',RowKey='r417')")
}

// signedHead is the head of a request for path in acct, signed with Shared Key Lite.
func signedHead(acct auth.Account, method, path string) string {
	date := time.Now().UTC().Format(time.RFC1123)
	date = strings.Replace(date, "UTC", "GMT", 1)
	m := hmac.New(sha256.New, acct.Keys[0])
	m.Write([]byte(date + "\n/" + acct.Name + "/" + acct.Name + path))
	sig := base64.StdEncoding.EncodeToString(m.Sum(nil))
	return method + " http://127.0.0.1:8787/" + acct.Name + path + "\n" +
		"accept: application/json;odata=nometadata\naccept-encoding: gzip, deflate\naccept-language: *\n" +
		"authorization: SharedKeyLite " + acct.Name + ":" + sig + "\ncontent-type: application/json\n" +
		"dataserviceversion: 3.0\nhost: 127.0.0.1:8787\nsec-fetch-mode: cors\nuser-agent: node\n" +
		"x-ms-date: " + date + "\nx-ms-version: 2019-02-02\n"
}
