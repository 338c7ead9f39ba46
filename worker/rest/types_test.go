//go:build !js

package rest_test

import (
	"bytes"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tabletopdb/tabletop/core/model"
)

// TestSDK_Types round-trips a property of each of the eight EDM types, with edge values,
// through insert and get.
func TestSDK_Types(t *testing.T) {
	e := newEnv(t)
	c := e.table(t, "Types")
	when := time.Date(2021, 8, 31, 15, 40, 49, 672440700, time.UTC)
	want := map[string]any{
		"Str":       "héllo \"world\"\n\u2028😀",
		"Bin":       aztables.EDMBinary([]byte{0, 1, 2, 0xfe, 0xff}),
		"Bool":      true,
		"When":      aztables.EDMDateTime(when),
		"Dbl":       float64(5),
		"DblFrac":   1.5e-7,
		"DblBig":    1.7976931348623157e308,
		"Guid":      aztables.EDMGUID("0d391d16-97f1-4b9a-be68-4cc871f90001"),
		"I32":       int32(math.MinInt32),
		"I32Max":    int32(math.MaxInt32),
		"I64":       aztables.EDMInt64(math.MaxInt64),
		"I64Min":    aztables.EDMInt64(math.MinInt64),
		"EmptyStr":  "",
		"FalseBool": false,
	}
	t.Run("OK", func(t *testing.T) {
		// encoding/json writes float64(5) as 5, which reads back as an Int32: annotate it.
		body := props("p", "r", without(want, "Dbl"))
		body = bytes.Replace(body, []byte("{"), []byte(`{"Dbl@odata.type":"Edm.Double","Dbl":5,`), 1)
		if _, err := c.AddEntity(ctx, body, nil); err != nil {
			t.Fatal(err)
		}
		got, _ := get(t, c, "p", "r")
		// The SDK's GetEntity re-marshals the body, so 5.0 comes back as 5 (an Int32).
		got.Properties["Dbl"] = float64(got.Properties["Dbl"].(int32))
		for name, w := range want {
			g := got.Properties[name]
			if b, ok := w.(aztables.EDMBinary); ok {
				if gb, _ := g.(aztables.EDMBinary); !bytes.Equal(b, gb) {
					t.Errorf("%s = %#v, want %#v", name, g, w)
				}
				continue
			}
			if wt, ok := w.(aztables.EDMDateTime); ok {
				if gt, _ := g.(aztables.EDMDateTime); !time.Time(gt).Equal(time.Time(wt)) {
					t.Errorf("%s = %v, want %v", name, time.Time(gt), time.Time(wt))
				}
				continue
			}
			if !reflect.DeepEqual(g, w) {
				t.Errorf("%s = %#v (%T), want %#v (%T)", name, g, g, w, w)
			}
		}
		if len(got.Properties) != len(want) {
			t.Errorf("got %d properties, want %d", len(got.Properties), len(want))
		}
	})
	t.Run("StoredTypes", func(t *testing.T) {
		stored, err := e.store.Get("Types", "p", "r")
		if err != nil {
			t.Fatal(err)
		}
		types := map[string]model.Type{
			"Str": model.TypeString, "Bin": model.TypeBinary, "Bool": model.TypeBoolean,
			"When": model.TypeDateTime, "Dbl": model.TypeDouble, "DblFrac": model.TypeDouble,
			"DblBig": model.TypeDouble, "Guid": model.TypeGuid, "I32": model.TypeInt32,
			"I32Max": model.TypeInt32, "I64": model.TypeInt64, "I64Min": model.TypeInt64,
			"EmptyStr": model.TypeString, "FalseBool": model.TypeBoolean,
		}
		for name, typ := range types {
			if v, ok := stored.Get(name); !ok || v.Type() != typ {
				t.Errorf("%s stored as %v (present %v), want %v", name, v.Type(), ok, typ)
			}
		}
		if v, _ := stored.Get("When"); v.DateTime().String() != "2021-08-31T15:40:49.6724407Z" {
			t.Errorf("When = %s", v.DateTime())
		}
	})
}

// without returns a copy of m without key.
func without(m map[string]any, key string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if k != key {
			out[k] = v
		}
	}
	return out
}
