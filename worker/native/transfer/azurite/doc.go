// Package azurite reads Azurite's table database file, __azurite_db_table__.json, directly
// and as a stream, so that an Azurite user moves their tables without running Azurite.
//
// The file is a LokiJS database serialized as one JSON object: a "collections" array
// whose first collection, "$TABLES_COLLECTION$", lists each table as {"account", "table"},
// followed by one collection per table named "account$table", whose "data" array holds
// the entities. An entity document keeps its properties in a flat "properties" object in
// Azure's wire form (PartitionKey, RowKey, Timestamp and each property with its
// "Name@odata.type" annotation where Azurite kept one; Int32 values are unannotated
// numbers, whole Doubles annotated numbers), beside "lastModifiedTime", "eTag" and LokiJS's
// "meta" and "$loki". Azurite stores Guid values as the base64 of their text, which the
// reader undoes. Other collections and members are skipped.
//
// Reading streams token by token through goccy/go-json/jsontext: memory stays constant
// whatever the size of the file (Azurite itself stops at 500 MB).
package azurite
