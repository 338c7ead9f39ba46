//go:build !js

package native

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
)

// errIndexFlag means an -index value is not table.property.
var errIndexFlag = errors.New("want table.property")

// indexFlag is the -index flag: secondary indexes every account's store keeps, given as
// table.property, the flag repeated or the values separated by commas.
type indexFlag []core.IndexSpec

// String lists the indexes as the flag takes them.
func (f *indexFlag) String() string {
	parts := make([]string, len(*f))
	for i, s := range *f {
		parts[i] = s.Table + "." + s.Property
	}
	return strings.Join(parts, ",")
}

// Set adds the indexes of one -index value, checking each table and property name.
func (f *indexFlag) Set(v string) error {
	for _, item := range strings.Split(v, ",") {
		table, prop, ok := strings.Cut(strings.TrimSpace(item), ".")
		if !ok {
			return fmt.Errorf("index %q: %w", item, errIndexFlag)
		}
		if err := errors.Join(model.ValidateTableName(table), model.ValidatePropertyName(prop)); err != nil {
			return fmt.Errorf("index %q: %w", item, err)
		}
		*f = append(*f, core.IndexSpec{Table: table, Property: prop})
	}
	return nil
}
