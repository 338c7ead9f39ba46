package stored

import (
	"github.com/tabletopdb/tabletop/core/model"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// codecSamples are entities of every type and shape the encoder meets.
func codecSamples() []*model.Entity {
	g, _ := model.ParseGuid("0d391d16-97f1-4b9a-be68-4cc871f90001")
	all := []model.Property{
		{Name: "S", Value: model.StringValue("héllo \U0001F600")}, {Name: "E", Value: model.StringValue("")}, {Name: "B", Value: model.BinaryValue([]byte{0, 1, 255})},
		{Name: "T", Value: model.BoolValue(true)}, {Name: "F", Value: model.BoolValue(false)}, {Name: "D", Value: model.DateTimeValue(model.MaxDateTime)},
		{Name: "X", Value: model.DoubleValue(math.Inf(-1))}, {Name: "N", Value: model.DoubleValue(math.NaN())}, {Name: "Z", Value: model.DoubleValue(math.Copysign(0, -1))},
		{Name: "G", Value: model.GuidValue(g)}, {Name: "I", Value: model.Int32Value(math.MinInt32)}, {Name: "J", Value: model.Int32Value(math.MaxInt32)},
		{Name: "K", Value: model.Int64Value(math.MinInt64)}, {Name: "L", Value: model.Int64Value(math.MaxInt64)}, {Name: "M", Value: model.Int64Value(-1)},
	}
	many := make([]model.Property, model.MaxCustomProperties)
	for i := range many {
		many[i] = model.Property{Name: "p" + string(rune('a'+i%26)) + string(rune('a'+i/26)), Value: model.Int32Value(int32(i))}
	}
	return []*model.Entity{
		{PartitionKey: "p", RowKey: "r", Timestamp: model.MinDateTime, Properties: []model.Property{}},
		{PartitionKey: "p", RowKey: "r", Timestamp: model.MaxDateTime, Properties: all},
		{PartitionKey: "", RowKey: "", Timestamp: 1, Properties: many},
		{PartitionKey: "p", RowKey: "r", Timestamp: 2, Properties: []model.Property{{Name: "Big", Value: model.StringValue(strings.Repeat("x", model.MaxValueBytes/2))}}},
	}
}

func TestEntityCodec_RoundTrip(t *testing.T) {
	for i, e := range codecSamples() {
		data := EncodeEntity(e.Timestamp, e.Properties)
		got, err := DecodeEntity(e.PartitionKey, e.RowKey, data)
		if err != nil || !reflect.DeepEqual(got, e) {
			t.Fatalf("sample %d: decoded %+v, %v", i, got, err)
		}
	}
}

func TestEntityCodec_Corrupt(t *testing.T) {
	good := EncodeEntity(5, []model.Property{{Name: "A", Value: model.Int32Value(7)}, {Name: "B", Value: model.StringValue("bb")}})
	cases := map[string]string{
		"empty":         "",
		"version":       "\x02" + good[1:],
		"trailingBytes": good + "\x00",
		"unknownType":   encodeRaw(1, 8, "A", "\x00"),
		"boolean2":      encodeRaw(1, byte(model.TypeBoolean), "A", "\x02"),
		"int32Overflow": encodeRaw(1, byte(model.TypeInt32), "A", "\x80\x80\x80\x80\x10"), // zig-zag 2^31
		"shortGuid":     encodeRaw(1, byte(model.TypeGuid), "A", "0123456789abcde"),
		"shortDouble":   encodeRaw(1, byte(model.TypeDouble), "A", "1234567"),
		"tooMany":       "\x01\x05\x80\x02", // 256 properties
		"overlongName":  "\x01\x05\x01\x00\xff\x01A",
		"varintOverrun": "\x01\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01\x00",
	}
	for i := 1; i < len(good); i++ {
		cases["truncated"+strconv.Itoa(i)] = good[:i]
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			if e, err := DecodeEntity("p", "r", data); err != ErrCorrupt || e != nil {
				t.Fatalf("decodeEntity(%q) = %+v, %v; want errCorrupt", data, e, err)
			}
		})
	}
}

// encodeRaw builds a one-property record by hand: version, Timestamp 5, count 1, the
// type, the name and the raw value bytes.
func encodeRaw(count byte, typ byte, name, value string) string {
	return string([]byte{Version, 5, count, typ, byte(len(name))}) + name + value
}

// FuzzDecodeEntityRecord: DecodeEntity never panics on corrupt input, and whatever it
// accepts encodes and decodes again to the same entity.
func FuzzDecodeEntityRecord(f *testing.F) {
	for _, e := range codecSamples()[:2] {
		data := EncodeEntity(e.Timestamp, e.Properties)
		f.Add(data)
		f.Add(data[:len(data)/2])
	}
	f.Add(encodeRaw(1, byte(model.TypeInt32), "A", "\x80\x80\x80\x80\x10"))
	f.Fuzz(func(t *testing.T, data string) {
		e, err := DecodeEntity("p", "r", data)
		if err != nil {
			if e != nil || err != ErrCorrupt {
				t.Fatalf("decodeEntity = %+v, %v", e, err)
			}
			return
		}
		if len(e.Properties) > model.MaxProperties {
			t.Fatalf("%d properties", len(e.Properties))
		}
		again := EncodeEntity(e.Timestamp, e.Properties)
		e2, err := DecodeEntity("p", "r", again)
		if err != nil || !reflect.DeepEqual(e2, e) || EncodeEntity(e2.Timestamp, e2.Properties) != again {
			t.Fatalf("re-encoded record decodes as %+v, %v; want %+v", e2, err, e)
		}
	})
}
