// Package rest is the Azure Table service REST API: the wire protocol the official SDKs
// speak (Microsoft's "Table service REST API" reference), over core's stores, for the
// native server (worker/native) and the edge build (worker/edge) alike. It builds for
// GOOS=js GOARCH=wasm; its tests that need a listener are native-only.
//
// The Handler answers one exchange.Request through an exchange.ResponseWriter
// (worker/rest/exchange), not net/http's types: the edge never listens on a socket, and
// linking net/http would bring crypto/tls and crypto/x509 into its binary. The native
// server serves it over HTTP/1.1 through worker/native/http1, which reads each request
// straight into these types (worker/rest/nethttp adapts net/http to them instead); the
// edge bridge (worker/edge/bridge) fills a Request directly from what JavaScript hands it.
//
// # A request's way through the handler
//
//  1. The account: host style first (the first label of Host names a configured account,
//     as in devstoreaccount1.table.core.windows.net), else path style (the first path
//     segment, as in http://127.0.0.1:10002/devstoreaccount1/Tables); either may name
//     its read-only secondary location (devstoreaccount1-secondary). Every answer carries
//     x-ms-request-id, x-ms-version (the request's, or 2019-02-02), Date (RFC 1123, GMT),
//     x-ms-client-request-id when sent, Cache-Control: no-cache and
//     X-Content-Type-Options: nosniff.
//  2. OPTIONS is a CORS preflight, answered from the account's service properties without
//     authentication. Other requests with an Origin get the CORS headers of the first
//     matching rule (cors.go).
//  3. The resource (resource.go) and the operation (routes.go, one table of every
//     operation); merge arrives as PATCH, MERGE, or POST with X-HTTP-Method.
//  4. Authentication by Shared Key, Shared Key Lite, table SAS or account SAS, or with
//     Options.Tokens a bearer token (worker/rest/auth), then authorization of the
//     operation: per entity for SAS key ranges, and per operation inside a batch.
//  5. The operation, in one store transaction; errors are answered with the code, status
//     and message core/azerr chooses (fail.go writes them as JSON or XML). A refused
//     bearer token is 401 InvalidAuthenticationInfo with Azure's bearer challenge
//     (WWW-Authenticate); every other authentication failure is 403.
//
// # Formats
//
// JSON in the three metadata levels (core/wire), chosen by $format over Accept.
// Operations that answer with a body (queries, Get Entity, inserts and Create Table
// without return-no-content) answer 415 AtomFormatNotSupported when neither asks for
// JSON, as Azure does for Atom; operations that answer 204 do not look at Accept. An Atom
// or XML request body is 415 AtomFormatNotSupported too. Table ACLs, service properties
// and stats are XML, and so are their errors.
//
// # Limits
//
// A body is read only after the request is routed and authenticated (Shared Key does not
// sign the body), so a request refused before its body, such as one that fails
// authentication, is answered at once and its connection closed, whatever its body does;
// so is an operation that takes no body (GET, DELETE) sent with one.
// A body is read into a buffer that grows with the bytes received, never with the
// Content-Length announced: a single entity up to Options.MaxEntityBytes (4 MiB by
// default: an entity of 1 MiB by Azure's formula, which the store enforces, can take
// several MiB of JSON), a batch up to model.MaxBatchBytes, other bodies up to 64 KiB. A
// Content-Length above the cap is refused before reading; otherwise reading stops at
// the cap. Either way the answer is 413 RequestBodyTooLarge. The bytes of all bodies in
// memory at once are bounded by Options.MaxBodyMemory (64 MiB by default): a body that
// would pass it is 503 ServerBusy, which clients retry. A body must arrive within
// Options.BodyTimeout of the request (60 s by default), else 408 OperationTimedOut; a
// body whose framing is broken, such as a malformed chunk, is 400 InvalidInput. After
// any of these answers the connection is closed, so the next request is never parsed
// from the rest of a body.
//
// # Entity group transactions
//
// A $batch is parsed (worker/rest/batch), each operation parsed and authorized as if it came
// alone, and all applied in one store transaction. On failure nothing is applied and
// the answer is still 202, its changeset holding only the failing operation's error,
// whose message starts with its 0-based index ("2:The specified entity already
// exists."). Errors of the framing itself (not multipart, over 100 operations, over
// 4 MiB) are plain JSON errors with their own status.
//
// A batch may hold, instead of a changeset, a single query, as Azure's "Performing entity
// group transactions" allows (a query must be alone in its batch): a Get Entity,
// answered 202 with one part outside any changeset holding 200 and the entity, or the
// error. A query beside anything else is 400 InvalidInput; so is a query that is not a
// Get Entity (a $filter query in a batch is not supported). A batch of more than one changeset
// is 400 InvalidInput with nothing applied, where Azure applies the first changeset and
// answers 400 for the others: clients send one.
//
// # Decisions where Azure's behaviour is unverified or unspecified
//
//   - Delete Entity without If-Match: 400 MissingRequiredHeader (the REST reference
//     makes If-Match required; the SDKs always send it, "*" by default).
//   - If-None-Match on Update, Merge, Insert Or Replace, Insert Or Merge or Delete
//     Entity, alone or in a changeset: 400 InvalidInput with the messages of Azure's
//     "Table service error codes" (both headers at once; on a DELETE; on a PUT, which
//     answers MERGE and PATCH too), nothing applied. Get Entity and queries ignore it, and
//     so does Insert Entity, which fails on an existing entity anyway.
//   - $top above 1000 (or not a number): 400 InvalidQueryParameterValue, not clamped.
//     $top=0 is 200 with no entities and no continuation, as Azure answers it (Azure
//     Storage Explorer sends it).
//   - x-ms-version must be a date no older than Azure's first service version
//     (version.go); a version not yet published is served (SDKs send each new version
//     before emulators know it), a malformed or older one is 400 InvalidHeaderValue, and
//     the answer's x-ms-version is then 2019-02-02.
//   - The query string is parsed from the raw text: parameters are separated by "&"
//     only, so a raw ";" belongs to its value, and a malformed percent escape is 400
//     InvalidQueryParameterValue rather than a parameter silently dropped.
//   - A JSON body holding a lone surrogate (\ud800 alone) or invalid UTF-8, in a key or a
//     value, is 400 InvalidInput: it is refused, never rewritten to U+FFFD, so two
//     distinct keys never collide. Anything after the JSON object but white space (a NUL
//     byte included) is 400 InvalidInput too.
//   - One trailing slash after a resource is ignored (/Tables/, /$batch/, /t()/), as
//     Azure ignores it.
//   - More than 15 comparisons in a $filter, a malformed filter, an out-of-range literal
//     or a bad continuation token: 400 InvalidInput.
//   - An over-long PartitionKey or RowKey (over 1 KiB as UTF-16): 400 OutOfRangeInput,
//     "The 'PartitionKey' parameter of value '…' is out of range.", as for a key with a
//     forbidden character; the value is shortened to 64 bytes in the message.
//   - Double NaN, Infinity and -Infinity come back as the strings "NaN", "Infinity" and
//     "-Infinity", annotated Edm.Double in minimal and full metadata (core/wire).
//   - A batch across partitions: 202, the changeset holding 400
//     CommandsInBatchActOnDifferentPartitions for the first operation whose
//     PartitionKey differs from the first one's ("1:All commands in a batch must operate
//     on same entity group."); nothing is applied. An operation naming another table or
//     account fails the same way with 400 InvalidInput.
//   - Int32 literals against Int64 or Double properties, and the order of characters
//     outside the BMP, are the query engine's and the store's (core/query, core).
//   - A failed batch's outer 202 also carries x-ms-error-code with the failing
//     operation's code, so that the Go client's ResponseError.ErrorCode names it.
//   - Entities written by one batch share one Timestamp, hence one ETag.
//   - Update and Merge take the keys from the URL; keys in the body must agree with
//     them (else 400 InvalidInput) and may be left out.
//   - A property value that does not parse as its declared type is 400 InvalidInput;
//     InvalidValueType is not used.
//   - The reserved table name "Tables" is 400 InvalidResourceName. Delete Table on a
//     missing table is 404 ResourceNotFound, as Azure answers it; every other operation on a missing
//     table, ACLs included, is 404 TableNotFound.
//   - A path naming an account that is not served: 400 InvalidUri, with the CORS headers
//     of the first account's rules, which answer its preflight too: a browser that names
//     a wrong account reads the error instead of failing as if the server were down.
//   - A preflight without Origin or Access-Control-Request-Method: 400
//     MissingRequiredHeader; with no matching rule: 403 CorsPreflightFailure.
//   - JSON sent to an XML operation (ACL, service properties): 415
//     JsonFormatNotSupported.
//   - A table SAS with a key range limits queries to that range: entities outside it are
//     left out of each page (a page may then be short, or empty with a continuation).
//   - Authentication failures carry Azure's standard message in JSON; the
//     AuthenticationErrorDetail appears only in XML answers.
//   - The account's secondary location, its name followed by "-secondary"
//     (devstoreaccount1-secondary in the path, or myaccount-secondary.table… as the
//     host), serves the primary's data for reads, as Azurite does: requests are signed
//     with the primary's name and keys, and a write is 403 AuthorizationFailure. Get
//     Service Stats, which Azure serves on the secondary, answers there and on the
//     primary alike, always status "live" with LastSyncTime now: the secondary is the
//     primary.
//
// # Tabletop's extension: the change feed
//
// GET /{table}()?comp=changes&since=… answers a page of the table's entities and deletion
// records after a checkpoint (changes.go), for sync clients; worker/rest/README.md, "Sync protocol"
// specifies it. No Azure client sends comp=changes, so what they see is unchanged.
// A since the feed cannot resume from is answered by one of three codes, chosen so that a
// client can tell from the status alone whether the table's contents are evidence about
// its copy: 410 CheckpointExpired (same store, same table, deletion records purged: a full
// read of the table and a reconciliation are safe), and 409 CheckpointFromAnotherStore
// (the server's data was replaced: another store's identity, or a position later than
// the store's clock, as after a restore) or 409 TableReplaced (the table was deleted since,
// perhaps created again: the checkpoint names another incarnation of it), after which a
// client must not delete what the table lacks without its application's say. They are
// 409 rather than 410 so that a client that reads only the status does not take them for
// an expiry.
//
// # Tabletop's extension: secondary indexes
//
// GET, PUT and DELETE /{table}?comp=indexes[&property=P] list, declare and drop a
// table's secondary indexes (indexes.go; worker/rest/README.md, "Secondary indexes"). Query
// Entities answers an x-tabletop-plan header naming how the page was read, which Azure
// clients ignore.
package rest
