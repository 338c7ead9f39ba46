package core

import (
	"errors"
	"fmt"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

// imageRanges are the key ranges every image test reads.
var imageRanges = []stored.KeyRange{stored.WholeTable, stored.PartitionRange("p1"), {From: stored.KeyAt("p0", "0010"), To: stored.KeyAt("p2", "0005")},
	{From: stored.KeyAt("p1", "0100"), To: stored.TableEnd}, {From: stored.KeyAt("p9", ""), To: stored.TableEnd}}

// readScan returns what a read-only scan of table within r gives, record by record, as
// text; unsplit scans with ScanRecordsUnsplit, splitting the keys of each record.
func readScan(t *testing.T, s *Store, table string, r stored.KeyRange, unsplit bool) []string {
	t.Helper()
	var got []string
	err := s.View(func(tx *Tx) error { got, _ = scanText(tx, table, r, unsplit); return nil })
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// scanText scans table within r inside tx and returns its records as text.
func scanText(tx *Tx, table string, r stored.KeyRange, unsplit bool) ([]string, error) {
	got := []string{}
	fn := func(rec *stored.Record) bool {
		rec.SplitKeys()
		e, err := rec.Entity()
		if err != nil {
			got = append(got, err.Error())
			return false
		}
		got = append(got, fmt.Sprintf("%s/%s %v %d", e.PartitionKey, e.RowKey, e.Properties, e.Timestamp))
		return true
	}
	if unsplit {
		return got, tx.ScanRecordsUnsplit(table, r, fn)
	}
	return got, tx.ScanRecords(table, r, fn)
}

// treeScan is readScan from buntdb's tree: a write transaction never reads an image.
func treeScan(t *testing.T, s *Store, table string, r stored.KeyRange) []string {
	t.Helper()
	var got []string
	err := s.Update(func(tx *Tx) error { got, _ = scanText(tx, table, r, false); return nil })
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// checkScans scans every range of table imageAfter+1 times, so that the last scans read
// an image, and fails unless each scan gives what the tree holds.
func checkScans(t *testing.T, s *Store, table string) {
	t.Helper()
	for _, r := range imageRanges {
		want := treeScan(t, s, table, r)
		for k := range imageAfter + 1 {
			if got := readScan(t, s, table, r, k%2 == 0); !slices.Equal(got, want) {
				t.Fatalf("scan %d of %+v: %d records %q…, want %d %q…", k, r, len(got), got[:min(1, len(got))], len(want), want[:min(1, len(want))])
			}
		}
	}
}

func TestTx_ScanRecords_Image(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		s := imageStore(t, Options{}, 300)
		for range imageAfter - 1 {
			readScan(t, s, "Img", stored.WholeTable, false)
		}
		if hasImage(s, "Img") {
			t.Fatalf("an image after %d scans", imageAfter-1)
		}
		checkScans(t, s, "Img")
		if !hasImage(s, "Img") {
			t.Fatal("no image after repeated scans")
		}
		if got := readScan(t, s, "Img", stored.WholeTable, false); len(got) != 300 {
			t.Fatalf("the image holds %d entities, want 300", len(got))
		}
	})
	t.Run("LargeTableByPartitions", func(t *testing.T) {
		// Scans of 10 entities: a build may walk what they read, and imageWalkMin more, so
		// the image comes once they have read the table's size less that, and builds given
		// up make the next wait for twice what they walked: by 2n read at most.
		const n = 3 * imageWalkMin
		s := partitionedStore(t, n)
		read := 0
		for i := 0; !hasImage(s, "Img"); i++ {
			if read > 2*n {
				t.Fatalf("no image after scans that read %d entities of %d", read, n)
			}
			pk := fmt.Sprintf("p%05d", i%(n/10))
			if got := readScan(t, s, "Img", stored.PartitionRange(pk), false); len(got) != 10 {
				t.Fatalf("partition %s: %d entities, want 10", pk, len(got))
			}
			read += 10
		}
		if read < n-imageWalkMin {
			t.Fatalf("an image of %d entities after scans that read %d", n, read)
		}
		if got := readScan(t, s, "Img", stored.PartitionRange("p00007"), false); len(got) != 10 {
			t.Fatalf("from the image: %d entities, want 10", len(got))
		}
	})
	t.Run("LargeTableWhole", func(t *testing.T) {
		const n = 3 * imageWalkMin
		s := partitionedStore(t, n)
		for range imageAfter {
			if got := readScan(t, s, "Img", stored.WholeTable, false); len(got) != n {
				t.Fatalf("%d entities, want %d", len(got), n)
			}
		}
		if !hasImage(s, "Img") {
			t.Fatalf("no image of %d entities after %d whole scans", n, imageAfter)
		}
	})
	t.Run("StopEarly", func(t *testing.T) {
		s := imageStore(t, Options{}, 50)
		checkScans(t, s, "Img")
		for k := 1; k <= 50; k++ {
			n := 0
			err := s.View(func(tx *Tx) error {
				return tx.ScanRecords("Img", stored.WholeTable, func(*stored.Record) bool { n++; return n < k })
			})
			if err != nil || n != k {
				t.Fatalf("a scan stopping after %d records read %d, %v", k, n, err)
			}
		}
	})
	t.Run("Writes", func(t *testing.T) {
		s := imageStore(t, Options{}, 120)
		for i, w := range imageWrites {
			checkScans(t, s, "Img")
			if !hasImage(s, "Img") {
				t.Fatalf("write %d: no image before it", i)
			}
			if err := w.write(s); err != nil {
				t.Fatalf("write %d: %v", i, err)
			}
			if hasImage(s, "Img") != w.patched {
				t.Fatalf("write %d: image kept %v, want %v", i, hasImage(s, "Img"), w.patched)
			}
			checkScans(t, s, "Img")
		}
	})
	t.Run("TooManyPatches", func(t *testing.T) {
		s := imageStore(t, Options{}, 30)
		checkScans(t, s, "Img")
		for k := range maxPatches { // entities 10 … 29 rewritten, then new ones
			if _, err := s.Apply("Img", Op{Kind: OpInsertOrReplace, Entity: imageEntity(10+k, fmt.Sprint("w", k))}); err != nil {
				t.Fatal(err)
			}
		}
		if !hasImage(s, "Img") || len(s.images.tables["img"].v.over) != maxPatches {
			t.Fatalf("no image of %d patches", maxPatches)
		}
		checkScans(t, s, "Img")
		writeMany(t, s, 1000, 1)
		if hasImage(s, "Img") {
			t.Fatalf("an image of %d patches", maxPatches+1)
		}
		checkScans(t, s, "Img")
	})
	t.Run("OtherTable", func(t *testing.T) {
		s := imageStore(t, Options{}, 30)
		if _, err := s.CreateTable("Other"); err != nil {
			t.Fatal(err)
		}
		checkScans(t, s, "Img")
		if _, err := s.Apply("Other", Op{Kind: OpInsert, Entity: imageEntity(1, "x")}); err != nil {
			t.Fatal(err)
		}
		if !hasImage(s, "Img") {
			t.Fatal("a write to another table dropped the image")
		}
	})
	t.Run("OwnWrites", func(t *testing.T) {
		s := imageStore(t, Options{}, 30)
		checkScans(t, s, "Img")
		err := s.Update(func(tx *Tx) error {
			if _, err := tx.Apply("Img", Op{Kind: OpInsertOrReplace, Entity: imageEntity(500, "new")}); err != nil {
				return err
			}
			got, err := scanText(tx, "Img", stored.WholeTable, false)
			if len(got) != 31 {
				t.Fatalf("a write transaction scans %d entities after its insert, want 31", len(got))
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	})
	t.Run("Rollback", func(t *testing.T) {
		s := imageStore(t, Options{}, 30)
		checkScans(t, s, "Img")
		errRollback := errors.New("roll back")
		err := s.Update(func(tx *Tx) error {
			if _, err := tx.Apply("Img", Op{Kind: OpDelete, Entity: imageEntity(3, ""), IfMatch: "*"}); err != nil {
				return err
			}
			return errRollback
		})
		if !errors.Is(err, errRollback) {
			t.Fatal(err)
		}
		checkScans(t, s, "Img")
		if got := readScan(t, s, "Img", stored.WholeTable, false); len(got) != 30 {
			t.Fatalf("%d entities after a rolled back delete, want 30", len(got))
		}
	})
	t.Run("Limit", func(t *testing.T) {
		for _, limit := range []int{-1, 1, 2000} {
			s := imageStore(t, Options{ScanImageBytes: limit}, 100)
			checkScans(t, s, "Img")
			if limit < 0 && s.images != nil || hasImage(s, "Img") {
				t.Fatalf("limit %d: an image of 100 entities", limit)
			}
		}
		s := imageStore(t, Options{ScanImageBytes: 1 << 20}, 100)
		checkScans(t, s, "Img")
		if !hasImage(s, "Img") {
			t.Fatal("no image within the limit")
		}
	})
	t.Run("Backoff", func(t *testing.T) {
		s := imageStore(t, Options{}, 20)
		scansToImage := func() int {
			n := 0
			for !hasImage(s, "Img") {
				if n++; n > maxAfter {
					t.Fatalf("no image after %d scans", n)
				}
				readScan(t, s, "Img", stored.WholeTable, false)
			}
			return n
		}
		write := func() { writeMany(t, s, 1000, maxPatches+1) } // drops the image
		want := imageAfter
		for k := range 8 { // each image is dropped before it serves a scan
			if n := scansToImage(); n != want {
				t.Fatalf("image %d took %d scans, want %d", k, n, want)
			}
			write()
			want = min(2*want, maxAfter)
		}
		scansToImage()
		for range maxAfter {
			readScan(t, s, "Img", stored.WholeTable, false)
		}
		write()
		if n := scansToImage(); n != imageAfter {
			t.Fatalf("after an image served %d scans, the next took %d, want %d", maxAfter, n, imageAfter)
		}
	})
	t.Run("Partial", func(t *testing.T) {
		s, err := Open(Options{Partial: true})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if s.images != nil {
			t.Fatal("a partial store keeps images")
		}
	})
}

// imageWrites are the writes TestTx_ScanRecords_Image makes between scans: every kind
// of entity write, a batch, an entity inserted and deleted, and the table deleted and
// created again; patched tells whether the image is kept, patched with the write.
var imageWrites = []struct {
	write   func(s *Store) error
	patched bool
}{
	{applyOp(Op{Kind: OpInsert, Entity: imageEntity(1000, "inserted")}), true},
	{applyOp(Op{Kind: OpReplace, Entity: imageEntity(5, "replaced"), IfMatch: "*"}), true},
	{applyOp(Op{Kind: OpMerge, Entity: &model.Entity{PartitionKey: "p0", RowKey: "0006", Properties: []model.Property{{Name: "M", Value: model.BoolValue(true)}}}, IfMatch: "*"}), true},
	{applyOp(Op{Kind: OpInsertOrReplace, Entity: imageEntity(7, "upserted")}), true},
	{applyOp(Op{Kind: OpInsertOrMerge, Entity: imageEntity(2000, "merged in")}), true},
	{applyOp(Op{Kind: OpDelete, Entity: imageEntity(8, ""), IfMatch: "*"}), true},
	{applyOp(Op{Kind: OpDelete, Entity: imageEntity(1000, ""), IfMatch: "*"}), true},
	{func(s *Store) error {
		_, err := s.ApplyBatch("Img", []Op{{Kind: OpInsert, Entity: imageEntity(3000, "b")}, {Kind: OpDelete, Entity: imageEntity(3, ""), IfMatch: "*"}})
		return err
	}, true},
	{func(s *Store) error {
		if err := s.DeleteTable("Img"); err != nil {
			return err
		}
		_, err := s.CreateTable("Img")
		return err
	}, false},
	{applyOp(Op{Kind: OpInsert, Entity: imageEntity(1, "after the table's deletion")}), true},
}

// writeMany inserts or replaces n entities of table Img, from entity first on, in one
// transaction.
func writeMany(t *testing.T, s *Store, first, n int) {
	t.Helper()
	err := s.Update(func(tx *Tx) error {
		for k := range n {
			if _, err := tx.Apply("Img", Op{Kind: OpInsertOrReplace, Entity: imageEntity(first+k, "many")}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestTx_ScanRecords_ImagePatches makes random writes of a few entities each (inserts,
// replacements, deletions, and transactions that fail and roll back) between scans of
// random ranges, and holds every scan, read from a patched image or the tree, to what
// the tree holds.
func TestTx_ScanRecords_ImagePatches(t *testing.T) {
	s := imageStore(t, Options{}, 40)
	rng := rand.New(rand.NewPCG(1, 2))
	key := func() *model.Entity { return imageEntity(rng.IntN(60), fmt.Sprint("r", rng.IntN(1000))) }
	patched := 0
	for step := range 1500 {
		if rng.IntN(3) == 0 {
			err := s.Update(func(tx *Tx) error {
				for range 1 + rng.IntN(3) {
					op := Op{Kind: OpInsertOrReplace, Entity: key()}
					if rng.IntN(3) == 0 {
						op = Op{Kind: OpDelete, Entity: key(), IfMatch: "*"} // fails, rolling back, when absent
					}
					if _, err := tx.Apply("Img", op); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil && !errors.Is(err, ErrEntityNotFound) {
				t.Fatal(err)
			}
		}
		if hasImage(s, "Img") && len(s.images.tables["img"].v.over) > 0 {
			patched++
		}
		lo, hi := imageEntity(rng.IntN(70), ""), imageEntity(rng.IntN(70), "")
		r := stored.KeyRange{From: stored.KeyAt(lo.PartitionKey, lo.RowKey), To: stored.KeyAt(hi.PartitionKey, hi.RowKey)}
		if rng.IntN(4) == 0 {
			r = stored.WholeTable
		}
		want := treeScan(t, s, "Img", r)
		for k := range 2 {
			if got := readScan(t, s, "Img", r, k == 0); !slices.Equal(got, want) {
				t.Fatalf("step %d, scan of %+v: %q, want %q", step, r, got, want)
			}
		}
	}
	if patched < 100 {
		t.Fatalf("only %d steps read a patched image", patched)
	}
}

// applyOp is a write of op to table Img.
func applyOp(op Op) func(s *Store) error {
	return func(s *Store) error { _, err := s.Apply("Img", op); return err }
}

func TestStore_ApplyChangeSet_Image(t *testing.T) {
	b, write := imageReplica(t)
	checkScans(t, b, "Img")
	write(Op{Kind: OpDelete, Entity: imageEntity(4, ""), IfMatch: "*"})
	if got := readScan(t, b, "Img", stored.WholeTable, false); len(got) != 39 {
		t.Fatalf("the replica scans %d entities after a change set deleting one of 40", len(got))
	}
	checkScans(t, b, "Img")
}

// TestTx_ScanRecords_ImageRace scans while a writer commits: each write inserts a row and
// records in the row "head" how many it inserted, so every scan, from an image or the
// tree, must see exactly as many rows as its head says, and the writer's own scan after
// each write must see it. Run it with -race.
func TestTx_ScanRecords_ImageRace(t *testing.T) {
	s := imageStore(t, Options{}, 0)
	head := func(n int) *model.Entity {
		return &model.Entity{PartitionKey: "a", RowKey: "head", Properties: []model.Property{{Name: "N", Value: model.Int32Value(int32(n))}}}
	}
	if _, err := s.Apply("Img", Op{Kind: OpInsert, Entity: head(0)}); err != nil {
		t.Fatal(err)
	}
	const writes = 200
	var wg sync.WaitGroup
	done := make(chan struct{})
	for range 2 {
		wg.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				if rows, n, err := countRows(s); err != nil || rows != n {
					t.Errorf("a scan saw %d rows and a head of %d, %v", rows, n, err)
					return
				}
			}
		})
	}
	for i := range writes {
		err := s.Update(func(tx *Tx) error {
			if _, err := tx.Apply("Img", Op{Kind: OpInsert, Entity: imageEntity(i, "w")}); err != nil {
				return err
			}
			_, err := tx.Apply("Img", Op{Kind: OpReplace, Entity: head(i + 1), IfMatch: "*"})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		for range imageAfter + 1 { // the later of these scans build and read an image
			if rows, n, err := countRows(s); err != nil || rows != i+1 || n != i+1 {
				t.Fatalf("after write %d, a scan saw %d rows and a head of %d, %v", i+1, rows, n, err)
			}
		}
	}
	close(done)
	wg.Wait()
}

// countRows scans table Img and returns how many rows it holds besides the row "head",
// and the N that row holds.
func countRows(s *Store) (rows, n int, err error) {
	n = -1
	err = s.View(func(tx *Tx) error {
		return tx.ScanRecordsUnsplit("Img", stored.WholeTable, func(r *stored.Record) bool {
			r.SplitKeys()
			if r.PartitionKey == "a" {
				v, _ := r.Lookup("N")
				n = int(v.Int32())
			} else {
				rows++
			}
			return true
		})
	})
	return rows, n, err
}

// partitionedStore opens a store whose table "Img" holds n entities, ten a partition.
func partitionedStore(t *testing.T, n int) *Store {
	t.Helper()
	s := openStore(t, Options{})
	if _, err := s.CreateTable("Img"); err != nil {
		t.Fatal(err)
	}
	err := s.Update(func(tx *Tx) error {
		for i := range n {
			e := &model.Entity{PartitionKey: fmt.Sprintf("p%05d", i/10), RowKey: fmt.Sprint(i % 10)}
			if _, err := tx.Apply("Img", Op{Kind: OpInsert, Entity: e}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}
