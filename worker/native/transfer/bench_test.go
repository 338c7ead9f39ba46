package transfer_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/worker/native/transfer"
	"github.com/tabletopdb/tabletop/worker/native/transfer/transfertest"
)

// BenchmarkCopy measures copy throughput in entities/s for TABLETOP_COPY_N entities
// (default 100,000; 100 partitions, six typed properties each): dump → native server,
// native → dump, native → native, the servers in this process on loopback HTTP. Run it with
// -benchtime 1x: each leg copies the whole table once per iteration.
func BenchmarkCopy(b *testing.B) {
	n := 100_000
	if s := os.Getenv("TABLETOP_COPY_N"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	dir := b.TempDir()
	seedDump := filepath.Join(dir, "seed.ndjson")
	writeBenchDump(b, seedDump, n)
	src := transfertest.NewServer(b)
	if err := copyBench(b, seedDump, src.ConnectionString); err != nil {
		b.Fatal(err)
	}
	for _, leg := range []struct {
		name     string
		src, dst func() string
	}{
		{"dump→native", func() string { return seedDump }, func() string { return transfertest.NewServer(b).ConnectionString }},
		{"native→dump", func() string { return src.ConnectionString }, func() string { return filepath.Join(b.TempDir(), "out.ndjson") }},
		{"native→native", func() string { return src.ConnectionString }, func() string { return transfertest.NewServer(b).ConnectionString }},
	} {
		b.Run(leg.name, func(b *testing.B) {
			var total time.Duration
			for range b.N {
				s, d := leg.src(), leg.dst()
				start := time.Now()
				if err := copyBench(b, s, d); err != nil {
					b.Fatal(err)
				}
				total += time.Since(start)
			}
			b.ReportMetric(float64(n*b.N)/total.Seconds(), "entities/s")
		})
	}
}

func copyBench(b *testing.B, src, dst string) error {
	j := transfer.Job{}
	var err error
	if j.Source, err = transfer.OpenSource(src); err != nil {
		return err
	}
	defer j.Source.Close()
	if j.Sink, err = transfer.OpenSink(dst, 16, 0); err != nil {
		return err
	}
	if err := j.Run(ctx); err != nil {
		return err
	}
	return j.Sink.Close()
}

func writeBenchDump(b *testing.B, path string, n int) {
	s, err := transfer.OpenSink(path, 1, 0)
	if err != nil {
		b.Fatal(err)
	}
	if err := s.BeginTable(ctx, "bench", false); err != nil {
		b.Fatal(err)
	}
	for i := range n {
		e := &model.Entity{PartitionKey: fmt.Sprintf("p%03d", i%100), RowKey: fmt.Sprintf("r%08d", i), Properties: []model.Property{
			{Name: "Name", Value: model.StringValue("entity number " + strconv.Itoa(i))},
			{Name: "Count", Value: model.Int32Value(int32(i))},
			{Name: "Big", Value: model.Int64Value(int64(i) << 40)},
			{Name: "Score", Value: model.DoubleValue(float64(i) / 7)},
			{Name: "When", Value: model.DateTimeValue(model.MinDateTime + model.DateTime(i))},
			{Name: "Active", Value: model.BoolValue(i%2 == 0)},
		}}
		if err := s.Write(ctx, "bench", []*model.Entity{e}); err != nil {
			b.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
}
