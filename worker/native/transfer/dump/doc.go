// Package dump reads and writes the Tabletop dump format, version 1, which the browser
// module's export and import share.
//
// A dump is UTF-8 newline-delimited JSON, possibly gzip-compressed (Open detects the gzip
// magic bytes; Create compresses when the name ends in ".gz"). Each table is a section: a
// header line {"format":"tabletop-dump","version":1,"table":"people"}, then one entity per
// line in Azure's wire form with full type annotations (see package typedjson). A dump of
// many tables is the concatenation of their sections; an empty table is its header alone.
//
// The reader takes the dump line by line (blank lines skipped, "\r\n" accepted, one JSON
// value per line), so every error names its line; it ignores header members it does not
// know and refuses a version above 1. Reading and writing stream through
// goccy/go-json/jsontext, so memory stays constant on a dump of any size.
package dump
