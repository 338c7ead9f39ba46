// Package query is Tabletop's query engine, shared by every host: it parses OData
// $filter, $select and $top, plans a filter onto ranges of the (PartitionKey, RowKey)
// order, and runs Query Entities and Query Tables one page at a time with opaque
// continuation tokens.
//
// # Filter grammar
//
// Comparisons "eq ne gt ge lt le" between a property and a constant, written either way
// round ('a' lt PartitionKey is PartitionKey gt 'a'), combined with "and", "or", "not"
// and parentheses. Precedence, highest first: not, and, or; "not" applies to the
// comparison or parenthesized expression after it. A bare property ("not IsActive")
// stands for "IsActive eq true". A bare true or false holds for every entity or for none,
// as in Azure: health checks send $filter=false, and .NET predicate builders write
// "(true and RowKey eq '1') and (false or PartitionKey eq 'x')". Operators and keywords
// are lowercase.
// Literals:
//
//	'text'                          Edm.String; '' stands for one quote
//	datetime'2021-08-31T15:40:49.6724407Z'   Edm.DateTime in every form an entity's DateTime
//	                                takes (seconds optional, digits past the seventh
//	                                truncated, "Z", an offset or no zone for UTC); 0001 to 9999
//	guid'0d391d16-97f1-4b9a-be68-4cc871f90001'   Edm.Guid
//	X'0aff', binary'0aff'           Edm.Binary, in hex
//	123, -5                         Edm.Int32 (out of range is an error, as in Azure)
//	123L                            Edm.Int64
//	1.5, 1e3, -2.5E-3               Edm.Double (a fraction or an exponent)
//	true, false                     Edm.Boolean
//
// A filter holds at most MaxComparisons (15) comparisons. Errors are *SyntaxError values
// with the 0-based character position of the fault, as Azure reports it, wrapping
// ErrFilterSyntax, ErrLiteralOutOfRange or ErrTooManyComparisons.
//
// # Comparison semantics
//
//   - A comparison on a property the entity lacks is false, whatever the operator (ne
//     too); "not" of it is true.
//   - A constant compares only with a property of its own type: a string never matches an
//     Int64, a Guid or a DateTime property, nor a guid literal a String property. The
//     exception is numbers: Int32, Int64 and Double constants compare with Int32, Int64
//     and Double properties by exact numeric value (Age eq 5 matches an Int64 Age of 5,
//     and a Double of 5.0). Azure's behaviour here is unverified; this is what a user who
//     omits the L suffix expects.
//   - Strings compare ordinally, by UTF-8 bytes (Unicode code point order), as keys are
//     stored. DateTime compares at the full 100 ns precision. Guid and Binary compare by
//     their bytes. Booleans take only eq and ne (false < true is not defined; gt on a
//     boolean is a syntax error). A NaN Double is unordered: only ne is true.
//
// # Planning and paging
//
// Filter.Ranges turns a filter into disjoint key ranges in key order: "PartitionKey eq"
// gives one partition, RowKey comparisons beside it a range inside it, PartitionKey
// comparisons key ranges, "or" a union, "and" an intersection, "not" is pushed down to
// the comparisons; anything else leaves the whole table. Only these ranges are read, and
// every entity read is tested with the whole filter, on its stored record in place
// (Filter.MatchesRecord): a comparison finds only the property it names, keys and the
// Timestamp come from the record's key and head, and nothing is decoded or allocated per
// entity. Each comparison is prepared when it is parsed (newCmpNode), and the scan leaves
// the keys unsplit (core.Tx.ScanRecordsUnsplit) unless the filter compares them or the
// page keeps the entity. A filter of one comparison on a custom property is tested by the
// comparison itself, with no dispatch per candidate (Filter.recordMatcher). A table read
// again with no write between is scanned from its scan image (see core's package doc).
// Only the entities of a page are checked in full.
//
// # Secondary indexes
//
// When a table has indexes (core.Tx.CreateIndex) and the filter does not fix one
// partition, comparisons eq, gt, ge, lt and le of an indexed property against a constant
// are read from the index instead of scanning: "and" intersects the reads of its sides,
// the smallest found first (or uses the one side that has them), "or" unites them (only when both sides have
// them); a negated comparison, ne, or a comparison of an unindexed property under "or"
// leaves the table scan. The candidates an index plan finds are sorted into
// (PartitionKey, RowKey) order, those outside the key ranges, the request's Within and
// the continuation dropped, and each tested with the whole filter (an index holds the
// stored entities: nothing is looked up again), so a page, its order and its
// continuation are exactly those of the scan. Each page reads at most Budget.Examined
// index entries per read and sorts them once (O(k log k) for k candidates); a read that finds more gives up and the page scans instead, its plan then
// named "table scan (index over limit: …)". RecordPage.Plan names the plan a page ran:
// "index(Price) eq", "index(Price) range and index(Color) eq", "partition scan",
// "key range scan", "table scan" or "empty".
//
// A page holds at most $top (at most MaxTop, 1000; no $top means 1000) entities; $top=0
// (ZeroTop) gives an empty page with no continuation, as Azure answers it. A page
// ends early, with a continuation, on a Budget of entities examined, bytes or time, so a
// page may be empty and still have a continuation. A continuation resumes just after the
// last position the page covered (stored.KeyRange.After), so paging never repeats or skips
// an entity that exists throughout, whatever other writers insert and delete meanwhile,
// and a token naming a deleted entity still resumes in the right place.
//
// $select is parsed and validated here (ParseSelect); the entity codec does the
// projection, writing selected properties an entity lacks as null.
package query
