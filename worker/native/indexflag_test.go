//go:build !js

package native

import (
	"errors"
	"slices"
	"testing"

	"github.com/tabletopdb/tabletop/core/model"
)

func TestIndexFlag_Set(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		var f indexFlag
		for _, v := range []string{"Orders.Price", "Orders.Color, Users.Email"} {
			if err := f.Set(v); err != nil {
				t.Fatal(err)
			}
		}
		want := indexFlag{{Table: "Orders", Property: "Price"}, {Table: "Orders", Property: "Color"}, {Table: "Users", Property: "Email"}}
		if !slices.Equal(f, want) || f.String() != "Orders.Price,Orders.Color,Users.Email" {
			t.Fatalf("%v", f)
		}
	})
	errs := []struct {
		v    string
		want error
	}{
		{"Orders", errIndexFlag},
		{"Orders.RowKey", model.ErrPropertyNameInvalid},
		{"Or.Price", model.ErrTableNameInvalid},
		{"Orders.", model.ErrPropertyNameInvalid},
	}
	for _, c := range errs {
		t.Run("Err/"+c.v, func(t *testing.T) {
			var f indexFlag
			if err := f.Set(c.v); !errors.Is(err, c.want) {
				t.Fatalf("err %v, want %v", err, c.want)
			}
		})
	}
}
