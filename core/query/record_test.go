package query

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
)

// fuzzNames are the property names a fuzzed entity draws from: those the filter seeds
// compare, so fuzzed filters and entities meet.
var fuzzNames = []string{"Age", "Name", "Score", "Big", "Born", "Id", "Blob", "Active", "Quote", "x", "t", "N"}

// fuzzEntity builds a valid entity from fuzz bytes: keys, Timestamp and up to 8
// properties of every type, names and values taken from the bytes.
func fuzzEntity(data []byte) *model.Entity {
	next := func(n int) []byte {
		n = min(n, len(data))
		b := data[:n]
		data = data[n:]
		return b
	}
	u64 := func() uint64 {
		var buf [8]byte
		copy(buf[:], next(8))
		return binary.LittleEndian.Uint64(buf[:])
	}
	keys := []string{"", "a", "aa", "b", "pk1", "rk1", "é"}
	head := next(3)
	for len(head) < 3 {
		head = append(head, 0)
	}
	born, _ := model.ParseDateTime("1990-01-02T03:04:05.1234567Z")
	times := []model.DateTime{model.MinDateTime, model.MinDateTime + 1, born, born + 1, model.MaxDateTime}
	e := &model.Entity{PartitionKey: keys[int(head[0])%len(keys)], RowKey: keys[int(head[1])%len(keys)],
		Timestamp: times[u64()%uint64(len(times))]}
	for range int(head[2]) % 9 {
		b := next(2)
		if len(b) < 2 {
			break
		}
		name := fuzzNames[int(b[0])%len(fuzzNames)]
		u := u64()
		var v model.Value
		switch model.Type(b[1] % 8) {
		case model.TypeString:
			v = model.StringValue(string([]rune{'a' + rune(u%3), 'a' + rune(u>>8%3)})[:1+u>>16%2])
		case model.TypeBinary:
			v = model.BinaryValue(next(int(u % 3)))
		case model.TypeBoolean:
			v = model.BoolValue(u%2 == 0)
		case model.TypeDateTime:
			v = model.DateTimeValue(times[u%uint64(len(times))])
		case model.TypeDouble:
			v = model.DoubleValue([]float64{math.NaN(), 2.5, 30, -5, math.Inf(1), float64(u)}[u%6])
		case model.TypeGuid:
			var g model.Guid
			g[0], g[15] = byte(u), byte(u>>8)
			v = model.GuidValue(g)
		case model.TypeInt32:
			v = model.Int32Value(int32(u%64) - 8)
		default:
			v = model.Int64Value(int64(u%64) - 8)
		}
		e.Set(name, v)
	}
	return e
}

// FuzzMatchesRecord checks that a filter evaluated on an entity's stored record agrees
// with the full evaluator on the decoded entity, for fuzzed filters and entities.
func FuzzMatchesRecord(f *testing.F) {
	extra := []string{"Timestamp ge datetime'1601-01-01T00:00:00.0000001Z'", "Timestamp eq datetime'1990-01-02T03:04:05.1234567Z'", "Blob lt X'01'", "Id gt guid'00000000-0000-0000-0000-000000000000'",
		"Name ge 'b' and not Active", "Score ne 2.5 or Big eq 7L", "RowKey eq 'a' and Age gt -3", "Score eq 30 or Age le 30.0"}
	for i, s := range append(filterSeeds, extra...) {
		f.Add(s, []byte(fmt.Sprintf("%c%c\x05%024d", i, i*3, i)))
	}
	f.Fuzz(func(t *testing.T, filter string, data []byte) {
		flt, err := ParseFilter(filter)
		if err != nil {
			return
		}
		e := fuzzEntity(data)
		if err := e.Validate(); err != nil {
			t.Fatalf("fuzzEntity built an invalid entity: %v", err)
		}
		rec := stored.NewRecord(e)
		want := flt.Matches(e)
		if got := flt.MatchesRecord(&rec); got != want {
			t.Fatalf("%q on %+v: MatchesRecord %v, Matches %v", flt, e, got, want)
		}
		if got := flt.recordMatcher()(&rec); got != want {
			t.Fatalf("%q on %+v: recordMatcher %v, Matches %v", flt, e, got, want)
		}
	})
}

// TestFilter_MatchesRecordAllocatesNothing pins the point of evaluating on the stored
// record: no allocation per candidate, whatever the filter compares.
func TestFilter_MatchesRecordAllocatesNothing(t *testing.T) {
	rec := stored.NewRecord(fixture(t))
	for _, s := range []string{"PartitionKey eq 'pk1' and RowKey ne 'x'", "Timestamp gt datetime'2020-01-01T00:00:00Z'",
		"Age ge 30 and Name eq 'Alice' or Score lt 1.0", "Blob eq X'0aff' or Id ne guid'0d391d16-97f1-4b9a-be68-4cc871f90001'",
		"Missing eq 1 or not Active"} {
		flt, err := ParseFilter(s)
		if err != nil {
			t.Fatal(err)
		}
		if !flt.MatchesRecord(&rec) && s != "Missing eq 1 or not Active" {
			t.Fatalf("%q does not match the fixture", s)
		}
		if n := testing.AllocsPerRun(100, func() { flt.MatchesRecord(&rec) }); n != 0 {
			t.Fatalf("%q: %v allocations per candidate, want 0", s, n)
		}
	}
}

// TestRecords_ScanAllocatesPerPageNotPerCandidate runs a filter that matches nothing over
// a table of 2,000 entities: the allocations are those of the page, not one per entity
// examined.
func TestRecords_ScanAllocatesPerPageNotPerCandidate(t *testing.T) {
	var es []*model.Entity
	for i := range 2000 {
		es = append(es, entity(fmt.Sprintf("p%d", i/100), fmt.Sprintf("r%03d", i%100), i))
	}
	s := newStore(t, es...)
	req := Request{Filter: "N lt 0 or N gt 5000"}
	n := testing.AllocsPerRun(5, func() {
		s.View(func(tx *core.Tx) error {
			p, err := Records(tx, testTable, req)
			if err != nil || len(p.Records) != 0 || p.Examined != 2000 {
				t.Fatalf("page %+v, %v", p, err)
			}
			return nil
		})
	})
	if n > 100 {
		t.Fatalf("%v allocations to examine 2,000 entities, want fewer than 100", n)
	}
}

// TestRecords_ErrCorrupt stores an entity record that does not decode (written as a
// change set, as a damaged file could hold it) among whole ones: a page that would hold
// it fails rather than answer with it, whichever way the page finds it, while a page
// that does not reach it answers.
func TestRecords_ErrCorrupt(t *testing.T) {
	s := newStore(t, entity("p", "a", 1), entity("p", "c", 3))
	key := "e\x00" + testTable + "\x00p\x00b"
	for _, data := range []string{"\x01\x05\x01\x05", "\x01\x05\x00\x00", "\x02\x05\x00"} {
		cs := fmt.Sprintf("*3\r\n$3\r\nset\r\n$%d\r\n%s\r\n$%d\r\n%s\r\n", len(key), key, len(data), data)
		if err := s.ApplyChangeSet([]byte(cs)); err != nil {
			t.Fatal(err)
		}
		t.Run("ErrCorrupt", func(t *testing.T) {
			for _, req := range []Request{{}, {Filter: "PartitionKey eq 'p'"}, {Filter: "RowKey gt 'a'", Top: 1}} {
				err := s.View(func(tx *core.Tx) error { _, err := Records(tx, testTable, req); return err })
				if err == nil || !strings.Contains(err.Error(), `("p", "b")`) {
					t.Fatalf("%q over %q: err = %v, want the corrupt record's", req.Filter, data, err)
				}
			}
		})
		t.Run("OK", func(t *testing.T) {
			for _, req := range []Request{{Filter: "RowKey eq 'c'"}, {Top: 1}, {Filter: "N eq 1"}} {
				err := s.View(func(tx *core.Tx) error {
					p, err := Records(tx, testTable, req)
					if err == nil && len(p.Records) != 1 {
						t.Fatalf("%q: %d records", req.Filter, len(p.Records))
					}
					return err
				})
				if err != nil {
					t.Fatalf("%q over %q: %v", req.Filter, data, err)
				}
			}
		})
	}
}

// TestRecords_Room hands a page's slice back for the next page, as the browser's engine
// does: the pages are the same as without it, in the room given while it has space (a
// page of a thousand records then allocates no slice of them), in a new slice when not.
func TestRecords_Room(t *testing.T) {
	var es []*model.Entity
	for i := range 300 {
		es = append(es, entity(fmt.Sprintf("p%d", i/100), fmt.Sprintf("r%03d", i%100), i))
	}
	s := newStore(t, es...)
	page := func(req Request) (p *RecordPage) {
		t.Helper()
		if err := s.View(func(tx *core.Tx) (err error) { p, err = Records(tx, testTable, req); return err }); err != nil {
			t.Fatal(err)
		}
		return p
	}
	keys := func(p *RecordPage) (k []string) {
		for _, r := range p.Records {
			k = append(k, r.PartitionKey+"/"+r.RowKey)
		}
		return k
	}
	t.Run("OK", func(t *testing.T) {
		room := make([]stored.Record, 0, 150)
		for _, req := range []Request{{Filter: "PartitionKey eq 'p1'"}, {Filter: "N ge 150", Top: 120}, {Top: 7}, {Filter: "N lt 0"}} {
			want := keys(page(req))
			req.Room = room
			p := page(req)
			if got := keys(p); !slices.Equal(got, want) {
				t.Fatalf("%+v: %v, want %v", req, got, want)
			}
			if len(p.Records) > 0 && &p.Records[0] != &room[:1][0] {
				t.Fatalf("%+v: the page is not in the room given", req)
			}
			room = p.Records[:0]
		}
		allocs := func(room []stored.Record) float64 {
			return testing.AllocsPerRun(5, func() {
				if p := page(Request{Filter: "PartitionKey eq 'p2'", Room: room}); len(p.Records) != 100 {
					t.Fatalf("%d records", len(p.Records))
				}
			})
		}
		// Without room, the page's slice is made for 64 records and grown once.
		if with, without := allocs(room), allocs(nil); with > without-2 {
			t.Fatalf("%v allocations for a page of 100 in a room of 150, %v without: want 2 fewer", with, without)
		}
	})
	t.Run("OutgrowsRoom", func(t *testing.T) {
		room := make([]stored.Record, 0, 10)
		p := page(Request{Filter: "N lt 250", Room: room})
		if len(p.Records) != 250 || p.Records[249].RowKey != "r049" || p.Records[0].RowKey != "r000" {
			t.Fatalf("%d records, last %+v", len(p.Records), p.Records[len(p.Records)-1])
		}
	})
}
