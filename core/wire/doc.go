// Package wire is the entity JSON codec in Azure Table storage's wire form, shared by the
// REST layer and the browser bindings.
//
// It decodes request bodies (DecodeEntity, DecodeEntityBody, DecodeTableName) with a small
// scanner for flat JSON objects, and appends response bodies (AppendEntity,
// AppendEntities, AppendTable, AppendTables) at the three OData metadata levels chosen by
// ParseFormat. It uses neither reflection nor encoding/json, so it stays fast and small
// in the js/wasm build.
//
// # Decoding
//
// An entity body is one JSON object of primitive values. A property's type comes from a
// "Name@odata.type" annotation, placed before or after the value; without one, a string is
// an Edm.String, an integer in Int32 range an Edm.Int32, any other number (a fraction, an
// exponent, or an integer beyond Int32, which Azure also stores as a Double) an
// Edm.Double, and true or false an Edm.Boolean. An annotated value is read as its type's
// wire text (model.ParseValue, which also applies the type's limits): Int32, Int64 and
// Double accept a JSON number or a string, Boolean true, false or their strings, Double
// also "NaN", "Infinity" and "-Infinity"; the other types take strings. Null values are
// dropped as if absent; "Timestamp" and "odata.*" members are ignored, whatever their
// value. Strings decode as in encoding/json (escapes and surrogate pairs are joined), with
// one difference: invalid UTF-8 and lone surrogates (\ud800 alone) are ErrJSONInvalid, not
// rewritten to U+FFFD, so that two distinct keys never collide and the key stored is the
// key sent. Nothing may follow the object but white space.
//
// The decoder checks the JSON, the annotations and each value against its type, and
// rejects a property named twice. The rest of the data model (property names, key
// characters, sizes, the number of properties) is the store's to check, through
// model.Entity.Validate. Errors about one property are *model.FieldError values naming it.
//
// # Encoding
//
// The writers append to a caller's buffer and allocate little beyond it. Members come in
// Azure's order: odata.metadata, odata.type, odata.id, odata.etag, odata.editLink,
// PartitionKey, RowKey, Timestamp, then the properties in stored order.
//
//   - nometadata: no odata.* members and no annotations.
//   - minimalmetadata: odata.metadata and odata.etag, and a "Name@odata.type" annotation
//     before each value whose type JSON cannot tell: Edm.Binary, Edm.DateTime, Edm.Guid,
//     Edm.Int64, and Edm.Double NaN and infinities.
//   - fullmetadata: also odata.type, odata.id, odata.editLink and
//     "Timestamp@odata.type". Custom properties are annotated as in minimalmetadata: that is
//     what Microsoft's payload-format reference documents and shows ("Age":23 unannotated in
//     a full-metadata response), and what Azurite does.
//
// Doubles are written so that they read back as Doubles: integral values carry ".0"
// (5.0), very large or small ones use an exponent (1e+21), both valid JSON numbers that
// parse back to the same float64.
package wire
