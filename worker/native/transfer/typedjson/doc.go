// Package typedjson reads and writes one entity as a JSON object in Azure Table storage's
// wire form with full type annotations, streamed with github.com/goccy/go-json/jsontext.
// It is the entity codec of the dump format, of Azure Table endpoints' query responses
// and of Azurite's database file, all read and written token by token so that memory
// stays constant whatever the size of the stream.
//
// Writing (WriteEntity) puts PartitionKey, RowKey, the annotated Timestamp, then each
// property in stored order; every property that is not an Edm.String or Edm.Boolean carries
// its "Name@odata.type" annotation immediately before its value. Doubles are written in
// model.FormatDouble's form (5.0, 1e+21; NaN and the infinities as strings), Int64 as a
// decimal string, so that every value reads back exactly.
//
// Reading (ReadEntity) accepts members in any order, an annotation before or after its
// value, unannotated strings and booleans, and unannotated numbers as Azure's JSON does:
// an integer in Int32 range is an Edm.Int32, any other number an Edm.Double. Members named
// odata.* are skipped, null values dropped. A value that does not parse as its annotated
// type is an error naming the property; nothing is coerced or dropped.
//
// This package is for the native program only: the browser and edge builds must not link
// goccy/go-json (worker/native's TestDependencies checks it).
package typedjson
