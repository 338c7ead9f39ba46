package azurite_test

import (
	"bytes"
	"testing"

	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/worker/native/transfer/azurite"
)

// FuzzRead: any input is read or refused with an error, never a panic, and every entity
// read belongs to a table that was started.
func FuzzRead(f *testing.F) {
	f.Add([]byte(`{"collections":[{"name":"$TABLES_COLLECTION$","data":[{"account":"a","table":"T"}]},{"name":"a$T","data":[{"properties":{"PartitionKey":"p","RowKey":"r","G@odata.type":"Edm.Guid","G":"MGY4ZmFkNWItZDljYi00NjlmLWExNjUtNzA4Njc3Mjg5NTBl"}}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		started := ""
		azurite.Read(bytes.NewReader(data), "a", func(table string, e *model.Entity) error {
			if e == nil {
				started = table
			} else if table != started {
				t.Fatalf("entity of %q in table %q", table, started)
			}
			return nil
		})
	})
}
