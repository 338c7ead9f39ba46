package rest

import (
	"encoding/base64"
	"encoding/binary"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
)

// checkpointVersion is the first byte of every checkpoint's binary form. Checkpoints of
// servers before it still decode: version 2 has no table incarnation (the zero Guid, which
// tables of those servers have), version 1 neither that nor Synced (zero).
const (
	checkpointVersion   = 3
	checkpointVersionV2 = 2
	checkpointVersionV1 = 1
)

// encodeCheckpoint returns the text form of a change feed checkpoint, which the
// x-tabletop-checkpoint header carries and the since parameter takes back: unpadded
// base64url of a version byte, the 16 bytes of the store's identity, the 16 bytes of the
// table's incarnation, the uvarint Timestamp ticks, the uvarint Synced ticks, the uvarint
// byte length of the PartitionKey, the PartitionKey and the RowKey. The start of the feed
// is "". Clients treat it as opaque.
func encodeCheckpoint(c core.Checkpoint) string {
	if c.IsZero() {
		return ""
	}
	b := append([]byte{checkpointVersion}, c.Store[:]...)
	b = append(b, c.Table[:]...)
	b = binary.AppendUvarint(b, uint64(c.Timestamp))
	b = binary.AppendUvarint(b, uint64(c.Synced))
	b = binary.AppendUvarint(b, uint64(len(c.PartitionKey)))
	b = append(append(b, c.PartitionKey...), c.RowKey...)
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeCheckpoint parses a checkpoint written by encodeCheckpoint (or by a server before
// it, see checkpointVersion); anything else, such as a Timestamp out of range or a key no
// entity could have, is ErrCheckpointInvalid.
func decodeCheckpoint(s string) (core.Checkpoint, error) {
	var c core.Checkpoint
	if s == "" {
		return c, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) < 1+len(c.Store) || b[0] < checkpointVersionV1 || b[0] > checkpointVersion {
		return c, ErrCheckpointInvalid
	}
	version := b[0]
	b = b[1+copy(c.Store[:], b[1:]):]
	if version == checkpointVersion {
		if len(b) < len(c.Table) {
			return c, ErrCheckpointInvalid
		}
		b = b[copy(c.Table[:], b):]
	}
	ts, n := binary.Uvarint(b)
	if n <= 0 {
		return c, ErrCheckpointInvalid
	}
	b = b[n:]
	var synced uint64
	if version >= checkpointVersionV2 {
		if synced, n = binary.Uvarint(b); n <= 0 {
			return c, ErrCheckpointInvalid
		}
		b = b[n:]
	}
	pkLen, n := binary.Uvarint(b)
	if n <= 0 || pkLen > uint64(len(b)-n) {
		return c, ErrCheckpointInvalid
	}
	b = b[n:]
	c.Timestamp, c.PartitionKey, c.RowKey = model.DateTime(ts), string(b[:pkLen]), string(b[pkLen:])
	c.Synced = model.DateTime(synced)
	if ts > uint64(model.MaxDateTime) || !c.Timestamp.Valid() || synced != 0 && !c.Synced.Valid() ||
		model.ValidateKey(model.PartitionKeyName, c.PartitionKey) != nil || model.ValidateKey(model.RowKeyName, c.RowKey) != nil {
		return core.Checkpoint{}, ErrCheckpointInvalid
	}
	return c, nil
}
