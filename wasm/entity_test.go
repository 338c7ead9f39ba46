package main

import (
	"encoding/binary"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/query"
)

// answer is an entity answer read back; a property the entity lacks has no Value.
type answer struct {
	ETag, PartitionKey, RowKey, Timestamp string
	Flags                                 byte
	Names                                 []string
	Values                                []*core.Value
}

// decodeEntityAnswer reads an entity answer as web/src/values.js does; a malformed one
// fails the test.
func decodeEntityAnswer(t testing.TB, b []byte) answer {
	t.Helper()
	a := readEntityAnswer(t, &b)
	if len(b) != 0 {
		t.Fatalf("entity answer is followed by %q", b)
	}
	return a
}

// decodePageAnswer reads a page answer: the continuation tokens, the plan and the entities.
func decodePageAnswer(t testing.TB, b []byte) (nextPK, nextRK, plan string, entities []answer) {
	t.Helper()
	r := reader{t: t, b: b}
	nextPK, nextRK, plan = r.text(), r.text(), r.text()
	for range r.u32() {
		entities = append(entities, readEntityAnswer(t, &r.b))
	}
	if len(r.b) != 0 {
		t.Fatalf("page answer is followed by %q", r.b)
	}
	return nextPK, nextRK, plan, entities
}

// reader reads an answer; reading past its end fails the test.
type reader struct {
	t testing.TB
	b []byte
}

func (r *reader) next(n int) []byte {
	if n > len(r.b) {
		r.t.Fatalf("answer is cut short: %q", r.b)
	}
	p := r.b[:n]
	r.b = r.b[n:]
	return p
}

func (r *reader) u32() uint32  { return binary.LittleEndian.Uint32(r.next(4)) }
func (r *reader) text() string { return string(r.next(int(r.u32()))) }

// readEntityAnswer reads the entity answer at the head of *b and moves past it.
func readEntityAnswer(t testing.TB, b *[]byte) answer {
	t.Helper()
	r := reader{t: t, b: *b}
	defer func() { *b = r.b }()
	next, u32, text := r.next, r.u32, r.text
	bad := func() { t.Helper(); t.Fatalf("entity answer is malformed: %q", r.b) }
	var a answer
	a.Flags = next(1)[0]
	a.ETag = text()
	if a.Flags&entityHasPartitionKey != 0 {
		a.PartitionKey = text()
	}
	if a.Flags&entityHasRowKey != 0 {
		a.RowKey = text()
	}
	if a.Flags&entityHasTimestamp != 0 {
		a.Timestamp = text()
	}
	for range u32() {
		typ := next(1)[0]
		a.Names = append(a.Names, text())
		var v core.Value
		switch core.Type(typ) {
		case core.TypeString:
			v = core.StringValue(text())
		case core.TypeBinary:
			v = core.BinaryValue([]byte(text()))
		case core.TypeBoolean:
			v = core.BoolValue(next(1)[0] == 1)
		case core.TypeDateTime:
			d, err := core.ParseDateTime(text())
			if err != nil {
				t.Fatal(err)
			}
			v = core.DateTimeValue(d)
		case core.TypeDouble:
			v = core.DoubleValue(math.Float64frombits(binary.LittleEndian.Uint64(next(8))))
		case core.TypeGuid:
			g, err := core.ParseGuid(text())
			if err != nil {
				t.Fatal(err)
			}
			v = core.GuidValue(g)
		case core.TypeInt32:
			v = core.Int32Value(int32(u32()))
		case core.TypeInt64:
			v = core.Int64Value(int64(binary.LittleEndian.Uint64(next(8))))
		default:
			if typ != typeNull {
				bad()
			}
			a.Values = append(a.Values, nil)
			continue
		}
		a.Values = append(a.Values, &v)
	}
	return a
}

// mustParse returns v, panicking on err: for test data that always parses.
func mustParse[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestAppendEntityAnswer(t *testing.T) {
	ts := mustParse(core.ParseDateTime("2021-08-31T15:40:49.6724407Z"))
	props := []core.Property{
		{Name: "Str", Value: core.StringValue("a\"b\\c\n\x01é😀")},
		{Name: "Bin", Value: core.BinaryValue([]byte{0, 1, 2, 255})},
		{Name: "Yes", Value: core.BoolValue(true)},
		{Name: "No", Value: core.BoolValue(false)},
		{Name: "When", Value: core.DateTimeValue(mustParse(core.ParseDateTime("2013-08-02T17:37:43.0090043Z")))},
		{Name: "Dbl", Value: core.DoubleValue(5)},
		{Name: "Big", Value: core.DoubleValue(3e9)},
		{Name: "Inf", Value: core.DoubleValue(math.Inf(-1))},
		{Name: "Id", Value: core.GuidValue(mustParse(core.ParseGuid("4185404a-5818-48c3-b9be-f217df0dba6f")))},
		{Name: "I32", Value: core.Int32Value(math.MinInt32)},
		{Name: "I64", Value: core.Int64Value(math.MaxInt64)},
		{Name: "I64Min", Value: core.Int64Value(math.MinInt64)},
	}
	rec := core.NewRecord(&core.Entity{PartitionKey: "p'é", RowKey: "r\u2028", Timestamp: ts, Properties: props})
	etag := string(core.AppendETag(nil, ts))
	t.Run("OK", func(t *testing.T) {
		a := decodeEntityAnswer(t, appendEntityAnswer([]byte("kept"), &rec, nil)[4:])
		if a.ETag != etag || a.PartitionKey != "p'é" || a.RowKey != "r\u2028" || a.Timestamp != "2021-08-31T15:40:49.6724407Z" {
			t.Fatalf("head = %+v", a)
		}
		if len(a.Names) != len(props) {
			t.Fatalf("%d properties, want %d", len(a.Names), len(props))
		}
		for i, p := range props {
			if a.Names[i] != p.Name || a.Values[i] == nil || !reflect.DeepEqual(*a.Values[i], p.Value) {
				t.Errorf("property %d = %s %+v, want %s %+v", i, a.Names[i], a.Values[i], p.Name, p.Value)
			}
		}
	})
	t.Run("OK/Select", func(t *testing.T) {
		sel := mustParse(query.ParseSelect("I64,RowKey,Absent,Dbl"))
		a := decodeEntityAnswer(t, appendEntityAnswer(nil, &rec, sel))
		if a.Flags != entityHasRowKey || a.ETag != etag || a.RowKey != "r\u2028" || a.PartitionKey != "" || a.Timestamp != "" {
			t.Fatalf("head = %+v", a)
		}
		if strings.Join(a.Names, ",") != "I64,Absent,Dbl" || a.Values[1] != nil || a.Values[2].Double() != 5 || a.Values[0].Int64() != math.MaxInt64 {
			t.Fatalf("properties = %v %v", a.Names, a.Values)
		}
	})
	t.Run("OK/NoProperties", func(t *testing.T) {
		empty := core.NewRecord(&core.Entity{PartitionKey: "", RowKey: "", Timestamp: ts})
		a := decodeEntityAnswer(t, appendEntityAnswer(nil, &empty, nil))
		if a.Flags != entityHasPartitionKey|entityHasRowKey|entityHasTimestamp || len(a.Names) != 0 {
			t.Fatalf("answer = %+v", a)
		}
	})
}

// entity reads entity (pk, rk) of a table through getEntity, and its properties by name.
func (s *session) entity(table, pk, rk string) map[string]core.Value {
	s.t.Helper()
	a := decodeEntityAnswer(s.t, []byte(s.must("getEntity", table, pk, rk, "")))
	props := map[string]core.Value{}
	for i, name := range a.Names {
		props[name] = *a.Values[i]
	}
	return props
}
