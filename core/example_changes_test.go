package core_test

import (
	"fmt"
	"time"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
)

// Read a table's change feed, then resume after the last change seen: a write made
// meanwhile comes next, and a deletion comes as the record of its keys.
func ExampleTx_Changes() {
	fixed := time.Date(2021, 8, 31, 15, 40, 49, 0, time.UTC)
	s, err := core.Open(core.Options{Now: func() time.Time { return fixed }, DeletionRetention: time.Hour})
	if err != nil {
		panic(err)
	}
	defer s.Close()
	s.CreateTable("Notes")
	for _, rk := range []string{"b", "a"} {
		s.Apply("Notes", core.Op{Kind: core.OpInsert, Entity: &model.Entity{PartitionKey: "p", RowKey: rk}})
	}

	pull := func(since core.Checkpoint) core.Checkpoint {
		err := s.View(func(tx *core.Tx) error {
			return tx.Changes("Notes", since, func(c core.Change) bool {
				fmt.Println(c.Timestamp, c.PartitionKey, c.RowKey, "deleted:", c.Deleted())
				since = c.Checkpoint
				return true
			})
		})
		if err != nil {
			panic(err)
		}
		return since
	}
	cp := pull(core.Checkpoint{})
	s.Apply("Notes", core.Op{Kind: core.OpDelete, Entity: &model.Entity{PartitionKey: "p", RowKey: "b"}})
	fmt.Println("resume:")
	pull(cp)
	// Output:
	// 2021-08-31T15:40:49.0000000Z p b deleted: false
	// 2021-08-31T15:40:49.0000001Z p a deleted: false
	// resume:
	// 2021-08-31T15:40:49.0000002Z p b deleted: true
}
