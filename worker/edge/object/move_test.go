package object

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
)

// moveStore is a store with table Things: partitions p00…p19 of five entities each, and
// values large enough that a span takes several chunks.
func moveStore(t *testing.T) *core.Store {
	t.Helper()
	s := thingsStore(t)
	big := model.StringValue(strings.Repeat("x", 30<<10))
	for p := range 20 {
		for r := range 5 {
			e := &model.Entity{PartitionKey: fmt.Sprintf("p%02d", p), RowKey: fmt.Sprint(r), Properties: []model.Property{{Name: "A", Value: big}, {Name: "B", Value: big}}}
			if _, err := s.Apply("things", core.Op{Kind: core.OpInsert, Entity: e}); err != nil {
				t.Fatal(err)
			}
		}
	}
	return s
}

// moveSpan copies a span of Things from src to dst as the account object does, chunk by
// chunk, and returns how many chunks it took.
func moveSpan(t *testing.T, src, dst *core.Store, from, to string) int {
	t.Helper()
	cursor, chunks := "\x00\x00", 0
	for {
		out, err := exportChunk(src, "things\x00"+from+"\x00"+to+"\x00"+cursor)
		if err != nil {
			t.Fatal(err)
		}
		f := strings.SplitN(out, "\x00", 4)
		if err := importChunk(dst, "things\x00"+f[3]); err != nil {
			t.Fatal(err)
		}
		chunks++
		if f[0] == "" {
			return chunks
		}
		cursor = strings.Join(f[:3], "\x00")
	}
}

func TestObject_Move(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		src, dst := moveStore(t), moveStore(t)
		if err := forget(dst, "things"); err != nil {
			t.Fatal(err)
		}
		got, err := splitKey(src, "things\x00\x00")
		if err != nil || got != "100\x00p10" {
			t.Fatalf("splitKey = %q, %v; want 100 entities split at p10", got, err)
		}
		if chunks := moveSpan(t, src, dst, "p10", ""); chunks < 3 {
			t.Fatalf("%d chunks: 3 MB should take at least 3", chunks)
		}
		if err := evict(src, "things\x00p10\x00"); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			s    *core.Store
			want string
		}{{src, "50"}, {dst, "50"}} {
			if n, err := count(c.s, "things"); n != c.want || err != nil {
				t.Fatalf("count = %s, %v; want %s", n, err, c.want)
			}
		}
		if _, err := dst.Get("things", "p19", "4"); err != nil {
			t.Fatalf("moved entity: %v", err)
		}
		if _, err := src.Get("things", "p10", "0"); !errors.Is(err, core.ErrEntityNotFound) {
			t.Fatalf("evicted entity: %v", err)
		}
	})
	t.Run("ErrBadArgument", func(t *testing.T) {
		s := moveStore(t)
		for _, arg := range []string{"things", "things\x00!!!", "things\x00" + "AQ=="} {
			if err := importChunk(s, arg); !errors.Is(err, ErrBadArgument) {
				t.Fatalf("import %q: %v", arg, err)
			}
		}
		if _, err := exportChunk(s, "things\x00a"); !errors.Is(err, ErrBadArgument) {
			t.Fatalf("export: %v", err)
		}
	})
}

func TestUnpackMoved(t *testing.T) {
	recs := []moved{{kind: movedTable, value: "t\x00\xff"}, {kind: movedEntity, partitionKey: "ü", rowKey: "", value: string([]byte{1, 2, 0, 255})}}
	var b []byte
	for _, m := range recs {
		b = packMoved(b, m)
	}
	got, err := unpackMoved(b)
	if err != nil || fmt.Sprint(got) != fmt.Sprint(recs) {
		t.Fatalf("round trip: %v, %v", got, err)
	}
	for n := 1; n < len(b); n++ {
		if _, err := unpackMoved(b[:n]); err == nil && n != len(packMoved(nil, recs[0])) {
			t.Fatalf("a chunk cut at %d bytes was read", n)
		}
	}
}

func TestObject_AdoptFeed(t *testing.T) {
	storeID := func(s *core.Store) (g model.Guid) {
		if err := s.View(func(tx *core.Tx) (err error) { g, err = tx.StoreID(); return err }); err != nil {
			t.Fatal(err)
		}
		return g
	}
	t.Run("OK", func(t *testing.T) {
		src, dst := moveStore(t), moveStore(t)
		state, err := feedState(src, "things")
		if err != nil {
			t.Fatal(err)
		}
		if err := adoptFeed(dst, "things\x00"+state); err != nil {
			t.Fatal(err)
		}
		if storeID(dst) != storeID(src) {
			t.Fatal("the new store did not take the feed's identity")
		}
	})
	t.Run("ErrBadArgument", func(t *testing.T) {
		dst := moveStore(t)
		state, err := feedState(moveStore(t), "things")
		if err != nil {
			t.Fatal(err)
		}
		f := strings.Split(state, "\x00")
		for _, arg := range []string{"things", "things\x00" + strings.Join(f[:3], "\x00"), "things\x00!!\x001\x002\x003",
			"things\x00AAAA\x001\x002\x003", "things\x00" + f[0] + "\x00x\x002\x003", "things\x00" + f[0] + "\x001\x00-2\x003"} {
			if err := adoptFeed(dst, arg); !errors.Is(err, ErrBadArgument) {
				t.Fatalf("%q: %v", arg, err)
			}
		}
	})
}

// FuzzAdoptFeed holds adoptFeed to its form: any argument is adopted, and then given back
// by feedState field for field (but the Timestamps this store had later), or refused
// with ErrBadArgument; it never panics.
func FuzzAdoptFeed(f *testing.F) {
	src, err := core.Open(core.Options{})
	if err != nil {
		f.Fatal(err)
	}
	defer src.Close()
	if _, err := src.CreateTable("things"); err != nil {
		f.Fatal(err)
	}
	state, err := feedState(src, "things")
	if err != nil {
		f.Fatal(err)
	}
	f.Add("things\x00" + state)
	f.Add("things\x00AAAAAAAAAAAAAAAAAAAAAA==\x001\x002\x003")
	f.Add("things\x00!\x00\x00\x00")
	f.Fuzz(func(t *testing.T, arg string) {
		dst, err := core.Open(core.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer dst.Close()
		err = adoptFeed(dst, arg)
		if err != nil {
			if !errors.Is(err, ErrBadArgument) {
				t.Fatalf("%q: %v", arg, err)
			}
			return
		}
		in := strings.Split(arg, "\x00")
		got, err := feedState(dst, in[0])
		if err != nil {
			t.Fatal(err)
		}
		out := strings.Split(got, "\x00")
		id, _ := base64.StdEncoding.DecodeString(in[1])
		zero := string(id) == string(make([]byte, 16)) // the feed of a store that never wrote: nothing to adopt
		if !zero && out[0] != base64.StdEncoding.EncodeToString(id) {
			t.Fatalf("%q: identity %s after adopting it", arg, out[0])
		}
		for i := 1; i < 4; i++ {
			a, _ := strconv.ParseInt(in[1+i], 10, 64)
			b, _ := strconv.ParseInt(out[i], 10, 64)
			if !zero && b < a {
				t.Fatalf("%q: field %d went back to %d", arg, i, b)
			}
		}
	})
}

// thingsStore is an empty store with table Things, closed when the test ends.
func thingsStore(t *testing.T) *core.Store {
	t.Helper()
	s, err := core.Open(core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if _, err := s.CreateTable("Things"); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestHalfKey(t *testing.T) {
	s := thingsStore(t)
	for _, pk := range []string{"a", "b", "c", "d"} {
		for i := range 3 {
			e := &model.Entity{PartitionKey: pk, RowKey: fmt.Sprint(i)}
			if _, err := s.Apply("things", core.Op{Kind: core.OpInsert, Entity: e}); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, tc := range []struct {
		name     string
		from, to string
		key      string
		count    int
	}{
		{"OK", "", "", "c", 12},
		{"OKUpperSpan", "c", "", "d", 6},
		{"OKFirstPartitionIsMedian", "b", "c~", "c", 6},
		{"OnePartition", "d", "", "", 3},
		{"Empty", "x", "", "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var key string
			var count int
			err := s.View(func(tx *core.Tx) (err error) {
				key, count, err = halfKey(tx, "things", spanRange(tc.from, tc.to))
				return err
			})
			if err != nil || key != tc.key || count != tc.count {
				t.Fatalf("halfKey = %q, %d, %v; want %q, %d", key, count, err, tc.key, tc.count)
			}
		})
	}
	t.Run("ErrTableNotFound", func(t *testing.T) {
		err := s.View(func(tx *core.Tx) error {
			_, _, err := halfKey(tx, "nosuch", spanRange("", ""))
			return err
		})
		if !errors.Is(err, core.ErrTableNotFound) {
			t.Fatalf("halfKey of a missing table: %v", err)
		}
	})
}
