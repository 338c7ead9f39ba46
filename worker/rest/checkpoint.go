package rest

import (
	"encoding/base64"
	"encoding/binary"

	"github.com/tabletopdb/tabletop/core"
)

// checkpointVersion is the first byte of every checkpoint's binary form; a version 1
// checkpoint, from a server before Synced, has none, and decodes with Synced zero.
const (
	checkpointVersion   = 2
	checkpointVersionV1 = 1
)

// encodeCheckpoint returns the text form of a change feed checkpoint, which the
// x-tabletop-checkpoint header carries and the since parameter takes back: unpadded
// base64url of a version byte, the 16 bytes of the store's identity, the uvarint
// Timestamp ticks, the uvarint Synced ticks, the uvarint byte length of the PartitionKey,
// the PartitionKey and the RowKey. The start of the feed is "". Clients treat it as opaque.
func encodeCheckpoint(c core.Checkpoint) string {
	if c.IsZero() {
		return ""
	}
	b := append([]byte{checkpointVersion}, c.Store[:]...)
	b = binary.AppendUvarint(b, uint64(c.Timestamp))
	b = binary.AppendUvarint(b, uint64(c.Synced))
	b = binary.AppendUvarint(b, uint64(len(c.PartitionKey)))
	b = append(append(b, c.PartitionKey...), c.RowKey...)
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeCheckpoint parses a checkpoint written by encodeCheckpoint (or by a server before
// Synced); anything else, such as a Timestamp out of range or a key no entity could have,
// is ErrCheckpointInvalid.
func decodeCheckpoint(s string) (core.Checkpoint, error) {
	var c core.Checkpoint
	if s == "" {
		return c, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) < 1+len(c.Store) || b[0] != checkpointVersion && b[0] != checkpointVersionV1 {
		return c, ErrCheckpointInvalid
	}
	version := b[0]
	b = b[1+copy(c.Store[:], b[1:]):]
	ts, n := binary.Uvarint(b)
	if n <= 0 {
		return c, ErrCheckpointInvalid
	}
	b = b[n:]
	var synced uint64
	if version == checkpointVersion {
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
	c.Timestamp, c.PartitionKey, c.RowKey = core.DateTime(ts), string(b[:pkLen]), string(b[pkLen:])
	c.Synced = core.DateTime(synced)
	if ts > uint64(core.MaxDateTime) || !c.Timestamp.Valid() || synced != 0 && !c.Synced.Valid() ||
		core.ValidateKey(core.PartitionKeyName, c.PartitionKey) != nil || core.ValidateKey(core.RowKeyName, c.RowKey) != nil {
		return core.Checkpoint{}, ErrCheckpointInvalid
	}
	return c, nil
}
