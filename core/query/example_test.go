package query_test

import (
	"fmt"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/query"
)

func ExampleParseFilter() {
	f, err := query.ParseFilter("Age ge 18 and not (Name eq 'Bob') or 'x' lt PartitionKey")
	if err != nil {
		panic(err)
	}
	e := &model.Entity{PartitionKey: "a", RowKey: "1"}
	e.Set("Age", model.Int64Value(42))
	e.Set("Name", model.StringValue("Alice"))
	fmt.Println(f)
	fmt.Println(f.Matches(e))

	_, err = query.ParseFilter("Age ge 3000000000")
	fmt.Println(err)
	// Output:
	// ((Age ge 18 and not Name eq 'Bob') or PartitionKey gt 'x')
	// true
	// filter literal is out of range: Edm.Int32 literal 3000000000 is out of range at position 7
}

func ExampleEntities() {
	s, _ := core.Open(core.Options{})
	defer s.Close()
	s.Update(func(tx *core.Tx) error {
		tx.CreateTable("people")
		for _, k := range [][2]string{{"eu", "ann"}, {"eu", "bob"}, {"eu", "cat"}, {"us", "dan"}} {
			tx.Apply("people", core.Op{Kind: core.OpInsert, Entity: &model.Entity{PartitionKey: k[0], RowKey: k[1]}})
		}
		return nil
	})
	req := query.Request{Filter: "PartitionKey eq 'eu'", Top: 2}
	for {
		var page *query.Page
		s.View(func(tx *core.Tx) (err error) {
			page, err = query.Entities(tx, "people", req)
			return err
		})
		for _, e := range page.Entities {
			fmt.Print(e.PartitionKey, "/", e.RowKey, " ")
		}
		fmt.Println("| more:", page.NextPartitionKey != "")
		if page.NextPartitionKey == "" {
			break
		}
		req.NextPartitionKey, req.NextRowKey = page.NextPartitionKey, page.NextRowKey
	}
	// Output:
	// eu/ann eu/bob | more: true
	// eu/cat | more: false
}
