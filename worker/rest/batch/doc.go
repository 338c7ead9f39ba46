// Package batch reads and writes the multipart framing of the Table service's entity
// group transactions (POST {base}/$batch). It knows nothing of tables or entities: the
// REST layer parses a request into SubRequests with ReadRequest, runs each one through
// the code it uses for single requests, applies them atomically, and writes the results
// with WriteResponse.
//
// # Request
//
// The body is multipart/mixed with the boundary from the request's Content-Type. It holds
// exactly one part, a changeset: itself multipart/mixed with its own boundary, holding 1
// to 100 parts of Content-Type application/http, each a complete HTTP/1.1 request:
//
//	--batch_B
//	Content-Type: multipart/mixed; boundary=changeset_C
//
//	--changeset_C
//	Content-Type: application/http
//	Content-Transfer-Encoding: binary
//
//	PATCH http://127.0.0.1:10002/devstoreaccount1/t(PartitionKey='p',RowKey='1') HTTP/1.1
//	Content-Type: application/json
//	If-Match: *
//
//	{"PartitionKey":"p","RowKey":"1","Name":"a"}
//	--changeset_C--
//	--batch_B--
//
// What ReadRequest tolerates, because the official clients send it: "\n" as well as
// "\r\n" line endings; header names in any case (they come back canonicalized); no
// Content-ID, Content-Length or x-ms-version (the JS client omits them; the Go client
// v1.4.1 sends DataServiceVersion and x-ms-version with empty values); a preamble before
// the first changeset delimiter; and the JS client's extra CRLF before each sub-request
// body, which is trimmed. The sub-request's body is the rest of its part: a
// Content-Length header is neither needed nor trusted.
//
// What it rejects: a body over model.MaxBatchBytes (ErrTooLarge, checked before parsing);
// a Content-Type that is not multipart/mixed with a boundary, framing it cannot follow,
// a part that is not application/http, and a request line that is not "METHOD URL
// HTTP/x" (ErrMalformed); no operation (ErrEmpty); more than model.MaxBatchOperations
// (ErrTooManyOperations); a second part beside the changeset (ErrMultipleChangesets); and
// any verb but POST, PUT, PATCH, MERGE and DELETE in a changeset (ErrMethod), but for a
// GET alone in it.
//
// A batch may instead hold a single query: one application/http part, outside any
// changeset, whose request is a GET. Azure's "Performing entity group transactions": a
// batch that holds writes cannot hold a query, and a query must be sent alone in its
// batch; some clients send it alone in a changeset, which Azure answers too. A query
// beside another part is ErrQueryNotAlone, a GET beside a write in a changeset or a write
// outside one ErrMethod. ReadRequest returns the query as the only SubRequest; its
// answer is written with WriteQueryResponse, one application/http part outside any
// changeset. An X-HTTP-Method header is left in
// SubRequest.Header for the single-request code to honour, so that POST with
// X-HTTP-Method: MERGE behaves the same inside and outside a batch.
//
// # Response
//
// The response is 202 Accepted with Content-Type ContentType(batchBoundary), and a body
// in the byte layout of the real service (Go's client reads each boundary from the first
// line of its part; the JS client splits on "--changesetresponse_" and matches
// "HTTP/1.1 (\d+)", "ETag: (.*)", "RowKey='(.*)'" and a one-line "{…}" error body):
//
//	--batchresponse_B\r\n
//	Content-Type: multipart/mixed; boundary=changesetresponse_C\r\n
//	\r\n
//	--changesetresponse_C\r\n                      one block per response
//	Content-Type: application/http\r\n
//	Content-Transfer-Encoding: binary\r\n
//	\r\n
//	HTTP/1.1 204 No Content\r\n
//	ETag: W/"datetime'…'"\r\n                        headers
//	\r\n
//	<body>\r\n                                       empty for 204
//	--changesetresponse_C--\r\n
//	--batchresponse_B--\r\n
//
// A failed transaction is still 202: its changeset holds only the failing operation,
// whose JSON error message starts with the operation's 0-based index ("2:The specified
// entity already exists."). Building that body is the REST layer's job; WriteResponse
// chooses what to write from the statuses.
package batch
