package stored

// Bound is a position in a table's (PartitionKey, RowKey) order, encoded so that plain
// string comparison is key order. Build bounds with the functions below; TableStart and
// TableEnd are the ends of every table.
type Bound string

// TableStart and TableEnd are the ends of a table's key order. TableEnd is above every
// encoded key: valid UTF-8 never contains the byte 0xFF.
const (
	TableStart Bound = ""
	TableEnd   Bound = "\xff"
)

// PartitionStart is the bound just before the first entity of partition pk.
func PartitionStart(pk string) Bound { return Bound(pk + Sep) }

// PartitionEnd is the bound just after the last entity of partition pk.
func PartitionEnd(pk string) Bound { return Bound(pk + "\x01") }

// KeyAt is the bound at entity (pk, rk): a range starting here includes it.
func KeyAt(pk, rk string) Bound { return Bound(pk + Sep + rk) }

// KeyAfter is the bound just after entity (pk, rk): a range starting here excludes it.
func KeyAfter(pk, rk string) Bound { return Bound(pk + Sep + rk + Sep) }

// KeyRange is the half-open interval [From, To) of a table's key order.
type KeyRange struct {
	From, To Bound
}

// WholeTable is the range of every entity of a table.
var WholeTable = KeyRange{From: TableStart, To: TableEnd}

// PartitionRange is the range of every entity of partition pk.
func PartitionRange(pk string) KeyRange {
	return KeyRange{From: PartitionStart(pk), To: PartitionEnd(pk)}
}

// PointRange is the range holding only entity (pk, rk).
func PointRange(pk, rk string) KeyRange { return KeyRange{From: KeyAt(pk, rk), To: KeyAfter(pk, rk)} }

// Empty reports whether the range holds no position.
func (r KeyRange) Empty() bool { return r.From >= r.To }

// Intersect returns the range of positions in both r and o.
func (r KeyRange) Intersect(o KeyRange) KeyRange {
	return KeyRange{From: max(r.From, o.From), To: min(r.To, o.To)}
}

// After returns the part of r that lies after entity (pk, rk): how a read resumes from a
// continuation, correct even if that entity has since been deleted.
func (r KeyRange) After(pk, rk string) KeyRange {
	return r.Intersect(KeyRange{From: KeyAfter(pk, rk), To: TableEnd})
}

// Contains reports whether entity (pk, rk) lies in r.
func (r KeyRange) Contains(pk, rk string) bool {
	b := KeyAt(pk, rk)
	return b >= r.From && b < r.To
}
