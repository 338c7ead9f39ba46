package wire_test

import (
	"math"
	"testing"

	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/wire"
)

// TestRoundTrip checks DecodeEntity(AppendEntity(e)) == e at the levels that keep types.
func TestRoundTrip(t *testing.T) {
	e := allTypes(t)
	e.Properties = append(e.Properties,
		prop("Big", model.Int64Value(1<<53+1)),
		prop("MinI64", model.Int64Value(math.MinInt64)),
		prop("MaxI32", model.Int32Value(math.MaxInt32)),
		prop("Inf", model.DoubleValue(math.Inf(1))),
		prop("NegInf", model.DoubleValue(math.Inf(-1))),
		prop("NegZero", model.DoubleValue(math.Copysign(0, -1))),
		prop("Tiny", model.DoubleValue(math.SmallestNonzeroFloat64)),
		prop("Huge", model.DoubleValue(math.MaxFloat64)),
		prop("E21", model.DoubleValue(1e21)),
		prop("Third", model.DoubleValue(1.0/3)),
		prop("Ticks", model.DateTimeValue(mustDateTime(t, "9999-12-31T23:59:59.9999999Z"))),
		prop("Bytes", model.BinaryValue([]byte{0, 0xff, 0xfe, '"'})),
		prop("NumStr", model.StringValue("1.5")),
		prop("Control", model.StringValue("\x00\x1f\u2028\U0010FFFF")),
		prop("False", model.BoolValue(false)),
	)
	for _, m := range []wire.Metadata{wire.MinimalMetadata, wire.FullMetadata} {
		t.Run(m.String(), func(t *testing.T) {
			b := wire.AppendEntity(nil, e, ctx(m))
			got, err := wire.DecodeEntity(b)
			if err != nil {
				t.Fatalf("%v in %s", err, b)
			}
			if !sameEntity(got, e) {
				t.Fatalf("got  %+v\nwant %+v\nfrom %s", got, e, b)
			}
		})
	}
}
