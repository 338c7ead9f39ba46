package replica_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/replica"
	"github.com/tabletopdb/tabletop/core/wire"
)

// BenchmarkPullPage measures what a sync pull costs the browser's engine per page of
// 1,000 entities of about 200 bytes from the change feed: the page decoded from its JSON
// (wire.DecodePage) and applied with its checkpoint in one transaction
// (replica.ApplyPulled), into a tracked table that does not hold the entities yet, as the
// browser opens its stores (no change feed of its own). The web module makes one engine
// call of each page, so this is about one call's work.
func BenchmarkPullPage(b *testing.B) {
	const per = 1000
	s := newStore(b, core.Options{Hooks: replica.Hooks{}, NoChangeFeed: true}, "pulled")
	if err := s.Update(func(tx *core.Tx) error { return replica.Track(tx, "pulled") }); err != nil {
		b.Fatal(err)
	}
	page := func(n int) []byte {
		var sb strings.Builder
		sb.WriteString(`{"value":[`)
		for i := range per {
			if i > 0 {
				sb.WriteByte(',')
			}
			k := n*per + i
			fmt.Fprintf(&sb, `{"odata.etag":"W/\"datetime'2026-11-29T00%%3A00%%3A00.%07dZ'\"","PartitionKey":"p%d","RowKey":"%07d","Timestamp":"2026-11-29T00:00:00.%07dZ","name":"%s","n":%d,"ok":true}`,
				k%10_000_000, k/1000%100, k, k%10_000_000, strings.Repeat("x", 120), k)
		}
		sb.WriteString(`]}`)
		return []byte(sb.String())
	}
	n := 0
	for b.Loop() {
		b.StopTimer()
		body := page(n)
		n++
		b.StartTimer()
		p, err := wire.DecodePage(body)
		if err != nil {
			b.Fatal(err)
		}
		err = s.Update(func(tx *core.Tx) error {
			_, err := replica.ApplyPulled(tx, "pulled", replica.Pulled{Entities: p.Entities, Checkpoint: fmt.Sprintf("feed:%d", n), SetCheckpoint: true})
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*per), "µs/entity")
}
