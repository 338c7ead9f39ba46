package core

import (
	"encoding/binary"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
	"unsafe"
)

// preparedInsert is an insert encoded before the write lock is taken: the entity as it will
// be stored and its record (key and stored form, in one allocation, as
// stored.EncodeKeyed makes them) with a placeholder Timestamp. Under the lock only stamp
// remains, which writes the Timestamp the write takes into the record in place, so that
// writers hold the lock for the B-tree writes and little else.
type preparedInsert struct {
	id     string        // the table's id
	out    *model.Entity // the entity as it will be stored; its Timestamp is set by stamp
	rec    []byte        // the record, written by nothing once stamp has returned
	keyLen int           // the key's length: the stored form follows it
}

// placeholderStamp is the Timestamp a prepared record is encoded with. Its uvarint takes
// nine bytes, as does every Timestamp from the year 229 on (MinDateTime is 1601), so
// stamp overwrites it in place.
const placeholderStamp = model.MinDateTime

// prepareInsert encodes the insert of entity e into table id (see preparedInsert).
func prepareInsert(id string, e *model.Entity) preparedInsert {
	rec, keyLen := stored.AppendKeyed(placeholderStamp, e.Properties, stored.EntityPrefix, id, stored.Sep, e.PartitionKey, stored.Sep, e.RowKey)
	out := &model.Entity{PartitionKey: e.PartitionKey, RowKey: e.RowKey, Properties: e.Properties}
	return preparedInsert{id: id, out: out, rec: rec, keyLen: keyLen}
}

// stamp sets the insert's Timestamp to ts and returns its key and stored form. It is
// called once, before anything reads the record.
func (p *preparedInsert) stamp(ts model.DateTime) (key, value string) {
	p.out.Timestamp = ts
	at := p.keyLen + 1 // the Timestamp follows the codec's version byte
	var buf [binary.MaxVarintLen64]byte
	n := binary.PutUvarint(buf[:], uint64(ts))
	if n == uvarintLen(uint64(placeholderStamp)) {
		copy(p.rec[at:], buf[:n])
	} else { // not before the year 229: rebuilt around the Timestamp's own length
		rec := make([]byte, 0, len(p.rec)-uvarintLen(uint64(placeholderStamp))+n)
		rec = append(append(append(rec, p.rec[:at]...), buf[:n]...), p.rec[at+uvarintLen(uint64(placeholderStamp)):]...)
		p.rec = rec
	}
	s := unsafe.String(unsafe.SliceData(p.rec), len(p.rec))
	return s[:p.keyLen], s[p.keyLen:]
}

// uvarintLen is how many bytes binary.AppendUvarint takes for x.
func uvarintLen(x uint64) int {
	n := 1
	for ; x >= 0x80; x >>= 7 {
		n++
	}
	return n
}
