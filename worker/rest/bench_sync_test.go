//go:build !js

package rest_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/worker/rest"
)

// syncBenchSize is how many entities the sync benchmarks pull and push.
const syncBenchSize = 10_000

// BenchmarkSync measures what a sync client moves over loopback HTTP, one client, signed
// with SharedKeyLite, in entities/s: a table of 10,000 entities (five properties each)
// pulled whole through the change feed and, side by side, through Query Entities with
// continuations (the fallback's full pass); and 10,000 entities pushed in batches of 100.
func BenchmarkSync(b *testing.B) {
	e := newEnvWith(b, core.Options{DeletionRetention: time.Hour})
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	do(b, signedRequest(b, e, http.MethodPost, "/Tables", `{"TableName":"Pull"}`))
	pushAll(b, e, client, "Pull", "seed")
	b.Run("pull-changes", func(b *testing.B) {
		for range b.N {
			if n := pullChanges(b, e, client); n != syncBenchSize {
				b.Fatalf("pulled %d entities", n)
			}
		}
		b.ReportMetric(float64(b.N*syncBenchSize)/b.Elapsed().Seconds(), "entities/s")
	})
	b.Run("pull-query", func(b *testing.B) {
		for range b.N {
			if n := pullQuery(b, e, client); n != syncBenchSize {
				b.Fatalf("pulled %d entities", n)
			}
		}
		b.ReportMetric(float64(b.N*syncBenchSize)/b.Elapsed().Seconds(), "entities/s")
	})
	tables := 0 // each run of the sub-benchmark pushes into fresh tables
	b.Run("push-batch100", func(b *testing.B) {
		b.StopTimer()
		for range b.N {
			tables++
			table := fmt.Sprintf("Push%d", tables)
			do(b, signedRequest(b, e, http.MethodPost, "/Tables", `{"TableName":"`+table+`"}`))
			b.StartTimer()
			pushAll(b, e, client, table, "p")
			b.StopTimer()
		}
		b.ReportMetric(float64(b.N*syncBenchSize)/b.Elapsed().Seconds(), "entities/s")
	})
}

// pushAll inserts syncBenchSize entities into table, 100 to a batch, one partition per batch.
func pushAll(b *testing.B, e *env, client *http.Client, table, prefix string) {
	for start := 0; start < syncBenchSize; start += 100 {
		ops := make([]string, 0, 100)
		for i := start; i < start+100; i++ {
			ops = append(ops, "POST {base}/"+table+" HTTP/1.1\r\nAccept: application/json\r\nContent-Type: application/json\r\nPrefer: return-no-content\r\n\r\n"+
				fmt.Sprintf(`{"PartitionKey":"%s%03d","RowKey":"%06d","Name":"entity %d","Age":%d,"Score":1.5,"Active":true,"Tag":"sync-benchmark"}`, prefix, start/100, i, i, i%90))
		}
		req := signedRequest(b, e, http.MethodPost, "/$batch", jsBatch(e.url, ops...))
		req.Header.Set("Content-Type", "multipart/mixed; boundary=batch_B")
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		out, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusAccepted || strings.Contains(string(out), "odata.error") {
			b.Fatalf("push: %d %s", resp.StatusCode, out)
		}
	}
}

// pullChanges reads table Pull's whole change feed and returns how many entities it held.
func pullChanges(b *testing.B, e *env, client *http.Client) int {
	n, since := 0, ""
	for {
		resp, page := getPage(b, e, client, "/Pull()?"+url.Values{"comp": {"changes"}, "since": {since}}.Encode())
		n += len(page.Value)
		since = resp.Header.Get(rest.CheckpointHeader)
		if resp.Header.Get(rest.MoreHeader) != "true" {
			return n
		}
	}
}

// pullQuery reads table Pull whole with Query Entities and returns how many entities it held.
func pullQuery(b *testing.B, e *env, client *http.Client) int {
	n, q := 0, url.Values{}
	for {
		resp, page := getPage(b, e, client, "/Pull()?"+q.Encode())
		n += len(page.Value)
		npk, nrk := resp.Header.Get("x-ms-continuation-NextPartitionKey"), resp.Header.Get("x-ms-continuation-NextRowKey")
		if npk == "" && nrk == "" {
			return n
		}
		q = url.Values{"NextPartitionKey": {npk}, "NextRowKey": {nrk}}
	}
}

// getPage sends a signed GET and decodes its page.
func getPage(b *testing.B, e *env, client *http.Client, path string) (*http.Response, *changePage) {
	resp, err := client.Do(signedRequest(b, e, http.MethodGet, path, ""))
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	var page changePage
	if err := json.NewDecoder(resp.Body).Decode(&page); err != nil || resp.StatusCode != http.StatusOK {
		b.Fatalf("GET %s: %d %v", path, resp.StatusCode, err)
	}
	return resp, &page
}
