// Package endpoint is a small client of the Azure Table service REST API: it lists and
// creates tables, reads a table's entities page by page (following the continuation
// headers) and writes entities in $batch requests of up to 100, one partition each, as
// InsertOrReplace operations so that writing the same entity twice leaves one copy. It
// speaks to Azure, Azurite and Tabletop's native server and edge worker alike.
//
// An endpoint is given as a connection string (AccountName, AccountKey and TableEndpoint,
// or UseDevelopmentStorage=true), signed with Shared Key, or as a table service URL with
// a shared access signature in its query string. Entities travel as JSON with full type
// annotations (package typedjson), so every EDM type arrives exactly; Azure sets each
// written entity's Timestamp itself, so the source's Timestamps are not kept.
//
// Reading has one limit that comes from Azure's JSON: it writes a whole-number Double as
// an unannotated integer ("5"), which reads as an Int32 when in Int32 range (see
// Azure/azure-sdk-for-js#19899). Tabletop and Azurite write "5.0", which reads as a Double.
package endpoint
