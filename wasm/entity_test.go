package main

import (
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/query"
	"github.com/tabletopdb/tabletop/core/stored"
)

// answer is an entity answer read back; a property the entity lacks has no Value.
// ETag is made from Timestamp as JavaScript makes it; Timestamp is set only when flags
// include it.
type answer struct {
	ETag, PartitionKey, RowKey, Timestamp string
	Flags                                 byte
	Names                                 []string
	Values                                []*model.Value
}

// etagOf makes an ETag from a Timestamp's text as web/src/values.js does.
func etagOf(ts string) string { return `W/"datetime'` + strings.ReplaceAll(ts, ":", "%3A") + `'"` }

// decodeEntityAnswer reads an entity answer as web/src/values.js does; a malformed one
// fails the test.
func decodeEntityAnswer(t testing.TB, b []byte) answer {
	t.Helper()
	a := readEntityAnswer(t, &b, &[]string{})
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
	var names []string
	for range r.u32() {
		entities = append(entities, readEntityAnswer(t, &r.b, &names))
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

// name reads a name: a text, numbered in names while fewer than maxNames are, or the
// number of an earlier one.
func (r *reader) name(names *[]string) string {
	n := binary.LittleEndian.Uint32(r.b)
	if n&nameRef == 0 {
		s := r.text()
		if len(*names) < maxNames {
			*names = append(*names, s)
		}
		return s
	}
	r.next(4)
	if int(n&^nameRef) >= len(*names) {
		r.t.Fatalf("name %d of %d", n&^nameRef, len(*names))
	}
	return (*names)[n&^nameRef]
}

// readEntityAnswer reads the entity answer at the head of *b and moves past it; names
// are the answer's names so far.
func readEntityAnswer(t testing.TB, b *[]byte, names *[]string) answer {
	t.Helper()
	r := reader{t: t, b: *b}
	defer func() { *b = r.b }()
	next, u32, text := r.next, r.u32, r.text
	bad := func() { t.Helper(); t.Fatalf("entity answer is malformed: %q", r.b) }
	var a answer
	a.Flags = next(1)[0]
	ts := text()
	if a.ETag = etagOf(ts); a.Flags&entityHasTimestamp != 0 {
		a.Timestamp = ts
	}
	if a.Flags&entityHasPartitionKey != 0 {
		a.PartitionKey = text()
	}
	if a.Flags&entityHasRowKey != 0 {
		a.RowKey = text()
	}
	for range u32() {
		typ := next(1)[0]
		a.Names = append(a.Names, r.name(names))
		var v model.Value
		switch model.Type(typ) {
		case model.TypeString:
			v = model.StringValue(text())
		case model.TypeBinary:
			v = model.BinaryValue([]byte(text()))
		case model.TypeBoolean:
			v = model.BoolValue(next(1)[0] == 1)
		case model.TypeDateTime:
			d, err := model.ParseDateTime(text())
			if err != nil {
				t.Fatal(err)
			}
			v = model.DateTimeValue(d)
		case model.TypeDouble:
			v = model.DoubleValue(math.Float64frombits(binary.LittleEndian.Uint64(next(8))))
		case model.TypeGuid:
			g, err := model.ParseGuid(text())
			if err != nil {
				t.Fatal(err)
			}
			v = model.GuidValue(g)
		case model.TypeInt32:
			v = model.Int32Value(int32(u32()))
		case model.TypeInt64:
			v = model.Int64Value(int64(binary.LittleEndian.Uint64(next(8))))
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
	ts := mustParse(model.ParseDateTime("2021-08-31T15:40:49.6724407Z"))
	props := []model.Property{
		{Name: "Str", Value: model.StringValue("a\"b\\c\n\x01é😀")},
		{Name: "Bin", Value: model.BinaryValue([]byte{0, 1, 2, 255})},
		{Name: "Yes", Value: model.BoolValue(true)},
		{Name: "No", Value: model.BoolValue(false)},
		{Name: "When", Value: model.DateTimeValue(mustParse(model.ParseDateTime("2013-08-02T17:37:43.0090043Z")))},
		{Name: "Dbl", Value: model.DoubleValue(5)},
		{Name: "Big", Value: model.DoubleValue(3e9)},
		{Name: "Inf", Value: model.DoubleValue(math.Inf(-1))},
		{Name: "Id", Value: model.GuidValue(mustParse(model.ParseGuid("4185404a-5818-48c3-b9be-f217df0dba6f")))},
		{Name: "I32", Value: model.Int32Value(math.MinInt32)},
		{Name: "I64", Value: model.Int64Value(math.MaxInt64)},
		{Name: "I64Min", Value: model.Int64Value(math.MinInt64)},
	}
	rec := stored.NewRecord(&model.Entity{PartitionKey: "p'é", RowKey: "r\u2028", Timestamp: ts, Properties: props})
	etag := string(model.AppendETag(nil, ts))
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
		empty := stored.NewRecord(&model.Entity{PartitionKey: "", RowKey: "", Timestamp: ts})
		a := decodeEntityAnswer(t, appendEntityAnswer(nil, &empty, nil))
		if a.Flags != entityHasPartitionKey|entityHasRowKey|entityHasTimestamp || len(a.Names) != 0 {
			t.Fatalf("answer = %+v", a)
		}
	})
}

// entity reads entity (pk, rk) of a table through getEntity, and its properties by name.
func (s *session) entity(table, pk, rk string) map[string]model.Value {
	s.t.Helper()
	a := decodeEntityAnswer(s.t, []byte(s.must("getEntity", table, pk, rk, "")))
	props := map[string]model.Value{}
	for i, name := range a.Names {
		props[name] = *a.Values[i]
	}
	return props
}

func TestAppendPageAnswer(t *testing.T) {
	ts := mustParse(model.ParseDateTime("2021-08-31T15:40:49.6724407Z"))
	record := func(rk string, names ...string) stored.Record {
		props := make([]model.Property, len(names))
		for i, n := range names {
			props[i] = model.Property{Name: n, Value: model.Int32Value(int32(i))}
		}
		return stored.NewRecord(&model.Entity{PartitionKey: "p", RowKey: rk, Timestamp: ts, Properties: props})
	}
	check := func(t *testing.T, page *query.RecordPage, sel query.Selection) []answer {
		t.Helper()
		_, _, _, got := decodePageAnswer(t, appendPageAnswer(nil, page, sel))
		if len(got) != len(page.Records) {
			t.Fatalf("%d entities, want %d", len(got), len(page.Records))
		}
		for i, a := range got {
			if a.RowKey != page.Records[i].RowKey || a.ETag != string(model.AppendETag(nil, ts)) {
				t.Fatalf("entity %d = %+v", i, a)
			}
		}
		return got
	}
	t.Run("OK/NamesOnce", func(t *testing.T) {
		page := &query.RecordPage{Records: []stored.Record{record("a", "x", "y"), record("b", "x", "y"), record("c", "y", "z", "x")}}
		got := check(t, page, nil)
		if strings.Join(got[2].Names, ",") != "y,z,x" || got[2].Values[2].Int32() != 2 {
			t.Fatalf("third entity = %v %v", got[2].Names, got[2].Values)
		}
		long := "a_rather_long_property_name"
		b := appendPageAnswer(nil, &query.RecordPage{Records: []stored.Record{record("a", long, "x"), record("b", "x", long)}}, nil)
		if n := strings.Count(string(b), long); n != 1 {
			t.Fatalf("a page of two entities holds a name %d times, want 1", n)
		}
	})
	t.Run("OK/ManyNames", func(t *testing.T) {
		var recs []stored.Record
		for i := range 3 {
			names := make([]string, 50)
			for k := range names {
				names[k] = fmt.Sprintf("n%d", (k*7+i*13)%90) // 90 distinct names, more than maxNames
			}
			recs = append(recs, record(fmt.Sprintf("r%d", i), names...))
		}
		got := check(t, &query.RecordPage{Records: recs}, nil)
		for i, a := range got {
			for k, n := range a.Names {
				if want := fmt.Sprintf("n%d", (k*7+i*13)%90); n != want || a.Values[k].Int32() != int32(k) {
					t.Fatalf("entity %d property %d = %s %v, want %s %d", i, k, n, a.Values[k], want, k)
				}
			}
		}
	})
	t.Run("OK/Select", func(t *testing.T) {
		page := &query.RecordPage{Records: []stored.Record{record("a", "x"), record("b", "y")}}
		got := check(t, page, mustParse(query.ParseSelect("RowKey,y,x")))
		if strings.Join(got[1].Names, ",") != "y,x" || got[1].Values[1] != nil || got[1].Values[0].Int32() != 0 {
			t.Fatalf("second entity = %v %v", got[1].Names, got[1].Values)
		}
	})
}

// TestETagOf pins what JavaScript relies on: an ETag is its Timestamp's text with each ':'
// written %3A, inside W/"datetime'…'".
func TestETagOf(t *testing.T) {
	for _, text := range []string{"2021-08-31T15:40:49.6724407Z", "1601-01-01T00:00:00.0000000Z", "9999-12-31T23:59:59.9999999Z"} {
		ts := mustParse(model.ParseDateTime(text))
		if got, want := etagOf(string(ts.AppendText(nil))), string(model.AppendETag(nil, ts)); got != want {
			t.Errorf("etagOf(%s) = %s, want %s", text, got, want)
		}
	}
}
