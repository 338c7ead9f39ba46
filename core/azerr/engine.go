package azerr

import (
	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/query"
	"github.com/tabletopdb/tabletop/core/wire"
)

// engineCodes maps the engine's sentinel errors to codes, tested in order with errors.Is.
// Both columns are pointers to package variables, so the linker lays the table out
// statically and no init code builds it, which keeps the wasm builds smaller.
var engineCodes = []struct {
	err  *error
	code *Code
}{
	// Tables and entities (core).
	{&core.ErrTableExists, &TableAlreadyExists},
	{&core.ErrTableNotFound, &TableNotFound},
	{&core.ErrEntityExists, &EntityAlreadyExists},
	{&core.ErrEntityNotFound, &ResourceNotFound},
	{&core.ErrPreconditionFailed, &UpdateConditionNotSatisfied},
	{&model.ErrETagInvalid, &InvalidInput},
	{&model.ErrTableNameInvalid, &InvalidResourceName},
	{&model.ErrTableNameReserved, &TableNameReserved},
	{&model.ErrKeyInvalid, &OutOfRangeInput},
	{&model.ErrKeyTooLarge, &OutOfRangeInput},
	{&model.ErrKeyMissing, &PropertiesNeedValue},
	{&model.ErrPropertyNameInvalid, &PropertyNameInvalid},
	{&model.ErrPropertyNameTooLong, &PropertyNameTooLong},
	{&model.ErrDuplicateProperty, &DuplicatePropertiesSpecified},
	{&model.ErrTooManyProperties, &TooManyProperties},
	{&model.ErrEntityTooLarge, &EntityTooLarge},
	{&model.ErrValueTooLarge, &PropertyValueTooLarge},
	{&model.ErrValueOutOfRange, &OutOfRangeInputUnnamed},
	{&model.ErrValueInvalid, &InvalidInput},
	{&model.ErrTypeUnknown, &InvalidInput},
	{&core.ErrTooManyPolicies, &InvalidXmlDocument},
	{&core.ErrStoreClosed, &ServerBusy},
	{&core.ErrNoSpace, &NoSpace},
	{&core.ErrCheckpointExpired, &CheckpointExpired},
	{&core.ErrCheckpointOtherStore, &CheckpointFromAnotherStore},
	{&core.ErrTableReplaced, &TableReplaced},
	{&core.ErrIndexNotFound, &ResourceNotFound},

	// Entity group transactions (core).
	{&core.ErrBatchEmpty, &InvalidInput},
	{&core.ErrBatchTooManyOperations, &TooManyOperations},
	{&core.ErrBatchPartitionMismatch, &CommandsInBatchActOnDifferentPartitions},
	{&core.ErrBatchDuplicateRow, &InvalidDuplicateRow},

	// Queries (core/query).
	{&query.ErrTopInvalid, &InvalidQueryParameterValue},
	{&query.ErrFilterSyntax, &InvalidInput},
	{&query.ErrLiteralOutOfRange, &InvalidInput},
	{&query.ErrTooManyComparisons, &InvalidInput},
	{&query.ErrTokenInvalid, &InvalidInput},
	{&query.ErrSelectInvalid, &InvalidInput},

	// Entity bodies (core/wire).
	{&wire.ErrJSONInvalid, &InvalidInput},
	{&wire.ErrNotObject, &InvalidInput},
	{&wire.ErrNestedValue, &InvalidInput},
	{&wire.ErrAnnotationInvalid, &InvalidInput},
	{&wire.ErrTableNameMissing, &InvalidInput},
}
