package batch

import (
	"fmt"
	"io"
	"strings"
	"testing"
)

func BenchmarkReadRequest(b *testing.B) {
	for _, n := range []int{1, 10, 100} {
		body := batchBody(insertOps(n)...)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				if _, err := ReadRequest(strings.NewReader(body), testCT); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkWriteResponse(b *testing.B) {
	for _, n := range []int{1, 10, 100} {
		rs := make([]Response, n)
		for i := range rs {
			rs[i] = successResponses()[0]
		}
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for b.Loop() {
				if err := WriteResponse(io.Discard, testBatch, testChangeset, rs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
