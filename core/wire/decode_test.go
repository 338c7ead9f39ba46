package wire_test

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/wire"
)

// body wraps members in an entity body with keys p and r.
func body(members string) []byte {
	if members != "" {
		members = "," + members
	}
	return []byte(`{"PartitionKey":"p","RowKey":"r"` + members + `}`)
}

func TestDecodeEntity(t *testing.T) {
	dt := model.DateTimeValue(mustDateTime(t, "2013-08-02T17:37:43.0090043Z"))
	guid := model.GuidValue(mustGuid(t, "4185404a-5818-48c3-b9be-f217df0dba6f"))
	for _, tc := range []struct {
		name    string
		members string
		want    []model.Property
	}{
		{"String", `"S":"x"`, []model.Property{prop("S", model.StringValue("x"))}},
		{"StringAnnotated", `"S@odata.type":"Edm.String","S":"NaN"`, []model.Property{prop("S", model.StringValue("NaN"))}},
		{"NumericStringUnannotated", `"S":"12"`, []model.Property{prop("S", model.StringValue("12"))}},
		{"Binary", `"B@odata.type":"Edm.Binary","B":"AQIDBA=="`, []model.Property{prop("B", model.BinaryValue([]byte{1, 2, 3, 4}))}},
		{"BinaryEmpty", `"B@odata.type":"Edm.Binary","B":""`, []model.Property{prop("B", model.BinaryValue(nil))}},
		{"Boolean", `"T":true,"F":false`, []model.Property{prop("T", model.BoolValue(true)), prop("F", model.BoolValue(false))}},
		{"BooleanAnnotatedString", `"T@odata.type":"Edm.Boolean","T":"true"`, []model.Property{prop("T", model.BoolValue(true))}},
		{"DateTime", `"D@odata.type":"Edm.DateTime","D":"2013-08-02T17:37:43.0090043Z"`, []model.Property{prop("D", dt)}},
		{"DateTimeNoZone", `"D@odata.type":"Edm.DateTime","D":"2013-08-02T17:37:43.0090043"`, []model.Property{prop("D", dt)}},
		{"Double", `"D":1234.1234`, []model.Property{prop("D", model.DoubleValue(1234.1234))}},
		{"DoubleIntegral", `"D":5.0`, []model.Property{prop("D", model.DoubleValue(5))}},
		{"DoubleExponent", `"D":1e3,"E":-2.5E-3`, []model.Property{prop("D", model.DoubleValue(1000)), prop("E", model.DoubleValue(-0.0025))}},
		{"DoubleNegativeZero", `"D":-0.0`, []model.Property{prop("D", model.DoubleValue(math.Copysign(0, -1)))}},
		{"DoubleAnnotatedInteger", `"D@odata.type":"Edm.Double","D":2`, []model.Property{prop("D", model.DoubleValue(2))}},
		{"DoubleAnnotatedStrings", `"A@odata.type":"Edm.Double","A":"NaN","B@odata.type":"Edm.Double","B":"Infinity",` +
			`"C@odata.type":"Edm.Double","C":"-Infinity","D@odata.type":"Edm.Double","D":"1.5"`,
			[]model.Property{prop("A", model.DoubleValue(math.NaN())), prop("B", model.DoubleValue(math.Inf(1))),
				prop("C", model.DoubleValue(math.Inf(-1))), prop("D", model.DoubleValue(1.5))}},
		{"Guid", `"G@odata.type":"Edm.Guid","G":"4185404A-5818-48C3-B9BE-F217DF0DBA6F"`, []model.Property{prop("G", guid)}},
		{"Int32", `"I":1234,"Z":-0,"Max":2147483647,"Min":-2147483648`, []model.Property{prop("I", model.Int32Value(1234)),
			prop("Z", model.Int32Value(0)), prop("Max", model.Int32Value(math.MaxInt32)), prop("Min", model.Int32Value(math.MinInt32))}},
		{"Int32AnnotatedString", `"I@odata.type":"Edm.Int32","I":"-7"`, []model.Property{prop("I", model.Int32Value(-7))}},
		{"IntegerBeyondInt32IsDouble", `"A":2147483648,"B":-2147483649,"C":123456789012345678901234567890`,
			[]model.Property{prop("A", model.DoubleValue(2147483648)), prop("B", model.DoubleValue(-2147483649)),
				prop("C", model.DoubleValue(123456789012345678901234567890))}},
		{"Int64", `"L@odata.type":"Edm.Int64","L":"9007199254740993"`, []model.Property{prop("L", model.Int64Value(9007199254740993))}},
		{"Int64Number", `"L@odata.type":"Edm.Int64","L":-9223372036854775808`, []model.Property{prop("L", model.Int64Value(math.MinInt64))}},
		{"AnnotationAfterValue", `"L":"12","L@odata.type":"Edm.Int64","S":"x"`,
			[]model.Property{prop("L", model.Int64Value(12)), prop("S", model.StringValue("x"))}},
		{"OrderOfFirstMention", `"B@odata.type":"Edm.Int64","A":1,"B":"2"`,
			[]model.Property{prop("B", model.Int64Value(2)), prop("A", model.Int32Value(1))}},
		{"NullsDropped", `"A":null,"B@odata.type":"Edm.Int64","B":null,"C@odata.type":null,"C":1,"D@odata.type":"Edm.Guid"`,
			[]model.Property{prop("C", model.Int32Value(1))}},
		{"IgnoredMembers", `"odata.metadata":"x","odata.etag":"W/\"x\"","odata.type":"a.t","Timestamp":"2020-01-01T00:00:00Z",` +
			`"Timestamp@odata.type":"Edm.DateTime","odata.x":{"a":[1,{"b":[]},"c",true,null,-1.5e3]},"odata.y@odata.type":"Edm.Bogus","K":1`,
			[]model.Property{prop("K", model.Int32Value(1))}},
		{"KeyAnnotation", `"PartitionKey@odata.type":"Edm.String","RowKey@odata.type":"Edm.String"`, []model.Property{}},
		{"Escapes", `"S":"\"\\\/\b\f\n\r\t\u0041\u00e9\u20AC\ud83d\ude00"`,
			[]model.Property{prop("S", model.StringValue("\"\\/\b\f\n\r\tAé€😀"))}},
		{"RawUTF8", `"ü":"日本 😀"`, []model.Property{prop("ü", model.StringValue("日本 😀"))}},
		{"EscapedName", `"\u0041b":1`, []model.Property{prop("Ab", model.Int32Value(1))}},
		{"SurrogatePair", `"A":"\ud83d\ude00x","\ud83d\ude00":"\uD83D\uDE00"`,
			[]model.Property{prop("A", model.StringValue("😀x")), prop("😀", model.StringValue("😀"))}},
		{"WhiteSpace", " \t\r\n\"S\" \n:\t\"x\" \r\n", []model.Property{prop("S", model.StringValue("x"))}},
	} {
		t.Run("OK/"+tc.name, func(t *testing.T) {
			e, err := wire.DecodeEntity(body(tc.members))
			if err != nil {
				t.Fatal(err)
			}
			want := &model.Entity{PartitionKey: "p", RowKey: "r", Properties: tc.want}
			if !sameEntity(e, want) || e.Timestamp != 0 {
				t.Fatalf("got %+v\nwant %+v", e, want)
			}
		})
	}
	t.Run("OK/Keys", func(t *testing.T) {
		e, err := wire.DecodeEntity([]byte(`{"RowKey":"it's \u00e9","X":1,"PartitionKey":""}`))
		if err != nil || e.PartitionKey != "" || e.RowKey != "it's é" || len(e.Properties) != 1 {
			t.Fatalf("got %+v, %v", e, err)
		}
	})
}

func TestDecodeEntity_Errors(t *testing.T) {
	tooMany := make([]string, 1025)
	for i := range tooMany {
		tooMany[i] = `"P` + strconv.Itoa(i) + `":null`
	}
	deep := `"odata.x":` + strings.Repeat("[", 65) + strings.Repeat("]", 65)
	for _, tc := range []struct {
		name  string
		body  string
		want  error
		field string // the FieldError's Field, if the error is one
	}{
		{"ErrJSONInvalid/Empty", ``, wire.ErrJSONInvalid, ""},
		{"ErrJSONInvalid/Space", ` `, wire.ErrJSONInvalid, ""},
		{"ErrJSONInvalid/Garbage", `x`, wire.ErrJSONInvalid, ""},
		{"ErrJSONInvalid/Unclosed", `{"PartitionKey":"p"`, wire.ErrJSONInvalid, ""},
		{"ErrJSONInvalid/TrailingComma", string(body(`"a":1,`)), wire.ErrJSONInvalid, ""},
		{"ErrJSONInvalid/MissingColon", `{"a" 1}`, wire.ErrJSONInvalid, ""},
		{"ErrJSONInvalid/MissingComma", `{"a":1 "b":2}`, wire.ErrJSONInvalid, ""},
		{"ErrJSONInvalid/KeyNotString", `{a:1}`, wire.ErrJSONInvalid, ""},
		{"ErrJSONInvalid/AfterObject", string(body("")) + ` {}`, wire.ErrJSONInvalid, ""},
		{"ErrJSONInvalid/NULAfterObject", string(body("")) + "\x00garbage", wire.ErrJSONInvalid, ""},
		{"ErrJSONInvalid/NULAfterSpace", string(body("")) + " \x00", wire.ErrJSONInvalid, ""},
		// Lone surrogates and invalid UTF-8 are refused, never rewritten to U+FFFD: two
		// distinct keys would collide, and the key stored would not be the key sent.
		{"ErrJSONInvalid/LoneHighSurrogate", string(body(`"A":"\ud800"`)), wire.ErrJSONInvalid, ""},
		{"ErrJSONInvalid/LoneHighSurrogateKey", `{"PartitionKey":"\ud800x","RowKey":"r"}`, wire.ErrJSONInvalid, ""},
		{"ErrJSONInvalid/LowSurrogateFirst", string(body(`"A":"\udc00\ud800"`)), wire.ErrJSONInvalid, ""},
		{"ErrJSONInvalid/HighThenLetter", string(body(`"A":"\ud800\u0041"`)), wire.ErrJSONInvalid, ""},
		{"ErrJSONInvalid/TwoHighSurrogates", string(body(`"A":"\ud83d\ud83d\ude00"`)), wire.ErrJSONInvalid, ""},
		{"ErrJSONInvalid/SurrogateName", string(body(`"\udfff":1`)), wire.ErrJSONInvalid, ""},
		{"ErrJSONInvalid/InvalidUTF8", string(body("\"S\":\"a\xffb\"")), wire.ErrJSONInvalid, ""},
		{"ErrJSONInvalid/TruncatedUTF8", string(body("\"S\":\"a\xc3\"")), wire.ErrJSONInvalid, ""},
		{"ErrJSONInvalid/EncodedSurrogate", string(body("\"S\":\"\xed\xa0\x80\"")), wire.ErrJSONInvalid, ""},
		{"ErrJSONInvalid/LeadingZero", string(body(`"a":01`)), wire.ErrJSONInvalid, ""},
		{"ErrJSONInvalid/Dot", string(body(`"a":1.`)), wire.ErrJSONInvalid, ""},
		{"ErrJSONInvalid/DotFirst", string(body(`"a":.5`)), wire.ErrJSONInvalid, ""},
		{"ErrJSONInvalid/Exponent", string(body(`"a":1e+`)), wire.ErrJSONInvalid, ""},
		{"ErrJSONInvalid/Minus", string(body(`"a":-`)), wire.ErrJSONInvalid, ""},
		{"ErrJSONInvalid/Plus", string(body(`"a":+1`)), wire.ErrJSONInvalid, ""},
		{"ErrJSONInvalid/Literal", string(body(`"a":tru`)), wire.ErrJSONInvalid, ""},
		{"ErrJSONInvalid/NaN", string(body(`"a":NaN`)), wire.ErrJSONInvalid, ""},
		{"ErrJSONInvalid/ControlChar", string(body("\"a\":\"x\ty\"")), wire.ErrJSONInvalid, ""},
		{"ErrJSONInvalid/BadEscape", string(body(`"a":"\x"`)), wire.ErrJSONInvalid, ""},
		{"ErrJSONInvalid/ShortUnicode", string(body(`"a":"\u12"`)), wire.ErrJSONInvalid, ""},
		{"ErrJSONInvalid/BadUnicode", string(body(`"a":"\u12g4"`)), wire.ErrJSONInvalid, ""},
		{"ErrJSONInvalid/Unterminated", `{"a":"abc`, wire.ErrJSONInvalid, ""},
		{"ErrJSONInvalid/UnterminatedEscape", `{"a":"abc\`, wire.ErrJSONInvalid, ""},
		{"ErrJSONInvalid/TooDeep", string(body(deep)), wire.ErrJSONInvalid, ""},
		{"ErrJSONInvalid/IgnoredMalformed", string(body(`"odata.x":[1,]`)), wire.ErrJSONInvalid, ""},
		{"ErrNotObject/Array", `[{"PartitionKey":"p"}]`, wire.ErrNotObject, ""},
		{"ErrNotObject/String", ` "x"`, wire.ErrNotObject, ""},
		{"ErrNotObject/Null", `null`, wire.ErrNotObject, ""},
		{"ErrNotObject/Number", `-1`, wire.ErrNotObject, ""},
		{"ErrNestedValue/Object", string(body(`"a":{}`)), wire.ErrNestedValue, "a"},
		{"ErrNestedValue/Array", string(body(`"a":[1]`)), wire.ErrNestedValue, "a"},
		{"ErrAnnotationInvalid", string(body(`"a@odata.type":5,"a":"1"`)), wire.ErrAnnotationInvalid, "a"},
		{"ErrTypeUnknown", string(body(`"a@odata.type":"Edm.Decimal","a":"1"`)), model.ErrTypeUnknown, "a"},
		{"ErrTypeUnknown/Case", string(body(`"a":"1","a@odata.type":"edm.int64"`)), model.ErrTypeUnknown, "a"},
		{"ErrTypeUnknown/Null", string(body(`"a@odata.type":"Edm.Null","a":null`)), model.ErrTypeUnknown, "a"},
		{"ErrDuplicateProperty/Value", string(body(`"a":1,"a":2`)), model.ErrDuplicateProperty, "a"},
		{"ErrDuplicateProperty/Null", string(body(`"a":null,"a":2`)), model.ErrDuplicateProperty, "a"},
		{"ErrDuplicateProperty/Annotation", string(body(`"a@odata.type":"Edm.Int64","a@odata.type":"Edm.Int64","a":"1"`)), model.ErrDuplicateProperty, "a"},
		{"ErrDuplicateProperty/PartitionKey", string(body(`"PartitionKey":"q"`)), model.ErrDuplicateProperty, "PartitionKey"},
		{"ErrDuplicateProperty/RowKeyNull", `{"RowKey":null,"PartitionKey":"p","RowKey":"r"}`, model.ErrDuplicateProperty, "RowKey"},
		{"ErrValueInvalid/PartitionKeyNumber", `{"PartitionKey":1,"RowKey":"r"}`, model.ErrValueInvalid, "PartitionKey"},
		{"ErrValueInvalid/RowKeyObject", `{"PartitionKey":"p","RowKey":{}}`, model.ErrValueInvalid, "RowKey"},
		{"ErrValueInvalid/RowKeyAnnotated", string(body(`"RowKey@odata.type":"Edm.Int32"`)), model.ErrValueInvalid, "RowKey"},
		{"ErrValueInvalid/Int64", string(body(`"a@odata.type":"Edm.Int64","a":"12x"`)), model.ErrValueInvalid, "a"},
		{"ErrValueInvalid/Int64Fraction", string(body(`"a@odata.type":"Edm.Int64","a":1.5`)), model.ErrValueInvalid, "a"},
		{"ErrValueInvalid/Int32Exponent", string(body(`"a@odata.type":"Edm.Int32","a":1e2`)), model.ErrValueInvalid, "a"},
		{"ErrValueInvalid/Int32Bool", string(body(`"a@odata.type":"Edm.Int32","a":true`)), model.ErrValueInvalid, "a"},
		{"ErrValueInvalid/Guid", string(body(`"a@odata.type":"Edm.Guid","a":"4185404a"`)), model.ErrValueInvalid, "a"},
		{"ErrValueInvalid/GuidNumber", string(body(`"a@odata.type":"Edm.Guid","a":1`)), model.ErrValueInvalid, "a"},
		{"ErrValueInvalid/Binary", string(body(`"a@odata.type":"Edm.Binary","a":"not base64!"`)), model.ErrValueInvalid, "a"},
		{"ErrValueInvalid/BooleanNumber", string(body(`"a@odata.type":"Edm.Boolean","a":1`)), model.ErrValueInvalid, "a"},
		{"ErrValueInvalid/BooleanString", string(body(`"a@odata.type":"Edm.Boolean","a":"yes"`)), model.ErrValueInvalid, "a"},
		{"ErrValueInvalid/StringNumber", string(body(`"a@odata.type":"Edm.String","a":1`)), model.ErrValueInvalid, "a"},
		{"ErrValueInvalid/DateTime", string(body(`"a":"yesterday","a@odata.type":"Edm.DateTime"`)), model.ErrValueInvalid, "a"},
		{"ErrValueInvalid/DateTimeBool", string(body(`"a@odata.type":"Edm.DateTime","a":false`)), model.ErrValueInvalid, "a"},
		{"ErrValueInvalid/DoubleString", string(body(`"a@odata.type":"Edm.Double","a":"0x10"`)), model.ErrValueInvalid, "a"},
		{"ErrValueOutOfRange/Int32", string(body(`"a@odata.type":"Edm.Int32","a":"2147483648"`)), model.ErrValueOutOfRange, "a"},
		{"ErrValueOutOfRange/Int64", string(body(`"a@odata.type":"Edm.Int64","a":"9223372036854775808"`)), model.ErrValueOutOfRange, "a"},
		{"ErrValueOutOfRange/Double", string(body(`"a":1e400`)), model.ErrValueOutOfRange, "a"},
		{"ErrValueOutOfRange/DateTime", string(body(`"a@odata.type":"Edm.DateTime","a":"1600-12-31T23:59:59Z"`)), model.ErrValueOutOfRange, "a"},
		{"ErrKeyMissing/PartitionKey", `{"RowKey":"r"}`, model.ErrKeyMissing, "PartitionKey"},
		{"ErrKeyMissing/RowKey", `{"PartitionKey":"p","RowKey":null}`, model.ErrKeyMissing, "RowKey"},
		{"ErrTooManyProperties", string(body(strings.Join(tooMany, ","))), model.ErrTooManyProperties, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := wire.DecodeEntity([]byte(tc.body))
			if !errors.Is(err, tc.want) || e != nil {
				t.Fatalf("got %+v, %v; want %v", e, err, tc.want)
			}
			var fe *model.FieldError
			if errors.As(err, &fe) != (tc.field != "") || fe != nil && fe.Field != tc.field {
				t.Fatalf("error %v (%#v): want field %q", err, fe, tc.field)
			}
		})
	}
}

func TestSyntaxError(t *testing.T) {
	_, err := wire.DecodeEntity([]byte(`{"PartitionKey":"p", "x":tru}`))
	var se *wire.SyntaxError
	if !errors.As(err, &se) || se.Offset != 25 {
		t.Fatalf("err = %v, want a SyntaxError at byte 25", err)
	}
	if got, want := err.Error(), "malformed JSON at byte 25: invalid literal"; got != want {
		t.Fatalf("Error() = %q, want %q", got, want)
	}
}

func TestDecodeEntityBody(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		for _, tc := range []struct {
			body string
			want wire.Keys
		}{
			{`{}`, wire.Keys{}},
			{`{"PartitionKey":"p","a":1}`, wire.Keys{PartitionKey: true}},
			{`{"PartitionKey":null,"RowKey":""}`, wire.Keys{RowKey: true}},
			{`{"RowKey":"r","PartitionKey":"p"}`, wire.Keys{PartitionKey: true, RowKey: true}},
		} {
			e, keys, err := wire.DecodeEntityBody([]byte(tc.body))
			if err != nil || keys != tc.want || e == nil {
				t.Errorf("DecodeEntityBody(%s) = %+v, %+v, %v; want keys %+v", tc.body, e, keys, err, tc.want)
			}
		}
	})
	t.Run("ErrJSONInvalid", func(t *testing.T) {
		if _, _, err := wire.DecodeEntityBody([]byte(`{`)); !errors.Is(err, wire.ErrJSONInvalid) {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestDecodeTableName(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		for body, want := range map[string]string{
			`{"TableName":"People"}`: "People",
			`{"odata.metadata":"x","x":{"y":[1,2,{}]},"TableName":"T\u00e9","z":null}`: "Té",
			`{"TableName":null,"TableName":"a"}`:                                       "a",
		} {
			if got, err := wire.DecodeTableName([]byte(body)); err != nil || got != want {
				t.Errorf("DecodeTableName(%s) = %q, %v; want %q", body, got, err, want)
			}
		}
	})
	for _, tc := range []struct {
		name, body string
		want       error
	}{
		{"ErrTableNameMissing", `{"tablename":"People"}`, wire.ErrTableNameMissing},
		{"ErrTableNameMissing/Null", `{"TableName":null}`, wire.ErrTableNameMissing},
		{"ErrValueInvalid", `{"TableName":5}`, model.ErrValueInvalid},
		{"ErrDuplicateProperty", `{"TableName":"a","TableName":"b"}`, model.ErrDuplicateProperty},
		{"ErrJSONInvalid", `{"TableName":"a"`, wire.ErrJSONInvalid},
		{"ErrJSONInvalid/Other", `{"x":[1 2],"TableName":"a"}`, wire.ErrJSONInvalid},
		{"ErrNotObject", `["a"]`, wire.ErrNotObject},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := wire.DecodeTableName([]byte(tc.body)); !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
		})
	}
}
