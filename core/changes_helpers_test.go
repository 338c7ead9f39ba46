package core_test

import (
	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/backend/kvlog"
	"github.com/tabletopdb/tabletop/core/backend/memory"
)

// memoryBackend returns a function that opens a backend over one in-memory key-value
// store, so a store can be closed and opened again on the same data.
func memoryBackend() func() core.Backend {
	kv := memory.NewKV()
	return func() core.Backend { return kvlog.New(kv) }
}
