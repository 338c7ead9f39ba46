package azurite_test

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/worker/native/transfer/azurite"
	"github.com/tabletopdb/tabletop/worker/native/transfer/transfertest"
)

// readAll reads every table of account from data.
func readAll(t *testing.T, data, account string) (map[string][]*model.Entity, []string, error) {
	t.Helper()
	out := map[string][]*model.Entity{}
	var order []string
	err := azurite.Read(strings.NewReader(data), account, func(table string, e *model.Entity) error {
		if e == nil {
			order = append(order, table)
			out[table] = []*model.Entity{}
			return nil
		}
		out[table] = append(out[table], e)
		return nil
	})
	return out, order, err
}

// TestRead reads testdata/__azurite_db_table__.json, written by Azurite 3.37.0 (npm)
// after `tabletop import` of transfertest.EdgeEntities as table "edge" and of 250
// entities as "MixedCase" (RowKey r0249 down to r0000 for N 0 to 249, in partition p{N%5}, Guids ending in N).
func TestRead(t *testing.T) {
	data, err := os.ReadFile("testdata/__azurite_db_table__.json")
	if err != nil {
		t.Fatal(err)
	}
	t.Run("OK", func(t *testing.T) {
		got, order, err := readAll(t, string(data), azurite.DefaultAccount)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(order) != "[edge MixedCase]" {
			t.Fatalf("tables %v", order)
		}
		if d := transfertest.Diff(transfertest.EdgeEntities(), got["edge"], false); d != "" {
			t.Fatal(d)
		}
		if len(got["MixedCase"]) != 250 {
			t.Fatalf("%d entities in MixedCase", len(got["MixedCase"]))
		}
		seen := map[int64]bool{}
		for _, e := range got["MixedCase"] {
			g, _ := e.Get("G")
			n, _ := e.Get("N")
			i := n.Int64()
			if seen[i] || e.RowKey != fmt.Sprintf("r%04d", 249-i) || e.PartitionKey != fmt.Sprintf("p%d", i%5) ||
				g.Guid().String() != fmt.Sprintf("0f8fad5b-d9cb-469f-a165-%012d", i) || e.Timestamp == 0 {
				t.Fatalf("entity %+v (N %s, G %s)", e, n.Text(), g.Text())
			}
			seen[i] = true
		}
	})
	t.Run("OK/OtherAccount", func(t *testing.T) {
		got, order, err := readAll(t, string(data), "someoneelse")
		if err != nil || len(got) != 0 || len(order) != 0 {
			t.Fatalf("got %v, %v", got, err)
		}
	})
}

func TestRead_documents(t *testing.T) {
	const doc = `{"collections":[{"name":"$TABLES_COLLECTION$","data":[{"account":"a","table":"T1"}]},` +
		`{"name":"a$T1","data":[{"PartitionKey":"p","RowKey":"r","properties":{"PartitionKey":"p","RowKey":"r",%s},` +
		`"lastModifiedTime":"2021-08-31T15:40:49.6724407Z","meta":{"revision":0},"$loki":1}]}],"databaseVersion":1.5}`
	t.Run("OK/GuidAsText", func(t *testing.T) { // as older Azurite versions stored it
		got, _, err := readAll(t, fmt.Sprintf(doc, `"G@odata.type":"Edm.Guid","G":"0f8fad5b-d9cb-469f-a165-70867728950e"`), "a")
		if err != nil {
			t.Fatal(err)
		}
		e := got["T1"][0]
		if g, _ := e.Get("G"); g.Guid().String() != "0f8fad5b-d9cb-469f-a165-70867728950e" {
			t.Fatalf("G = %v", g.Text())
		}
		if e.Timestamp.String() != "2021-08-31T15:40:49.6724407Z" {
			t.Fatalf("Timestamp from lastModifiedTime: %s", e.Timestamp)
		}
	})
	t.Run("ErrValueInvalid", func(t *testing.T) {
		_, _, err := readAll(t, fmt.Sprintf(doc, `"N@odata.type":"Edm.Int64","N":"x"`), "a")
		if !errors.Is(err, model.ErrValueInvalid) || !strings.Contains(err.Error(), "table T1 entity 1: N") {
			t.Fatalf("err = %v", err)
		}
	})
	for _, data := range []string{`{"filename":"x"}`, `{"collections":[{"data":[],"name":"a$T1"}]}`, `{"collections":{}}`} {
		t.Run("ErrLayout", func(t *testing.T) {
			_, _, err := readAll(t, data, "a")
			if !errors.Is(err, azurite.ErrLayout) {
				t.Fatalf("err = %v", err)
			}
		})
	}
}
