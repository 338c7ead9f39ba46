package model_test

import (
	"errors"
	"math"
	"testing"
	"unicode/utf16"

	"github.com/tabletopdb/tabletop/core/model"
)

func TestParseType(t *testing.T) {
	names := map[model.Type]string{
		model.TypeString: "Edm.String", model.TypeBinary: "Edm.Binary", model.TypeBoolean: "Edm.Boolean",
		model.TypeDateTime: "Edm.DateTime", model.TypeDouble: "Edm.Double", model.TypeGuid: "Edm.Guid",
		model.TypeInt32: "Edm.Int32", model.TypeInt64: "Edm.Int64",
	}
	for typ, name := range names {
		t.Run("OK/"+name, func(t *testing.T) {
			got, err := model.ParseType(name)
			if err != nil || got != typ || typ.String() != name {
				t.Fatalf("ParseType(%q) = %v, %v; String() = %s", name, got, err, typ.String())
			}
		})
	}
	for _, name := range []string{"", "Edm.Int16", "edm.string", "Edm.Single", "Edm.DateTimeOffset", "String"} {
		t.Run("ErrTypeUnknown/"+name, func(t *testing.T) {
			_, err := model.ParseType(name)
			wantErr(t, err, model.ErrTypeUnknown)
		})
	}
	if got := model.Type(8).String(); got != "Edm.Unknown" {
		t.Fatalf("Type(8) = %s", got)
	}
	_, err := model.ParseValue(model.Type(8), "1")
	wantErr(t, err, model.ErrTypeUnknown)
}

func TestValue_Accessors(t *testing.T) {
	g := model.Guid{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	vals := []model.Value{
		model.StringValue("s"), model.BinaryValue([]byte{1}), model.BoolValue(true), model.DateTimeValue(model.MinDateTime),
		model.DoubleValue(1.5), model.GuidValue(g), model.Int32Value(-7), model.Int64Value(-8),
	}
	for i, v := range vals {
		if v.Type() != model.Type(i) {
			t.Fatalf("value %d has type %v", i, v.Type())
		}
		// Each accessor answers its own type and the zero value for any other.
		checks := []bool{
			(v.Str() == "s") == (i == 0), (v.Bytes() != nil) == (i == 1), v.Bool() == (i == 2),
			(v.DateTime() == model.MinDateTime) == (i == 3), (v.Double() == 1.5) == (i == 4),
			(v.Guid() == g) == (i == 5), (v.Int32() == -7) == (i == 6), (v.Int64() == -8) == (i == 7),
		}
		for j, ok := range checks {
			if !ok {
				t.Errorf("%v: accessor %d disagrees", v.Type(), j)
			}
		}
	}
	if (model.Value{}) != model.StringValue("") {
		t.Error("the zero Value is not the empty String")
	}
	if model.Int32Value(1) == model.Int64Value(1) || model.StringValue("1") == model.Int32Value(1) {
		t.Error("values of different types compare equal")
	}
}

func TestValue_BinaryIsCopied(t *testing.T) {
	b := []byte{1, 2, 3}
	v := model.BinaryValue(b)
	b[0] = 9
	out := v.Bytes()
	out[1] = 9
	if got := v.Bytes(); got[0] != 1 || got[1] != 2 {
		t.Fatalf("Binary value changed through a slice: %v", got)
	}
}

func TestValue_NaNComparable(t *testing.T) {
	other := math.Float64frombits(0x7FF8_0000_0000_0042)
	if model.DoubleValue(math.NaN()) != model.DoubleValue(other) {
		t.Fatal("two NaN Values differ")
	}
	v, err := model.ParseValue(model.TypeDouble, "NaN")
	if err != nil || v != model.DoubleValue(other) || !math.IsNaN(v.Double()) {
		t.Fatalf("ParseValue(NaN) = %v, %v", v.Double(), err)
	}
}

// TestValue_Text checks each type's Azure wire text and that ParseValue reads it back.
func TestValue_Text(t *testing.T) {
	g, _ := model.ParseGuid("0d391d16-97f1-4b9a-be68-4cc871f90001")
	dt, _ := model.ParseDateTime("2021-08-31T15:40:49.6724407Z")
	cases := []struct {
		v    model.Value
		text string
	}{
		{model.StringValue("héllo " + emoji), "héllo " + emoji},
		{model.BinaryValue([]byte("Azure")), "QXp1cmU="},
		{model.BinaryValue(nil), ""},
		{model.BoolValue(true), "true"},
		{model.BoolValue(false), "false"},
		{model.DateTimeValue(dt), "2021-08-31T15:40:49.6724407Z"},
		{model.DoubleValue(5), "5.0"},
		{model.DoubleValue(-5), "-5.0"},
		{model.DoubleValue(1.5), "1.5"},
		{model.DoubleValue(0.1), "0.1"},
		{model.DoubleValue(0), "0.0"},
		{model.DoubleValue(math.Copysign(0, -1)), "-0.0"},
		{model.DoubleValue(1e20), "100000000000000000000.0"},
		{model.DoubleValue(1e21), "1e+21"},
		{model.DoubleValue(1e-6), "0.000001"},
		{model.DoubleValue(9.5e-7), "9.5e-07"},
		{model.DoubleValue(1e-7), "1e-07"},
		{model.DoubleValue(math.MaxFloat64), "1.7976931348623157e+308"},
		{model.DoubleValue(math.NaN()), "NaN"},
		{model.DoubleValue(math.Inf(1)), "Infinity"},
		{model.DoubleValue(math.Inf(-1)), "-Infinity"},
		{model.GuidValue(g), "0d391d16-97f1-4b9a-be68-4cc871f90001"},
		{model.Int32Value(math.MinInt32), "-2147483648"},
		{model.Int64Value(math.MaxInt64), "9223372036854775807"},
	}
	for _, c := range cases {
		t.Run(c.v.Type().String()+"/"+c.text, func(t *testing.T) {
			if got := c.v.Text(); got != c.text {
				t.Fatalf("Text = %q, want %q", got, c.text)
			}
			back, err := model.ParseValue(c.v.Type(), c.text)
			if err != nil || back != c.v {
				t.Fatalf("ParseValue(%v, %q) = %q, %v", c.v.Type(), c.text, back.Text(), err)
			}
		})
	}
}

// TestParseValue covers input forms other than the canonical text, and every refusal.
func TestParseValue(t *testing.T) {
	cases := []struct {
		typ  model.Type
		text string
		want model.Value
		err  error
	}{
		{model.TypeDouble, "5", model.DoubleValue(5), nil},
		{model.TypeDouble, "5.", model.DoubleValue(5), nil},
		{model.TypeDouble, ".5", model.DoubleValue(0.5), nil},
		{model.TypeDouble, "1E3", model.DoubleValue(1000), nil},
		{model.TypeDouble, "-1e-3", model.DoubleValue(-0.001), nil},
		{model.TypeDouble, "INF", model.DoubleValue(math.Inf(1)), nil},
		{model.TypeDouble, "-INF", model.DoubleValue(math.Inf(-1)), nil},
		{model.TypeDouble, "1e400", model.Value{}, model.ErrValueOutOfRange},
		{model.TypeDouble, "", model.Value{}, model.ErrValueInvalid},
		{model.TypeDouble, "inf", model.Value{}, model.ErrValueInvalid},
		{model.TypeDouble, "nan", model.Value{}, model.ErrValueInvalid},
		{model.TypeDouble, "0x1p3", model.Value{}, model.ErrValueInvalid},
		{model.TypeDouble, "1_000", model.Value{}, model.ErrValueInvalid},
		{model.TypeDouble, "1.5 ", model.Value{}, model.ErrValueInvalid},
		{model.TypeDouble, "1e", model.Value{}, model.ErrValueInvalid},
		{model.TypeInt32, "2147483647", model.Int32Value(math.MaxInt32), nil},
		{model.TypeInt32, "-2147483648", model.Int32Value(math.MinInt32), nil},
		{model.TypeInt32, "2147483648", model.Value{}, model.ErrValueOutOfRange},
		{model.TypeInt32, "-2147483649", model.Value{}, model.ErrValueOutOfRange},
		{model.TypeInt32, "1.0", model.Value{}, model.ErrValueInvalid},
		{model.TypeInt32, "", model.Value{}, model.ErrValueInvalid},
		{model.TypeInt32, "0x10", model.Value{}, model.ErrValueInvalid},
		{model.TypeInt64, "-9223372036854775808", model.Int64Value(math.MinInt64), nil},
		{model.TypeInt64, "9223372036854775808", model.Value{}, model.ErrValueOutOfRange},
		{model.TypeInt64, "12L", model.Value{}, model.ErrValueInvalid},
		{model.TypeBoolean, "True", model.Value{}, model.ErrValueInvalid},
		{model.TypeBoolean, "1", model.Value{}, model.ErrValueInvalid},
		{model.TypeBoolean, "", model.Value{}, model.ErrValueInvalid},
		{model.TypeBinary, "AQID", model.BinaryValue([]byte{1, 2, 3}), nil},
		{model.TypeBinary, "AQI", model.Value{}, model.ErrValueInvalid},
		{model.TypeBinary, "!!!!", model.Value{}, model.ErrValueInvalid},
		{model.TypeBinary, "AQ-_", model.Value{}, model.ErrValueInvalid}, // base64url is not Azure's form
		{model.TypeGuid, "0D391D16-97F1-4B9A-BE68-4CC871F90001", model.GuidValue(model.Guid{0x0d, 0x39, 0x1d, 0x16, 0x97, 0xf1, 0x4b, 0x9a, 0xbe, 0x68, 0x4c, 0xc8, 0x71, 0xf9, 0, 1}), nil},
		{model.TypeGuid, "0d391d1697f14b9abe684cc871f90001", model.Value{}, model.ErrValueInvalid},
		{model.TypeDateTime, "2021-08-31T15:40:49", model.DateTimeValue(mustDateTime(t, "2021-08-31T15:40:49.0000000Z")), nil},
		{model.TypeDateTime, "1600-12-31T23:59:59.9999999Z", model.Value{}, model.ErrValueOutOfRange},
		{model.TypeDateTime, "yesterday", model.Value{}, model.ErrValueInvalid},
	}
	for _, c := range cases {
		name := "OK"
		if c.err != nil {
			name = c.err.Error()
		}
		t.Run(c.typ.String()+"/"+name+"/"+c.text, func(t *testing.T) {
			got, err := model.ParseValue(c.typ, c.text)
			if c.err != nil {
				if !errors.Is(err, c.err) || got != (model.Value{}) {
					t.Fatalf("ParseValue = %q, %v; want %v", got.Text(), err, c.err)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("ParseValue = %v %q, %v; want %q", got.Type(), got.Text(), err, c.want.Text())
			}
		})
	}
}

// FuzzParseValue: ParseValue never panics; what it accepts is valid, and its text parses
// back to the same Value and the same text; what it refuses is refused with a value error.
func FuzzParseValue(f *testing.F) {
	seeds := []struct {
		typ  model.Type
		text string
	}{
		{model.TypeString, "abc"}, {model.TypeString, "a\xff"}, {model.TypeBinary, "QXp1cmU="}, {model.TypeBinary, "QQ==\n"},
		{model.TypeBoolean, "true"}, {model.TypeDateTime, "2021-08-31T15:40:49.6724407Z"},
		{model.TypeDateTime, "2021-08-31T15:40:49.12345678901+05:30"}, {model.TypeDateTime, "9999-12-31T23:59:59.9999999Z"},
		{model.TypeDateTime, "1601-01-01T00:00"}, {model.TypeDouble, "5"}, {model.TypeDouble, "-0.0"}, {model.TypeDouble, "1e21"},
		{model.TypeDouble, "NaN"}, {model.TypeDouble, "4.9e-324"}, {model.TypeGuid, "0D391D16-97F1-4B9A-BE68-4CC871F90001"},
		{model.TypeInt32, "-2147483648"}, {model.TypeInt32, "+7"}, {model.TypeInt64, "9223372036854775807"}, {model.TypeInt64, "-0"},
	}
	for _, s := range seeds {
		f.Add(uint8(s.typ), s.text)
	}
	f.Fuzz(func(t *testing.T, typ uint8, text string) {
		ty := model.Type(typ % 8)
		v, err := model.ParseValue(ty, text)
		if err != nil {
			if !errors.Is(err, model.ErrValueInvalid) && !errors.Is(err, model.ErrValueOutOfRange) && !errors.Is(err, model.ErrValueTooLarge) {
				t.Fatalf("ParseValue(%v, %q): unexpected error %v", ty, text, err)
			}
			return
		}
		if v.Type() != ty || v.Validate() != nil {
			t.Fatalf("ParseValue(%v, %q) = %v value, Validate %v", ty, text, v.Type(), v.Validate())
		}
		back, err := model.ParseValue(ty, v.Text())
		if err != nil || back != v || back.Text() != v.Text() {
			t.Fatalf("ParseValue(%v, %q) = %q, which reads back as %q, %v", ty, text, v.Text(), back.Text(), err)
		}
	})
}

func mustDateTime(t testing.TB, s string) model.DateTime {
	t.Helper()
	d, err := model.ParseDateTime(s)
	if err != nil {
		t.Fatalf("ParseDateTime(%q): %v", s, err)
	}
	return d
}

// FuzzUTF16Len holds UTF16Len, which reads ASCII eight bytes at a time, to the count of
// the UTF-16 encoding of s's runes (an invalid byte is one U+FFFD).
func FuzzUTF16Len(f *testing.F) {
	for _, s := range []string{"", "a", "abcdefgh", "abcdefghé", "éabcdefgh", "0123456789abcdef\U0001F600", "\xff1234567", "1234567\xe2\x82"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := model.UTF16Len(s), len(utf16.Encode([]rune(s))); got != want {
			t.Fatalf("UTF16Len(%q) = %d, want %d", s, got, want)
		}
	})
}
