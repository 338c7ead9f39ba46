package wire_test

import (
	"math"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/wire"
)

// TestRoundTrip checks DecodeEntity(AppendEntity(e)) == e at the levels that keep types.
func TestRoundTrip(t *testing.T) {
	e := allTypes(t)
	e.Properties = append(e.Properties,
		prop("Big", core.Int64Value(1<<53+1)),
		prop("MinI64", core.Int64Value(math.MinInt64)),
		prop("MaxI32", core.Int32Value(math.MaxInt32)),
		prop("Inf", core.DoubleValue(math.Inf(1))),
		prop("NegInf", core.DoubleValue(math.Inf(-1))),
		prop("NegZero", core.DoubleValue(math.Copysign(0, -1))),
		prop("Tiny", core.DoubleValue(math.SmallestNonzeroFloat64)),
		prop("Huge", core.DoubleValue(math.MaxFloat64)),
		prop("E21", core.DoubleValue(1e21)),
		prop("Third", core.DoubleValue(1.0/3)),
		prop("Ticks", core.DateTimeValue(mustDateTime(t, "9999-12-31T23:59:59.9999999Z"))),
		prop("Bytes", core.BinaryValue([]byte{0, 0xff, 0xfe, '"'})),
		prop("NumStr", core.StringValue("1.5")),
		prop("Control", core.StringValue("\x00\x1f\u2028\U0010FFFF")),
		prop("False", core.BoolValue(false)),
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
