package stored

import (
	"github.com/tabletopdb/tabletop/core/model"
	"reflect"
	"testing"
)

func TestRecord_ReadsInPlace(t *testing.T) {
	for i, e := range codecSamples() {
		r := NewRecord(e)
		if err := r.Check(); err != nil {
			t.Fatalf("sample %d: Check: %v", i, err)
		}
		if r.Timestamp() != e.Timestamp {
			t.Fatalf("sample %d: Timestamp %v, want %v", i, r.Timestamp(), e.Timestamp)
		}
		if r.Size() != e.Size() {
			t.Fatalf("sample %d: Size %d, want %d", i, r.Size(), e.Size())
		}
		var got []model.Property
		for name, v := range r.Properties() {
			got = append(got, model.Property{Name: name, Value: v})
		}
		if len(e.Properties) > 0 && !reflect.DeepEqual(got, e.Properties) {
			t.Fatalf("sample %d: Properties %v, want %v", i, got, e.Properties)
		}
		for _, p := range e.Properties {
			if v, ok := r.Lookup(p.Name); !ok || v != p.Value && p.Value.Type() != model.TypeDouble {
				t.Fatalf("sample %d: Lookup(%q) = %v, %v; want %v", i, p.Name, v, ok, p.Value)
			}
		}
		if _, ok := r.Lookup("Absent"); ok {
			t.Fatalf("sample %d: found a property it lacks", i)
		}
		if d, err := r.Entity(); err != nil || !reflect.DeepEqual(d, e) {
			t.Fatalf("sample %d: Entity = %+v, %v", i, d, err)
		}
	}
}

func TestRecord_Check(t *testing.T) {
	good := EncodeEntity(5, []model.Property{{Name: "A", Value: model.Int32Value(7)}, {Name: "B", Value: model.StringValue("bb")}})
	t.Run("OK", func(t *testing.T) {
		r := Record{data: good}
		if err := r.Check(); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("ErrCorrupt", func(t *testing.T) {
		for i := 0; i < len(good); i++ {
			for _, data := range []string{good[:i], good + "\x00", encodeRaw(1, byte(model.TypeBoolean), "A", "\x02"),
				encodeRaw(1, byte(model.TypeInt32), "A", "\x80\x80\x80\x80\x10"), encodeRaw(1, 8, "A", "\x00")} {
				r := Record{data: data}
				if err := r.Check(); err != ErrCorrupt {
					t.Fatalf("Check(%q) = %v, want errCorrupt", data, err)
				}
				if _, err := DecodeEntity("p", "r", data); err != ErrCorrupt {
					t.Fatalf("decodeEntity(%q) accepts what Check refuses", data)
				}
			}
		}
	})
}

// TestRecord_LookupAllocatesNothing pins the point of Record: finding and reading a
// property in the stored form costs no allocation, whatever its type.
func TestRecord_LookupAllocatesNothing(t *testing.T) {
	r := NewRecord(codecSamples()[1])
	allocs := testing.AllocsPerRun(100, func() {
		for _, name := range []string{"S", "B", "G", "N", "L", "Absent"} {
			r.Lookup(name)
		}
		r.Timestamp()
		r.Size()
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per run, want 0", allocs)
	}
}

// FuzzRecordAgreesWithDecode: on any stored form, a record that Check accepts reads in
// place exactly as DecodeEntity decodes it, and one it refuses does not decode.
func FuzzRecordAgreesWithDecode(f *testing.F) {
	for _, e := range codecSamples()[:2] {
		data := EncodeEntity(e.Timestamp, e.Properties)
		f.Add(data)
		f.Add(data[:len(data)/2])
	}
	f.Fuzz(func(t *testing.T, data string) {
		r := Record{PartitionKey: "p", RowKey: "r", data: data}
		e, err := DecodeEntity("p", "r", data)
		if (err == nil) != (r.Check() == nil) {
			t.Fatalf("decodeEntity says %v, Check says %v", err, r.Check())
		}
		if err != nil {
			return
		}
		if r.Timestamp() != e.Timestamp || r.Size() != e.Size() {
			t.Fatalf("Timestamp %v Size %d, want %v %d", r.Timestamp(), r.Size(), e.Timestamp, e.Size())
		}
		for _, p := range e.Properties { // a corrupt record may repeat a name: the first counts
			if v, ok := r.Lookup(p.Name); !ok || v != first(e, p.Name) {
				t.Fatalf("Lookup(%q) = %v, %v; want %v", p.Name, v, ok, first(e, p.Name))
			}
		}
	})
}

func first(e *model.Entity, name string) model.Value {
	v, _ := e.Get(name)
	return v
}

// FuzzSkipUvarint holds skipUvarint, which reads eight bytes at a time, to uvarintAt:
// the same end for every varint, and -1 for the same malformed ones.
func FuzzSkipUvarint(f *testing.F) {
	for _, s := range []string{"", "\x05", "\x80\x01", "\xff\xff\xff\xff\xff\xff\xff\xff\x01", "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01",
		"\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02", "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", "\xff\xff\xff\xff\xff\xff\xff\xff"} {
		f.Add(s, 0)
		f.Add("ab"+s+"cd", 2)
	}
	f.Fuzz(func(t *testing.T, s string, i int) {
		if i < 0 || i > len(s) {
			return
		}
		if _, want := uvarintAt(s, i); skipUvarint(s, i) != want {
			t.Fatalf("skipUvarint(%q, %d) = %d, want %d", s, i, skipUvarint(s, i), want)
		}
	})
}

// TestPropertiesAt holds the head's fast path (a nine-byte Timestamp, fewer than 128
// properties) to the general reading, for Timestamps of every varint length.
func TestPropertiesAt(t *testing.T) {
	props := []model.Property{{Name: "A", Value: model.Int32Value(1)}}
	for _, ts := range []model.DateTime{0, 1, 1 << 55, 1<<56 - 1, 1 << 56, model.MinDateTime, model.MaxDateTime, 1<<63 - 1} {
		for _, n := range []int{0, 1, 127, 128} {
			many := make([]model.Property, n)
			for i := range many {
				many[i] = model.Property{Name: string(rune('a' + i%26)), Value: props[0].Value}
			}
			s := EncodeEntity(ts, many)
			at, count := propertiesAt(s)
			wantAt, wantCount := headAt(s)
			if at != wantAt || count != wantCount || count != uint64(n) {
				t.Fatalf("Timestamp %d, %d properties: propertiesAt = %d, %d; headAt = %d, %d", ts, n, at, count, wantAt, wantCount)
			}
		}
	}
	for _, s := range []string{"", "\x02", "\x01\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80", "\x01\xff\xff\xff\xff\xff\xff\xff\xff\x7f"} {
		if at, _ := propertiesAt(s); at != -1 {
			t.Fatalf("propertiesAt(%q) = %d, want -1", s, at)
		}
	}
}
