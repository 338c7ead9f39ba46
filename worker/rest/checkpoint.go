package rest

import (
	"encoding/base64"
	"encoding/binary"

	"github.com/tabletopdb/tabletop/core"
)

// encodeCheckpoint returns the text form of a change feed checkpoint, which the
// x-tabletop-checkpoint header carries and the since parameter takes back: unpadded
// base64url of the uvarint Timestamp ticks, the uvarint byte length of the PartitionKey,
// the PartitionKey and the RowKey. The start of the feed is "". Clients treat it as opaque.
func encodeCheckpoint(c core.Checkpoint) string {
	if c.IsZero() {
		return ""
	}
	b := binary.AppendUvarint(nil, uint64(c.Timestamp))
	b = binary.AppendUvarint(b, uint64(len(c.PartitionKey)))
	b = append(append(b, c.PartitionKey...), c.RowKey...)
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeCheckpoint parses a checkpoint written by encodeCheckpoint; anything else, such as
// a Timestamp out of range or a key no entity could have, is ErrCheckpointInvalid.
func decodeCheckpoint(s string) (core.Checkpoint, error) {
	if s == "" {
		return core.Checkpoint{}, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return core.Checkpoint{}, ErrCheckpointInvalid
	}
	ts, n := binary.Uvarint(b)
	if n <= 0 {
		return core.Checkpoint{}, ErrCheckpointInvalid
	}
	b = b[n:]
	pkLen, n := binary.Uvarint(b)
	if n <= 0 || pkLen > uint64(len(b)-n) {
		return core.Checkpoint{}, ErrCheckpointInvalid
	}
	b = b[n:]
	c := core.Checkpoint{Timestamp: core.DateTime(ts), PartitionKey: string(b[:pkLen]), RowKey: string(b[pkLen:])}
	if ts > uint64(core.MaxDateTime) || !c.Timestamp.Valid() ||
		core.ValidateKey(core.PartitionKeyName, c.PartitionKey) != nil || core.ValidateKey(core.RowKeyName, c.RowKey) != nil {
		return core.Checkpoint{}, ErrCheckpointInvalid
	}
	return c, nil
}
