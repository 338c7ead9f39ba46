package main

import (
	"fmt"
	"testing"
)

// BenchmarkAPI measures one call through the request and result frames, as JavaScript
// makes it, natively (the wasm build is a few times slower).
func BenchmarkAPI(b *testing.B) {
	s := newSession(b)
	s.must("createTable", "bench")
	const n = 10000
	for i := range n {
		s.must("write", "bench", "create", fmt.Sprintf(`{"PartitionKey":"p%04d","RowKey":"%08d","name":"user %d","n":%d,"x":%g,"flag":true}`, i/1000, i, i, i, float64(i)/7), "")
	}
	b.Run("getEntity", func(b *testing.B) {
		// The frames are made before the timer starts, as JavaScript writes them in place.
		frames := make([][]byte, 1000)
		for i := range frames {
			k := (i * 7919) % n
			frames[i] = frame("getEntity", s.handle, "bench", fmt.Sprintf("p%04d", k/1000), fmt.Sprintf("%08d", k), "")
		}
		for i := 0; b.Loop(); i++ {
			if _, ok := s.a.call(frames[i%len(frames)]); !ok {
				b.Fatal("getEntity failed")
			}
		}
	})
	b.Run("insert", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			s.a.call(frame("write", s.handle, "bench", "create", fmt.Sprintf(`{"PartitionKey":"q","RowKey":"%08d","name":"user","n":1,"x":0.5,"flag":true}`, i), ""))
		}
	})
	b.Run("query1000", func(b *testing.B) {
		for b.Loop() {
			s.a.call(frame("queryEntities", s.handle, "bench", "PartitionKey eq 'p0003'", "", "1000", "", ""))
		}
	})
}
