package model

// Limits of the Table service data model.
const (
	// MaxValueBytes is the largest String (as UTF-16) or Binary value: 64 KiB.
	MaxValueBytes = 64 * 1024
	// MaxKeyBytes is the largest PartitionKey or RowKey, measured as UTF-16: 1 KiB.
	MaxKeyBytes = 1024
	// MaxPropertyNameLen is the longest property name, in characters.
	MaxPropertyNameLen = 255
	// MaxProperties is the most properties an entity has, the three system ones included.
	MaxProperties = 255
	// MaxCustomProperties is the most properties a client may set: 255 less the three
	// system properties.
	MaxCustomProperties = MaxProperties - 3
	// MaxEntityBytes is the largest entity by Azure's size formula: 1 MiB.
	MaxEntityBytes = 1024 * 1024
	// MaxBatchOperations is the most operations in one entity group transaction.
	MaxBatchOperations = 100
	// MaxBatchBytes is the largest entity group transaction payload: 4 MiB.
	MaxBatchBytes = 4 * 1024 * 1024
	// MaxPageSize is the most entities or tables a query returns in one page.
	MaxPageSize = 1000
)
