package core_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
)

// The store's clock is frozen so that the output is the same on every run; Timestamps
// still strictly increase, by 100 ns per write.
func exampleStore() *core.Store {
	fixed := time.Date(2021, 8, 31, 15, 40, 49, 672440700, time.UTC)
	s, err := core.Open(core.Options{Now: func() time.Time { return fixed }})
	if err != nil {
		panic(err)
	}
	return s
}

// Open a store, create a table, insert entities, read one back and scan a partition.
func Example() {
	s := exampleStore()
	defer s.Close()

	if _, err := s.CreateTable("People"); err != nil {
		panic(err)
	}
	for i, name := range []string{"Ada", "Grace", "Alan"} {
		e := &model.Entity{PartitionKey: "staff", RowKey: name}
		e.Set("Age", model.Int32Value(int32(36+i)))
		e.Set("Joined", model.DateTimeValue(model.MinDateTime))
		if _, err := s.Apply("People", core.Op{Kind: core.OpInsert, Entity: e}); err != nil {
			panic(err)
		}
	}

	e, err := s.Get("people", "staff", "Grace") // table names are case-insensitive
	if err != nil {
		panic(err)
	}
	age, _ := e.Get("Age")
	fmt.Println(e.RowKey, age.Type(), age.Text(), e.Timestamp)
	fmt.Println(e.ETag())

	err = s.View(func(tx *core.Tx) error {
		return tx.Scan("People", stored.PartitionRange("staff"), func(e *model.Entity) bool {
			age, _ := e.Get("Age")
			fmt.Println(e.PartitionKey, e.RowKey, age.Int32())
			return true
		})
	})
	if err != nil {
		panic(err)
	}
	// Output:
	// Grace Edm.Int32 37 2021-08-31T15:40:49.6724408Z
	// W/"datetime'2021-08-31T15%3A40%3A49.6724408Z'"
	// staff Ada 36
	// staff Alan 38
	// staff Grace 37
}

// Rule violations come back as sentinel errors.
func ExampleStore_CreateTable() {
	s := exampleStore()
	defer s.Close()

	t, _ := s.CreateTable("Orders")
	_, err := s.CreateTable("ORDERS")
	fmt.Println(t.Name, errors.Is(err, core.ErrTableExists))
	_, err = s.CreateTable("Tables")
	fmt.Println(errors.Is(err, model.ErrTableNameReserved))
	_, err = s.CreateTable("2fast")
	fmt.Println(errors.Is(err, model.ErrTableNameInvalid))
	// Output:
	// Orders true
	// true
	// true
}

// An entity group transaction applies every operation or none; a failure names the index
// of the operation that failed.
func ExampleStore_ApplyBatch() {
	s := exampleStore()
	defer s.Close()
	if _, err := s.CreateTable("Orders"); err != nil {
		panic(err)
	}

	ops := []core.Op{
		{Kind: core.OpInsert, Entity: &model.Entity{PartitionKey: "2021", RowKey: "1"}},
		{Kind: core.OpInsert, Entity: &model.Entity{PartitionKey: "2021", RowKey: "2"}},
		{Kind: core.OpReplace, Entity: &model.Entity{PartitionKey: "2021", RowKey: "3"}}, // not there
	}
	_, err := s.ApplyBatch("Orders", ops)
	var oe *core.OpError
	fmt.Println(errors.As(err, &oe), oe.Index, errors.Is(err, core.ErrEntityNotFound))
	_, err = s.Get("Orders", "2021", "1")
	fmt.Println(errors.Is(err, core.ErrEntityNotFound))

	out, err := s.ApplyBatch("Orders", ops[:2])
	fmt.Println(len(out), err, out[0].Timestamp == out[1].Timestamp)
	// Output:
	// true 2 true
	// true
	// 2 <nil> true
}

// Values parse from and format to their Azure wire text.
func ExampleParseValue() {
	for _, in := range []struct {
		t    model.Type
		text string
	}{
		{model.TypeInt64, "9223372036854775807"},
		{model.TypeDouble, "5"},
		{model.TypeDouble, "-Infinity"},
		{model.TypeGuid, "0D391D16-97F1-4B9A-BE68-4CC871F90001"},
		{model.TypeDateTime, "2021-08-31T17:40:49.6724407+02:00"},
		{model.TypeBinary, "QXp1cmU="},
	} {
		v, err := model.ParseValue(in.t, in.text)
		fmt.Println(v.Type(), v.Text(), err)
	}
	_, err := model.ParseValue(model.TypeDateTime, "1600-12-31T23:59:59.9999999Z")
	fmt.Println(errors.Is(err, model.ErrValueOutOfRange))
	// Output:
	// Edm.Int64 9223372036854775807 <nil>
	// Edm.Double 5.0 <nil>
	// Edm.Double -Infinity <nil>
	// Edm.Guid 0d391d16-97f1-4b9a-be68-4cc871f90001 <nil>
	// Edm.DateTime 2021-08-31T15:40:49.6724407Z <nil>
	// Edm.Binary QXp1cmU= <nil>
	// true
}

// An entity's size counts as Azure does: UTF-16 for text, fixed sizes for the rest.
func ExampleEntity_Size() {
	e := &model.Entity{PartitionKey: "p", RowKey: "r"}
	e.Set("Name", model.StringValue("Ada"))
	e.Set("Age", model.Int32Value(36))
	// 4 + 2×2 + (8 + 2×4 + 2×3+4) + (8 + 2×3 + 4)
	fmt.Println(e.Size(), e.Validate())
	// Output: 52 <nil>
}
