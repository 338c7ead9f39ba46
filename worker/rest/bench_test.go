//go:build !js

package rest_test

import (
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// BenchmarkLoopback measures request rates over loopback HTTP with concurrent keep-alive
// clients (8 per GOMAXPROCS), every request signed with SharedKeyLite: insert, point get,
// and a query answering a page of 1,000 entities. It reports req/s.
func BenchmarkLoopback(b *testing.B) {
	e := newEnv(b)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256}}
	do(b, signedRequest(b, e, http.MethodPost, "/Tables", `{"TableName":"Bench"}`))
	seedBench(b, e, client, 1000)

	var n atomic.Int64 // RowKeys stay unique across the runs of the sub-benchmark
	b.Run("insert", func(b *testing.B) {
		loop(b, client, func() *http.Request {
			i := n.Add(1)
			req := signedRequest(b, e, http.MethodPost, "/Bench", fmt.Sprintf(`{"PartitionKey":"ins","RowKey":"%09d","Name":"entity %d","Age":%d,"Score":1.5}`, i, i, i%90))
			req.Header.Set("Prefer", "return-no-content")
			return req
		}, http.StatusNoContent)
	})
	b.Run("get", func(b *testing.B) {
		loop(b, client, func() *http.Request {
			return signedRequest(b, e, http.MethodGet, fmt.Sprintf("/Bench(PartitionKey='seed',RowKey='%06d')", rand.IntN(1000)), "")
		}, http.StatusOK)
	})
	b.Run("page1000", func(b *testing.B) {
		loop(b, client, func() *http.Request {
			return signedRequest(b, e, http.MethodGet, "/Bench()?$filter=PartitionKey%20eq%20'seed'", "")
		}, http.StatusOK)
	})
}

// loop sends requests from 8×GOMAXPROCS goroutines and reports req/s.
func loop(b *testing.B, client *http.Client, next func() *http.Request, status int) {
	b.SetParallelism(8)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			resp, err := client.Do(next())
			if err != nil {
				b.Error(err)
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != status {
				b.Errorf("status %d, want %d", resp.StatusCode, status)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
}

// seedBench inserts n entities in partition "seed" with batches of 100.
func seedBench(b *testing.B, e *env, client *http.Client, n int) {
	for start := 0; start < n; start += 100 {
		var ops []string
		for i := start; i < start+100 && i < n; i++ {
			ops = append(ops, strings.Replace(insertOp(fmt.Sprintf("%06d", i)), `"PartitionKey":"p"`, `"PartitionKey":"seed"`, 1))
		}
		body := strings.ReplaceAll(jsBatch(e.url, ops...), "/Btc ", "/Bench ")
		req := signedRequest(b, e, http.MethodPost, "/$batch", body)
		req.Header.Set("Content-Type", "multipart/mixed; boundary=batch_B")
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		out, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusAccepted || strings.Contains(string(out), "odata.error") {
			b.Fatalf("seed: %d %s", resp.StatusCode, out)
		}
	}
}
