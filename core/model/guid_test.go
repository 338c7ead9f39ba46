package model_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tabletopdb/tabletop/core/model"
)

func TestParseGuid(t *testing.T) {
	want := model.Guid{0x0d, 0x39, 0x1d, 0x16, 0x97, 0xf1, 0x4b, 0x9a, 0xbe, 0x68, 0x4c, 0xc8, 0x71, 0xf9, 0x00, 0x01}
	for _, in := range []string{
		"0d391d16-97f1-4b9a-be68-4cc871f90001",
		"0D391D16-97F1-4B9A-BE68-4CC871F90001", // upper case accepted
		"0d391D16-97f1-4B9a-bE68-4cc871F90001",
	} {
		t.Run("OK/"+in, func(t *testing.T) {
			g, err := model.ParseGuid(in)
			if err != nil || g != want {
				t.Fatalf("ParseGuid = %x, %v", g, err)
			}
			if got := g.String(); got != "0d391d16-97f1-4b9a-be68-4cc871f90001" { // lower case out
				t.Fatalf("String = %s", got)
			}
		})
	}
	for _, in := range []string{
		"", "0d391d16-97f1-4b9a-be68-4cc871f9000", "0d391d16-97f1-4b9a-be68-4cc871f900011",
		"0d391d1697f14b9abe684cc871f90001", "{0d391d16-97f1-4b9a-be68-4cc871f90001}",
		"0d391d16_97f1-4b9a-be68-4cc871f90001", "0d391d1-697f1-4b9a-be68-4cc871f90001",
		"0d391d16-97f1-4b9a-be68-4cc871f9000g", "0d391d16-97f1-4b9a-be68-4cc871f9000 ",
		"guid'0d391d16-97f1-4b9a-be68-4cc871f90001'", "0d391d16-97f1-4b9a-be68-4cc871f9-001",
		"+d391d16-97f1-4b9a-be68-4cc871f90001", "0d391d16-97f1-4b9a-be68-4cc871f9000\u00e9"[:36],
	} {
		t.Run("ErrValueInvalid/"+in, func(t *testing.T) {
			_, err := model.ParseGuid(in)
			wantErr(t, err, model.ErrValueInvalid)
		})
	}
}

func TestGuid_String(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		var g model.Guid
		for i := range g {
			g[i] = byte(r.Uint32())
		}
		s := g.String()
		if len(s) != 36 || s != strings.ToLower(s) {
			t.Fatalf("String = %q", s)
		}
		back, err := model.ParseGuid(strings.ToUpper(s))
		if err != nil || back != g {
			t.Fatalf("ParseGuid(%q) = %x, %v; want %x", s, back, err, g)
		}
	}
	if got := (model.Guid{}).String(); got != "00000000-0000-0000-0000-000000000000" {
		t.Fatalf("zero Guid = %s", got)
	}
}
