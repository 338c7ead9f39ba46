package core

import (
	"fmt"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
	"testing"
)

// imageStore opens an in-memory store with opts and a table "Img" of n entities in three
// partitions, closed when t ends: the table the point map and scan image tests read.
func imageStore(t *testing.T, opts Options, n int) *Store {
	t.Helper()
	s := openStore(t, opts)
	if _, err := s.CreateTable("Img"); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if _, err := s.Apply("Img", Op{Kind: OpInsert, Entity: imageEntity(i, "v")}); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// imageEntity is entity i of the image tests, its property V set to v.
func imageEntity(i int, v string) *model.Entity {
	return &model.Entity{PartitionKey: fmt.Sprintf("p%d", i%3), RowKey: fmt.Sprintf("%04d", i),
		Properties: []model.Property{{Name: "N", Value: model.Int32Value(int32(i))}, {Name: "V", Value: model.StringValue(v)}}}
}

// imageReplica opens a store whose table "Img" holds 40 entities and a replica of it that
// applies its change sets, both closed when t ends, and returns the replica and write,
// which applies op to the table and its change set to the replica.
func imageReplica(t *testing.T) (replica *Store, write func(op Op)) {
	t.Helper()
	box := &captureBackend{}
	a := openStore(t, Options{Backend: box})
	b := openStore(t, Options{})
	write = func(op Op) {
		t.Helper()
		if _, err := a.Apply("Img", op); err != nil {
			t.Fatal(err)
		}
		for _, cs := range box.log {
			if err := b.ApplyChangeSet(cs); err != nil {
				t.Fatal(err)
			}
		}
		box.log = nil
	}
	if _, err := a.CreateTable("Img"); err != nil {
		t.Fatal(err)
	}
	for i := range 40 {
		write(Op{Kind: OpInsert, Entity: imageEntity(i, "a")})
	}
	return b, write
}

// openStore opens a store with opts, closed when t ends.
func openStore(t *testing.T, opts Options) *Store {
	t.Helper()
	s, err := Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// hasDerived reports whether table id has a structure in c.
// It also checks the count of tables with a structure (derived.built), which lets a read
// of a store with none skip the lock, against the tables: every test that asks checks it.
func hasDerived[V sized](c *derived[V], id string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	var none V
	built := 0
	for _, e := range c.tables {
		if e.v != none {
			built++
		}
	}
	if got := int(c.built.Load()); got != built {
		panic(fmt.Sprintf("derived.built is %d, but %d tables have a structure", got, built))
	}
	e := c.tables[id]
	return e != nil && e.v != none
}

// hasPoints reports whether table id of s has a point map.
func hasPoints(s *Store, id string) bool {
	return s.points != nil && hasDerived(&s.points.derived, id)
}

// hasImage reports whether the store holds an image of table.
func hasImage(s *Store, table string) bool {
	return s.images != nil && hasDerived(&s.images.derived, stored.TableID(table))
}
