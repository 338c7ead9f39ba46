package query

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
)

// fixture returns an entity with a property of every type.
func fixture(t testing.TB) *model.Entity {
	t.Helper()
	ts, err := model.ParseDateTime("2021-08-31T15:40:49.6724407Z")
	if err != nil {
		t.Fatal(err)
	}
	born, err := model.ParseDateTime("1990-01-02T03:04:05.1234567Z")
	if err != nil {
		t.Fatal(err)
	}
	id, err := model.ParseGuid("0d391d16-97f1-4b9a-be68-4cc871f90001")
	if err != nil {
		t.Fatal(err)
	}
	e := &model.Entity{PartitionKey: "pk1", RowKey: "rk1", Timestamp: ts}
	e.Set("Name", model.StringValue("Alice"))
	e.Set("Quote", model.StringValue("it's"))
	e.Set("Unicode", model.StringValue("é"))
	e.Set("Empty", model.StringValue(""))
	e.Set("Age", model.Int32Value(30))
	e.Set("Big", model.Int64Value(1<<53+1))
	e.Set("Score", model.DoubleValue(2.5))
	e.Set("NaN", model.DoubleValue(math.NaN()))
	e.Set("Active", model.BoolValue(true))
	e.Set("Born", model.DateTimeValue(born))
	e.Set("Id", model.GuidValue(id))
	e.Set("Blob", model.BinaryValue([]byte{0x0a, 0xff}))
	e.Set("TableName", model.StringValue("custom"))
	return e
}

func TestFilter_Matches(t *testing.T) {
	e := fixture(t)
	tests := []struct {
		filter string
		want   bool
	}{
		// every operator on strings, ordinal order
		{"Name eq 'Alice'", true}, {"Name ne 'Alice'", false}, {"Name ne 'Bob'", true},
		{"Name gt 'Al'", true}, {"Name gt 'Alice'", false}, {"Name ge 'Alice'", true},
		{"Name lt 'Alicf'", true}, {"Name lt 'Alice'", false}, {"Name le 'Alice'", true}, {"Name le 'Alicd'", false},
		{"Name lt 'alice'", true}, {"Unicode gt 'z'", true}, {"Unicode lt 'ê'", true},
		{"Quote eq 'it''s'", true}, {"Empty eq ''", true}, {"Empty lt 'a'", true},
		// Int32
		{"Age eq 30", true}, {"Age ne 30", false}, {"Age gt 29", true}, {"Age ge 31", false},
		{"Age lt 31", true}, {"Age le 29", false}, {"Age gt -2147483648", true},
		// Int64, and numbers across types by value
		{"Big eq 9007199254740993L", true}, {"Big eq 9007199254740992L", false},
		{"Big eq 9007199254740992.0", false}, {"Big gt 9007199254740992.0", true},
		{"Big gt 5", true}, {"Age eq 30L", true}, {"Age eq 30.0", true}, {"Age lt 30.5", true},
		{"Age gt 29.9", true}, {"Age lt -1e300", false}, {"Big lt 1e300", true},
		// Double
		{"Score eq 2.5", true}, {"Score eq 25e-1", true}, {"Score eq 0.25E1", true}, {"Score gt 2", true},
		{"Score lt 3L", true}, {"Score ge 2.5", true}, {"Score le 2.4999", false},
		{"NaN eq 1.0", false}, {"NaN ne 1.0", true}, {"NaN gt 1.0", false}, {"NaN lt 1", false}, {"NaN ne 1", true},
		// Boolean
		{"Active eq true", true}, {"Active ne true", false}, {"Active eq false", false}, {"Active ne false", true},
		// DateTime at 100 ns
		{"Born eq datetime'1990-01-02T03:04:05.1234567Z'", true},
		{"Born eq datetime'1990-01-02T03:04:05.1234568Z'", false},
		{"Born lt datetime'1990-01-02T03:04:05.1234568Z'", true},
		{"Born gt datetime'1990-01-02T03:04:05.1234566Z'", true},
		{"Born eq datetime'1990-01-02T04:04:05.1234567+01:00'", true},
		{"Born eq datetime'1990-01-02T03:04:05.1234567'", true},
		{"Born eq datetime'1990-01-02T03:04:05.123Z'", false},
		{"Born gt datetime'1990-01-02T03:04:05.123Z'", true},
		{"Born gt datetime'0001-01-01T00:00:00Z'", true},
		{"Born ge DateTime'1990-01-02T03:04:05Z'", true},
		{"Timestamp eq datetime'2021-08-31T15:40:49.6724407Z'", true},
		{"Timestamp gt datetime'2021-08-31T15:40:49.6724406Z'", true},
		{"Timestamp lt datetime'2021-08-31T15:40:49.6724407Z'", false},
		// Guid
		{"Id eq guid'0d391d16-97f1-4b9a-be68-4cc871f90001'", true},
		{"Id eq guid'0D391D16-97F1-4B9A-BE68-4CC871F90001'", true},
		{"Id ne guid'0d391d16-97f1-4b9a-be68-4cc871f90002'", true},
		{"Id lt guid'0d391d16-97f1-4b9a-be68-4cc871f90002'", true},
		// Binary
		{"Blob eq X'0aff'", true}, {"Blob eq binary'0AFF'", true}, {"Blob eq x'0aff'", true},
		{"Blob gt X'0a'", true}, {"Blob lt X'0b'", true}, {"Blob ne X''", true},
		// type mismatches are false for every operator
		{"Name eq 5", false}, {"Name ne 5", false}, {"Age eq '30'", false}, {"Age ne '30'", false},
		{"Big eq '9007199254740993'", false}, {"Active eq 1", false}, {"Active ne 1", false},
		{"Born eq '1990-01-02T03:04:05.1234567Z'", false},
		{"Id eq '0d391d16-97f1-4b9a-be68-4cc871f90001'", false},
		{"Id ne '0d391d16-97f1-4b9a-be68-4cc871f90001'", false},
		{"Name eq guid'0d391d16-97f1-4b9a-be68-4cc871f90001'", false},
		{"Blob eq '0aff'", false}, {"Score eq true", false}, {"Timestamp gt 5", false},
		{"PartitionKey eq 1", false}, {"PartitionKey ne 1", false},
		// missing properties are false, ne included; not of them is true
		{"Missing eq 'x'", false}, {"Missing ne 'x'", false}, {"not (Missing eq 'x')", true},
		{"not Missing ne 'x'", true}, {"Missing lt 5 or Age eq 30", true},
		// system properties, constants on the left
		{"PartitionKey eq 'pk1'", true}, {"RowKey ge 'rk'", true}, {"RowKey gt 'rk1'", false},
		{"'pk1' eq PartitionKey", true}, {"'pk2' gt PartitionKey", true}, {"'pk2' lt PartitionKey", false},
		{"30 lt Age", false}, {"29 lt Age", true}, {"31 ge Age", true}, {"30 ne Age", false},
		{"datetime'2000-01-01T00:00:00Z' gt Born", true}, {"TableName eq 'custom'", true},
		// precedence, parentheses and not
		{"Name eq 'x' and Age eq 30 or Active eq true", true},
		{"Name eq 'x' and (Age eq 30 or Active eq true)", false},
		{"Age eq 30 or Name eq 'x' and Active eq false", true},
		{"(Age eq 30 or Name eq 'x') and Active eq false", false},
		{"not Age eq 30", false}, {"not Age eq 30 or Active eq true", true},
		{"not (Age eq 30 or Active eq true)", false}, {"not not Age eq 30", true},
		{"not (Age eq 30 and Active eq false)", true}, {"not(Age eq 31)", true},
		{"Active", true}, {"not Active", false}, {"Active and Age eq 30", true}, {"(Active)", true},
		{"Name", false}, {"not Name", true}, {"Missing or Active", true},
		// bare boolean literals: always or never
		{"true", true}, {"false", false}, {"not false", true}, {"(true)", true}, {"not (true)", false},
		{"true and Age eq 30", true}, {"false or Age eq 30", true}, {"false and Age eq 30", false},
		{"(true and RowKey eq 'rk1') and ((false or PartitionKey eq 'pk1'))", true},
		{"(true and RowKey eq 'rk1') and ((false or PartitionKey eq 'x'))", false},
		{"((((Age eq 30))))", true}, {"  Age   eq\t30  ", true}, {"Age eq 30 and Active eq true and Score gt 1.0", true},
	}
	for _, tt := range tests {
		t.Run(tt.filter, func(t *testing.T) {
			f, err := ParseFilter(tt.filter)
			if err != nil {
				t.Fatalf("ParseFilter: %v", err)
			}
			if got := f.Matches(e); got != tt.want {
				t.Fatalf("Matches = %v, want %v (parsed as %s)", got, tt.want, f)
			}
			g, err := ParseFilter(f.String())
			if err != nil {
				t.Fatalf("reparse %q: %v", f.String(), err)
			}
			if got := g.Matches(e); got != tt.want {
				t.Fatalf("reparsed %q: Matches = %v, want %v", f.String(), got, tt.want)
			}
			rec := stored.NewRecord(e)
			if got := f.MatchesRecord(&rec); got != tt.want {
				t.Fatalf("MatchesRecord (on the stored bytes) = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestFilter_MatchesNil(t *testing.T) {
	f, err := ParseFilter("   ")
	if err != nil || f != nil {
		t.Fatalf("ParseFilter(blank) = %v, %v; want nil, nil", f, err)
	}
	if !f.Matches(fixture(t)) || !f.MatchesTable(&core.Table{Name: "abc"}) {
		t.Fatal("the nil filter must match everything")
	}
}

func TestFilter_MatchesTable(t *testing.T) {
	tbl := &core.Table{Name: "Orders2024"}
	tests := []struct {
		filter string
		want   bool
	}{
		{"TableName eq 'Orders2024'", true}, {"TableName eq 'orders2024'", false},
		{"TableName ge 'Orders' and TableName lt 'Ordert'", true}, {"TableName gt 'P'", false},
		{"PartitionKey eq 'x'", false}, {"not (Name eq 'x')", true}, {"TableName ne 5", false},
	}
	for _, tt := range tests {
		t.Run(tt.filter, func(t *testing.T) {
			f, err := ParseFilter(tt.filter)
			if err != nil {
				t.Fatal(err)
			}
			if got := f.MatchesTable(tbl); got != tt.want {
				t.Fatalf("MatchesTable = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestParseFilter(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		tests := []struct{ in, want string }{
			{"a eq 1 or b eq 2 and c eq 3", "(a eq 1 or (b eq 2 and c eq 3))"},
			{"a eq 1 and b eq 2 or c eq 3", "((a eq 1 and b eq 2) or c eq 3)"},
			{"a eq 1 and b eq 2 and c eq 3", "((a eq 1 and b eq 2) and c eq 3)"},
			{"not a eq 1 and b eq 2", "(not a eq 1 and b eq 2)"},
			{"not (a eq 1 and b eq 2)", "not (a eq 1 and b eq 2)"},
			{"1 lt a", "a gt 1"}, {"1 le a", "a ge 1"}, {"'x' gt a", "a lt 'x'"}, {"'x' ge a", "a le 'x'"},
			{"'x' eq a", "a eq 'x'"}, {"'x' ne a", "a ne 'x'"},
			{"d eq 1.0", "d eq 1.0"}, {"d eq 1e3", "d eq 1000.0"}, {"d eq -2.5E-3", "d eq -0.0025"},
			{"d eq 1e-300", "d eq 1e-300"}, {"x eq 5L", "x eq 5L"}, {"x eq 5l", "x eq 5L"},
			{"x eq -2147483648", "x eq -2147483648"}, {"x eq 2147483647", "x eq 2147483647"},
			{"x eq -9223372036854775808L", "x eq -9223372036854775808L"}, {"x eq 007", "x eq 7"},
			{"s eq 'it''s'", "s eq 'it''s'"}, {"s eq ''''", "s eq ''''"}, {"s eq 'a b'", "s eq 'a b'"},
			{"t eq datetime'2021-08-31T15:40:49Z'", "t eq datetime'2021-08-31T15:40:49.0000000Z'"},
			{"t eq datetime'2021-08-31T15:40:49.1Z'", "t eq datetime'2021-08-31T15:40:49.1000000Z'"},
			{"t eq datetime'2021-08-31T17:40:49+02:00'", "t eq datetime'2021-08-31T15:40:49.0000000Z'"},
			{"g eq guid'0D391D16-97F1-4B9A-BE68-4CC871F90001'", "g eq guid'0d391d16-97f1-4b9a-be68-4cc871f90001'"},
			{"b eq X'0AfF'", "b eq X'0aff'"}, {"b eq binary''", "b eq X''"},
			{"b eq true", "b eq true"}, {"false ne b", "b ne false"},
			{"Prénom eq 'x'", "Prénom eq 'x'"}, {"_x1 eq 1", "_x1 eq 1"},
			{"Active", "Active eq true"}, {"not Active or (Done)", "(not Active eq true or Done eq true)"},
		}
		for _, tt := range tests {
			f, err := ParseFilter(tt.in)
			if err != nil {
				t.Fatalf("ParseFilter(%q): %v", tt.in, err)
			}
			if got := f.String(); got != tt.want {
				t.Errorf("ParseFilter(%q) = %s, want %s", tt.in, got, tt.want)
			}
		}
	})
	t.Run("MaxComparisons", func(t *testing.T) {
		f, err := ParseFilter(comparisons(MaxComparisons))
		if err != nil {
			t.Fatalf("%d comparisons: %v", MaxComparisons, err)
		}
		if f.Comparisons() != MaxComparisons {
			t.Fatalf("Comparisons = %d", f.Comparisons())
		}
	})
}

// comparisons returns a filter of n comparisons joined by "and".
func comparisons(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = "Age ne 1"
	}
	return strings.Join(parts, " and ")
}

func TestParseFilter_Errors(t *testing.T) {
	tests := []struct {
		name, in string
		err      error
		pos      int
	}{
		{"ErrFilterSyntax/end", "Age eq", ErrFilterSyntax, 6},
		{"ErrFilterSyntax/trailing and", "Age eq 30 and", ErrFilterSyntax, 13},
		{"ErrFilterSyntax/open paren", "(Age eq 30", ErrFilterSyntax, 10},
		{"ErrFilterSyntax/close paren", "Age eq 30)", ErrFilterSyntax, 9},
		{"ErrFilterSyntax/empty parens", "()", ErrFilterSyntax, 1},
		{"ErrFilterSyntax/operator", "Age eqq 30", ErrFilterSyntax, 4},
		{"ErrFilterSyntax/uppercase operator", "Age EQ 30", ErrFilterSyntax, 4},
		{"ErrFilterSyntax/missing operator", "Age 30", ErrFilterSyntax, 4},
		{"ErrFilterSyntax/two properties", "Age eq Name", ErrFilterSyntax, 7},
		{"ErrFilterSyntax/two constants", "1 eq 1", ErrFilterSyntax, 0},
		{"ErrFilterSyntax/keyword as property", "and eq 1", ErrFilterSyntax, 0},
		{"ErrFilterSyntax/bare literal", "'text'", ErrFilterSyntax, 6},
		{"ErrFilterSyntax/bare string", "'x' and Active", ErrFilterSyntax, 4},
		{"ErrFilterSyntax/bare not", "not", ErrFilterSyntax, 3},
		{"ErrFilterSyntax/junk after", "Age eq 30 Name eq 'x'", ErrFilterSyntax, 10},
		{"ErrFilterSyntax/character", "Name eq 'é' or #", ErrFilterSyntax, 15},
		{"ErrFilterSyntax/unterminated", "Name eq 'abc", ErrFilterSyntax, 8},
		{"ErrFilterSyntax/unterminated quote", "Name eq 'ab''", ErrFilterSyntax, 8},
		{"ErrFilterSyntax/unknown prefix", "Name eq foo'x'", ErrFilterSyntax, 8},
		{"ErrFilterSyntax/number suffix", "Age eq 12abc", ErrFilterSyntax, 7},
		{"ErrFilterSyntax/number dot", "Age eq 1.", ErrFilterSyntax, 7},
		{"ErrFilterSyntax/number exponent", "Age eq 1e", ErrFilterSyntax, 7},
		{"ErrFilterSyntax/minus", "Age eq -", ErrFilterSyntax, 7},
		{"ErrFilterSyntax/Int64 fraction", "Age eq 1.5L", ErrFilterSyntax, 7},
		{"ErrFilterSyntax/datetime", "Born eq datetime'2021-13-01T00:00:00Z'", ErrFilterSyntax, 17},
		{"ErrFilterSyntax/datetime date only", "Born eq datetime'2021-01-01'", ErrFilterSyntax, 17},
		{"ErrFilterSyntax/guid", "Id eq guid'xyz'", ErrFilterSyntax, 11},
		{"ErrFilterSyntax/binary odd", "Blob eq X'abc'", ErrFilterSyntax, 10},
		{"ErrFilterSyntax/binary digit", "Blob eq binary'zz'", ErrFilterSyntax, 15},
		{"ErrFilterSyntax/boolean order", "Active gt true", ErrFilterSyntax, 7},
		{"ErrFilterSyntax/boolean order left", "true le Active", ErrFilterSyntax, 5},
		{"ErrFilterSyntax/nesting", strings.Repeat("(", 100) + "a eq 1" + strings.Repeat(")", 100), ErrFilterSyntax, 64},
		{"ErrFilterSyntax/not nesting", strings.Repeat("not ", 100) + "a eq 1", ErrFilterSyntax, 256},
		{"ErrLiteralOutOfRange/Int32", "Age eq 3000000000", ErrLiteralOutOfRange, 7},
		{"ErrLiteralOutOfRange/Int32 low", "Age eq -2147483649", ErrLiteralOutOfRange, 7},
		{"ErrLiteralOutOfRange/Int64", "Age eq 9223372036854775808L", ErrLiteralOutOfRange, 7},
		{"ErrLiteralOutOfRange/Double", "Age eq 1e999", ErrLiteralOutOfRange, 7},
		{"ErrLiteralOutOfRange/datetime", "Born eq datetime'0000-01-01T00:00:00Z'", ErrLiteralOutOfRange, 8},
		{"ErrLiteralOutOfRange/datetime offset", "Born eq datetime'9999-12-31T23:00:00-02:00'", ErrLiteralOutOfRange, 8},
		{"ErrTooManyComparisons", comparisons(MaxComparisons + 1), ErrTooManyComparisons, 15 * len("Age ne 1 and ")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := ParseFilter(tt.in)
			if !errors.Is(err, tt.err) {
				t.Fatalf("ParseFilter(%q) = %v, %v; want %v", tt.in, f, err, tt.err)
			}
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %T is not a *SyntaxError", err)
			}
			if se.Pos != tt.pos {
				t.Fatalf("Pos = %d, want %d (%v)", se.Pos, tt.pos, err)
			}
			if want := "at position "; !strings.Contains(err.Error(), want) {
				t.Fatalf("message %q does not give the position", err)
			}
		})
	}
}
