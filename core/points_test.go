package core

import (
	"errors"
	"fmt"
	"github.com/tabletopdb/tabletop/core/model"
	"sync"
	"testing"
)

// readPoints makes n point reads of table Img's entities 0 … n-1 (of 60), each checked
// against the tree's answer (a write transaction reads no map), and fails on a difference.
func readPoints(t *testing.T, s *Store, n int) {
	t.Helper()
	for i := range n {
		e := imageEntity(i%60, "")
		got, err := s.Get("Img", e.PartitionKey, e.RowKey)
		var want *model.Entity
		var werr error
		if uerr := s.Update(func(tx *Tx) error { want, werr = tx.Get("Img", e.PartitionKey, e.RowKey); return nil }); uerr != nil {
			t.Fatal(uerr)
		}
		if !errors.Is(err, werr) || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("read %d: %v, %v; the tree has %v, %v", i, got, err, want, werr)
		}
	}
}

func TestTx_Get_Points(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		s := imageStore(t, Options{}, 50) // entities 50 … 59 are missing
		readPoints(t, s, pointAfter-1)
		if hasPoints(s, "img") {
			t.Fatal("a map before pointAfter reads")
		}
		readPoints(t, s, 2*pointAfter)
		if !hasPoints(s, "img") {
			t.Fatal("no map after pointAfter reads with no write")
		}
		rec, err := s.GetRecord("IMG", "p1", "0001")
		if err != nil || rec.PartitionKey != "p1" || rec.RowKey != "0001" {
			t.Fatalf("GetRecord = %+v, %v", rec, err)
		}
		// From a map, a read takes no transaction: nothing is allocated.
		if n := testing.AllocsPerRun(100, func() { s.GetRecord("Img", "p1", "0001") }); n != 0 {
			t.Fatalf("GetRecord from a map: %v allocations, want 0", n)
		}
	})
	t.Run("ErrStoreClosed", func(t *testing.T) {
		s := imageStore(t, Options{}, 50)
		readPoints(t, s, 2*pointAfter)
		s.Close()
		if _, err := s.GetRecord("Img", "p1", "0001"); !errors.Is(err, ErrStoreClosed) {
			t.Fatalf("GetRecord after Close: %v", err)
		}
	})
	t.Run("Write", func(t *testing.T) {
		s := imageStore(t, Options{}, 50)
		readPoints(t, s, pointAfter)
		// Each write patches the map at its commit, and must be seen by the next read: a
		// map that missed it would answer the entity as it was (readPoints compares every
		// read with the tree).
		for i, op := range []Op{
			{Kind: OpReplace, Entity: imageEntity(1, "x"), IfMatch: "*"},
			{Kind: OpDelete, Entity: imageEntity(2, ""), IfMatch: "*"},
			{Kind: OpInsert, Entity: imageEntity(55, "new")},
		} {
			if _, err := s.Apply("Img", op); err != nil {
				t.Fatal(err)
			}
			if !hasPoints(s, "img") {
				t.Fatalf("write %d dropped the map", i)
			}
			readPoints(t, s, 60)
		}
		if e, err := s.Get("Img", "p1", "0001"); err != nil || fmt.Sprint(e.Properties[1].Value) != fmt.Sprint(model.StringValue("x")) {
			t.Fatalf("Get after replace = %v, %v", e, err)
		}
	})
	t.Run("ErrTableNotFound", func(t *testing.T) {
		s := imageStore(t, Options{}, 50)
		readPoints(t, s, pointAfter)
		if err := s.DeleteTable("Img"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Get("Img", "p1", "0001"); !errors.Is(err, ErrTableNotFound) {
			t.Fatalf("Get after DeleteTable: %v", err)
		}
		if _, err := s.CreateTable("Img"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Get("Img", "p1", "0001"); !errors.Is(err, ErrEntityNotFound) {
			t.Fatalf("Get after the table is made again: %v", err)
		}
	})
	t.Run("Limit", func(t *testing.T) {
		for _, limit := range []int{-1, pointEntryBytes * 49} {
			s := imageStore(t, Options{ScanImageBytes: limit}, 50)
			readPoints(t, s, 3*pointAfter)
			if hasPoints(s, "img") {
				t.Fatalf("a map of 50 entities within %d bytes", limit)
			}
		}
	})
	t.Run("Walk", func(t *testing.T) {
		// A table of more than pointWalk × pointAfter entities is not walked in full on the
		// pointAfter-th read: the build waits twice as long, then walks it.
		s := imageStore(t, Options{}, pointWalk*pointAfter+60)
		readPoints(t, s, pointAfter+2*pointAfter-1)
		if hasPoints(s, "img") {
			t.Fatal("a map of more than pointWalk entities per read waited for")
		}
		readPoints(t, s, 1)
		if !hasPoints(s, "img") {
			t.Fatal("no map after the longer wait")
		}
	})
	t.Run("Rollback", func(t *testing.T) {
		// A transaction that rolls back leaves the map as it was.
		s := imageStore(t, Options{}, 50)
		readPoints(t, s, pointAfter)
		errNo := errors.New("no")
		err := s.Update(func(tx *Tx) error {
			for _, op := range []Op{
				{Kind: OpReplace, Entity: imageEntity(1, "x"), IfMatch: "*"},
				{Kind: OpDelete, Entity: imageEntity(2, ""), IfMatch: "*"},
				{Kind: OpInsert, Entity: imageEntity(55, "new")},
			} {
				if _, err := tx.Apply("Img", op); err != nil {
					return err
				}
			}
			return errNo
		})
		if !errors.Is(err, errNo) || !hasPoints(s, "img") {
			t.Fatalf("Update = %v; map kept: %v", err, hasPoints(s, "img"))
		}
		readPoints(t, s, 60)
	})
	t.Run("Backoff", func(t *testing.T) {
		// Room for 51 entities' maps: the second insert outgrows the limit and drops the map.
		s := imageStore(t, Options{ScanImageBytes: pointEntryBytes * 51}, 50)
		readPoints(t, s, pointAfter)
		for _, i := range []int{50, 51} {
			if _, err := s.Apply("Img", Op{Kind: OpInsert, Entity: imageEntity(i, "new")}); err != nil {
				t.Fatal(err)
			}
		}
		if hasPoints(s, "img") {
			t.Fatal("a map past the limit")
		}
		if _, err := s.Apply("Img", Op{Kind: OpDelete, Entity: imageEntity(51, ""), IfMatch: "*"}); err != nil {
			t.Fatal(err)
		}
		// The map served 0 reads of the pointAfter it waited for: the next waits twice as long.
		readPoints(t, s, 2*pointAfter-1)
		if hasPoints(s, "img") {
			t.Fatal("a map before 2×pointAfter reads after a map that served none")
		}
		readPoints(t, s, 1)
		if !hasPoints(s, "img") {
			t.Fatal("no map after 2×pointAfter reads")
		}
	})
}

// TestStore_ApplyChangeSet_Points: a change set loaded outside a transaction retires the
// maps built before it, so a replica reads what the set wrote.
func TestStore_ApplyChangeSet_Points(t *testing.T) {
	b, write := imageReplica(t)
	readPoints(t, b, 2*pointAfter)
	if !hasPoints(b, "img") {
		t.Fatal("no map on the replica")
	}
	write(Op{Kind: OpDelete, Entity: imageEntity(4, ""), IfMatch: "*"})
	if _, err := b.Get("Img", "p1", "0004"); !errors.Is(err, ErrEntityNotFound) {
		t.Fatalf("the replica reads an entity a change set deleted: %v", err)
	}
	readPoints(t, b, 2*pointAfter)
}

// TestTx_Get_PointsRace reads an entity while a writer replaces it: each write counts up
// its N, so a reader must never see N go down, and the writer's read after each write
// must see it, from a map or the tree. Run it with -race.
func TestTx_Get_PointsRace(t *testing.T) {
	s := imageStore(t, Options{}, 50)
	n := func(e *model.Entity) int32 { return e.Properties[0].Value.Int32() }
	set := func(i int) *model.Entity {
		e := imageEntity(7, "w")
		e.Properties[0].Value = model.Int32Value(int32(i))
		return e
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			last := int32(-1)
			for {
				select {
				case <-done:
					return
				default:
				}
				// GetRecord reads a map with no transaction, Get in one.
				get := func() (*model.Entity, error) { return s.Get("Img", "p1", "0007") }
				if last%2 == 0 {
					get = func() (*model.Entity, error) {
						rec, err := s.GetRecord("Img", "p1", "0007")
						if err != nil {
							return nil, err
						}
						return rec.Entity()
					}
				}
				e, err := get()
				if err != nil || n(e) < last {
					t.Errorf("a read saw N %d after %d, %v", n(e), last, err)
					return
				}
				last = n(e)
			}
		})
	}
	for i := 100; i < 300; i++ {
		if _, err := s.Apply("Img", Op{Kind: OpReplace, Entity: set(i), IfMatch: "*"}); err != nil {
			t.Fatal(err)
		}
		for range pointAfter + 1 {
			rec, err := s.GetRecord("Img", "p1", "0007")
			e, _ := rec.Entity()
			if err != nil || n(e) != int32(i) {
				t.Fatalf("after write %d, a read saw %v, %v", i, e, err)
			}
		}
	}
	close(done)
	wg.Wait()
}

// BenchmarkStore_GetRecordParallel reads 1,000 entities from parallel goroutines, from
// point maps and from the tree (no maps): with -cpu 1,2,8 it shows whether readers queue
// on the maps' lock.
func BenchmarkStore_GetRecordParallel(b *testing.B) {
	pks, rks := make([]string, 1000), make([]string, 1000)
	for i := range pks {
		pks[i], rks[i] = fmt.Sprint("p", i%10), fmt.Sprint("r", i)
	}
	for name, limit := range map[string]int{"maps": 0, "tree": -1} {
		b.Run(name, func(b *testing.B) {
			s, err := Open(Options{ScanImageBytes: limit})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			if _, err := s.CreateTable("Bench"); err != nil {
				b.Fatal(err)
			}
			for i := range pks {
				e := &model.Entity{PartitionKey: pks[i], RowKey: rks[i], Properties: []model.Property{{Name: "N", Value: model.Int32Value(int32(i))}}}
				if _, err := s.Apply("Bench", Op{Kind: OpInsert, Entity: e}); err != nil {
					b.Fatal(err)
				}
			}
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for i := 0; pb.Next(); i += 7 {
					if _, err := s.GetRecord("Bench", pks[i%1000], rks[i%1000]); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}
