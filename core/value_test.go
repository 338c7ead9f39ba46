package core_test

import (
	"errors"
	"math"
	"testing"
	"unicode/utf16"

	"github.com/tabletopdb/tabletop/core"
)

func TestParseType(t *testing.T) {
	names := map[core.Type]string{
		core.TypeString: "Edm.String", core.TypeBinary: "Edm.Binary", core.TypeBoolean: "Edm.Boolean",
		core.TypeDateTime: "Edm.DateTime", core.TypeDouble: "Edm.Double", core.TypeGuid: "Edm.Guid",
		core.TypeInt32: "Edm.Int32", core.TypeInt64: "Edm.Int64",
	}
	for typ, name := range names {
		t.Run("OK/"+name, func(t *testing.T) {
			got, err := core.ParseType(name)
			if err != nil || got != typ || typ.String() != name {
				t.Fatalf("ParseType(%q) = %v, %v; String() = %s", name, got, err, typ.String())
			}
		})
	}
	for _, name := range []string{"", "Edm.Int16", "edm.string", "Edm.Single", "Edm.DateTimeOffset", "String"} {
		t.Run("ErrTypeUnknown/"+name, func(t *testing.T) {
			_, err := core.ParseType(name)
			wantErr(t, err, core.ErrTypeUnknown)
		})
	}
	if got := core.Type(8).String(); got != "Edm.Unknown" {
		t.Fatalf("Type(8) = %s", got)
	}
	_, err := core.ParseValue(core.Type(8), "1")
	wantErr(t, err, core.ErrTypeUnknown)
}

func TestValue_Accessors(t *testing.T) {
	g := core.Guid{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	vals := []core.Value{
		core.StringValue("s"), core.BinaryValue([]byte{1}), core.BoolValue(true), core.DateTimeValue(core.MinDateTime),
		core.DoubleValue(1.5), core.GuidValue(g), core.Int32Value(-7), core.Int64Value(-8),
	}
	for i, v := range vals {
		if v.Type() != core.Type(i) {
			t.Fatalf("value %d has type %v", i, v.Type())
		}
		// Each accessor answers its own type and the zero value for any other.
		checks := []bool{
			(v.Str() == "s") == (i == 0), (v.Bytes() != nil) == (i == 1), v.Bool() == (i == 2),
			(v.DateTime() == core.MinDateTime) == (i == 3), (v.Double() == 1.5) == (i == 4),
			(v.Guid() == g) == (i == 5), (v.Int32() == -7) == (i == 6), (v.Int64() == -8) == (i == 7),
		}
		for j, ok := range checks {
			if !ok {
				t.Errorf("%v: accessor %d disagrees", v.Type(), j)
			}
		}
	}
	if (core.Value{}) != core.StringValue("") {
		t.Error("the zero Value is not the empty String")
	}
	if core.Int32Value(1) == core.Int64Value(1) || core.StringValue("1") == core.Int32Value(1) {
		t.Error("values of different types compare equal")
	}
}

func TestValue_BinaryIsCopied(t *testing.T) {
	b := []byte{1, 2, 3}
	v := core.BinaryValue(b)
	b[0] = 9
	out := v.Bytes()
	out[1] = 9
	if got := v.Bytes(); got[0] != 1 || got[1] != 2 {
		t.Fatalf("Binary value changed through a slice: %v", got)
	}
}

func TestValue_NaNComparable(t *testing.T) {
	other := math.Float64frombits(0x7FF8_0000_0000_0042)
	if core.DoubleValue(math.NaN()) != core.DoubleValue(other) {
		t.Fatal("two NaN Values differ")
	}
	v, err := core.ParseValue(core.TypeDouble, "NaN")
	if err != nil || v != core.DoubleValue(other) || !math.IsNaN(v.Double()) {
		t.Fatalf("ParseValue(NaN) = %v, %v", v.Double(), err)
	}
}

// TestValue_Text checks each type's Azure wire text and that ParseValue reads it back.
func TestValue_Text(t *testing.T) {
	g, _ := core.ParseGuid("0d391d16-97f1-4b9a-be68-4cc871f90001")
	dt, _ := core.ParseDateTime("2021-08-31T15:40:49.6724407Z")
	cases := []struct {
		v    core.Value
		text string
	}{
		{core.StringValue("héllo " + emoji), "héllo " + emoji},
		{core.BinaryValue([]byte("Azure")), "QXp1cmU="},
		{core.BinaryValue(nil), ""},
		{core.BoolValue(true), "true"},
		{core.BoolValue(false), "false"},
		{core.DateTimeValue(dt), "2021-08-31T15:40:49.6724407Z"},
		{core.DoubleValue(5), "5.0"},
		{core.DoubleValue(-5), "-5.0"},
		{core.DoubleValue(1.5), "1.5"},
		{core.DoubleValue(0.1), "0.1"},
		{core.DoubleValue(0), "0.0"},
		{core.DoubleValue(math.Copysign(0, -1)), "-0.0"},
		{core.DoubleValue(1e20), "100000000000000000000.0"},
		{core.DoubleValue(1e21), "1e+21"},
		{core.DoubleValue(1e-6), "0.000001"},
		{core.DoubleValue(9.5e-7), "9.5e-07"},
		{core.DoubleValue(1e-7), "1e-07"},
		{core.DoubleValue(math.MaxFloat64), "1.7976931348623157e+308"},
		{core.DoubleValue(math.NaN()), "NaN"},
		{core.DoubleValue(math.Inf(1)), "Infinity"},
		{core.DoubleValue(math.Inf(-1)), "-Infinity"},
		{core.GuidValue(g), "0d391d16-97f1-4b9a-be68-4cc871f90001"},
		{core.Int32Value(math.MinInt32), "-2147483648"},
		{core.Int64Value(math.MaxInt64), "9223372036854775807"},
	}
	for _, c := range cases {
		t.Run(c.v.Type().String()+"/"+c.text, func(t *testing.T) {
			if got := c.v.Text(); got != c.text {
				t.Fatalf("Text = %q, want %q", got, c.text)
			}
			back, err := core.ParseValue(c.v.Type(), c.text)
			if err != nil || back != c.v {
				t.Fatalf("ParseValue(%v, %q) = %q, %v", c.v.Type(), c.text, back.Text(), err)
			}
		})
	}
}

// TestParseValue covers input forms other than the canonical text, and every refusal.
func TestParseValue(t *testing.T) {
	cases := []struct {
		typ  core.Type
		text string
		want core.Value
		err  error
	}{
		{core.TypeDouble, "5", core.DoubleValue(5), nil},
		{core.TypeDouble, "5.", core.DoubleValue(5), nil},
		{core.TypeDouble, ".5", core.DoubleValue(0.5), nil},
		{core.TypeDouble, "1E3", core.DoubleValue(1000), nil},
		{core.TypeDouble, "-1e-3", core.DoubleValue(-0.001), nil},
		{core.TypeDouble, "INF", core.DoubleValue(math.Inf(1)), nil},
		{core.TypeDouble, "-INF", core.DoubleValue(math.Inf(-1)), nil},
		{core.TypeDouble, "1e400", core.Value{}, core.ErrValueOutOfRange},
		{core.TypeDouble, "", core.Value{}, core.ErrValueInvalid},
		{core.TypeDouble, "inf", core.Value{}, core.ErrValueInvalid},
		{core.TypeDouble, "nan", core.Value{}, core.ErrValueInvalid},
		{core.TypeDouble, "0x1p3", core.Value{}, core.ErrValueInvalid},
		{core.TypeDouble, "1_000", core.Value{}, core.ErrValueInvalid},
		{core.TypeDouble, "1.5 ", core.Value{}, core.ErrValueInvalid},
		{core.TypeDouble, "1e", core.Value{}, core.ErrValueInvalid},
		{core.TypeInt32, "2147483647", core.Int32Value(math.MaxInt32), nil},
		{core.TypeInt32, "-2147483648", core.Int32Value(math.MinInt32), nil},
		{core.TypeInt32, "2147483648", core.Value{}, core.ErrValueOutOfRange},
		{core.TypeInt32, "-2147483649", core.Value{}, core.ErrValueOutOfRange},
		{core.TypeInt32, "1.0", core.Value{}, core.ErrValueInvalid},
		{core.TypeInt32, "", core.Value{}, core.ErrValueInvalid},
		{core.TypeInt32, "0x10", core.Value{}, core.ErrValueInvalid},
		{core.TypeInt64, "-9223372036854775808", core.Int64Value(math.MinInt64), nil},
		{core.TypeInt64, "9223372036854775808", core.Value{}, core.ErrValueOutOfRange},
		{core.TypeInt64, "12L", core.Value{}, core.ErrValueInvalid},
		{core.TypeBoolean, "True", core.Value{}, core.ErrValueInvalid},
		{core.TypeBoolean, "1", core.Value{}, core.ErrValueInvalid},
		{core.TypeBoolean, "", core.Value{}, core.ErrValueInvalid},
		{core.TypeBinary, "AQID", core.BinaryValue([]byte{1, 2, 3}), nil},
		{core.TypeBinary, "AQI", core.Value{}, core.ErrValueInvalid},
		{core.TypeBinary, "!!!!", core.Value{}, core.ErrValueInvalid},
		{core.TypeBinary, "AQ-_", core.Value{}, core.ErrValueInvalid}, // base64url is not Azure's form
		{core.TypeGuid, "0D391D16-97F1-4B9A-BE68-4CC871F90001", core.GuidValue(core.Guid{0x0d, 0x39, 0x1d, 0x16, 0x97, 0xf1, 0x4b, 0x9a, 0xbe, 0x68, 0x4c, 0xc8, 0x71, 0xf9, 0, 1}), nil},
		{core.TypeGuid, "0d391d1697f14b9abe684cc871f90001", core.Value{}, core.ErrValueInvalid},
		{core.TypeDateTime, "2021-08-31T15:40:49", core.DateTimeValue(mustDateTime(t, "2021-08-31T15:40:49.0000000Z")), nil},
		{core.TypeDateTime, "1600-12-31T23:59:59.9999999Z", core.Value{}, core.ErrValueOutOfRange},
		{core.TypeDateTime, "yesterday", core.Value{}, core.ErrValueInvalid},
	}
	for _, c := range cases {
		name := "OK"
		if c.err != nil {
			name = c.err.Error()
		}
		t.Run(c.typ.String()+"/"+name+"/"+c.text, func(t *testing.T) {
			got, err := core.ParseValue(c.typ, c.text)
			if c.err != nil {
				if !errors.Is(err, c.err) || got != (core.Value{}) {
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
		typ  core.Type
		text string
	}{
		{core.TypeString, "abc"}, {core.TypeString, "a\xff"}, {core.TypeBinary, "QXp1cmU="}, {core.TypeBinary, "QQ==\n"},
		{core.TypeBoolean, "true"}, {core.TypeDateTime, "2021-08-31T15:40:49.6724407Z"},
		{core.TypeDateTime, "2021-08-31T15:40:49.12345678901+05:30"}, {core.TypeDateTime, "9999-12-31T23:59:59.9999999Z"},
		{core.TypeDateTime, "1601-01-01T00:00"}, {core.TypeDouble, "5"}, {core.TypeDouble, "-0.0"}, {core.TypeDouble, "1e21"},
		{core.TypeDouble, "NaN"}, {core.TypeDouble, "4.9e-324"}, {core.TypeGuid, "0D391D16-97F1-4B9A-BE68-4CC871F90001"},
		{core.TypeInt32, "-2147483648"}, {core.TypeInt32, "+7"}, {core.TypeInt64, "9223372036854775807"}, {core.TypeInt64, "-0"},
	}
	for _, s := range seeds {
		f.Add(uint8(s.typ), s.text)
	}
	f.Fuzz(func(t *testing.T, typ uint8, text string) {
		ty := core.Type(typ % 8)
		v, err := core.ParseValue(ty, text)
		if err != nil {
			if !errors.Is(err, core.ErrValueInvalid) && !errors.Is(err, core.ErrValueOutOfRange) && !errors.Is(err, core.ErrValueTooLarge) {
				t.Fatalf("ParseValue(%v, %q): unexpected error %v", ty, text, err)
			}
			return
		}
		if v.Type() != ty || v.Validate() != nil {
			t.Fatalf("ParseValue(%v, %q) = %v value, Validate %v", ty, text, v.Type(), v.Validate())
		}
		back, err := core.ParseValue(ty, v.Text())
		if err != nil || back != v || back.Text() != v.Text() {
			t.Fatalf("ParseValue(%v, %q) = %q, which reads back as %q, %v", ty, text, v.Text(), back.Text(), err)
		}
	})
}

func mustDateTime(t testing.TB, s string) core.DateTime {
	t.Helper()
	d, err := core.ParseDateTime(s)
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
		if got, want := core.UTF16Len(s), len(utf16.Encode([]rune(s))); got != want {
			t.Fatalf("UTF16Len(%q) = %d, want %d", s, got, want)
		}
	})
}
