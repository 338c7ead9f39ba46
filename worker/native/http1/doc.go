// Package http1 is the native server's HTTP layer: it serves an exchange.Handler (the REST
// API of worker/rest) over HTTP/1.1 connections, reading each request straight into an
// exchange.Request and writing the answer from the handler's exchange.ResponseWriter.
//
// It does what net/http's server does for HTTP/1.1 in plain TCP, with less work per
// request: the request's head is read into one string that its method, target, header
// names and values share; the answer's headers go to the connection in one buffered
// write, with no copy of the header map; a connection's buffers and answer headers are
// reused from one request to the next.
//
// Why the native server does not use net/http's server, as everything else in the native
// build uses the standard library: small requests are where an HTTP server's own work
// weighs, and inserts and point gets are the native server's throughput targets against
// Azurite and against a trivial net/http handler (the floor). make bench's side-by-side
// run (worker/native/bench/run.sh) serves the same REST handler both ways, through this
// package and through net/http (worker/rest/nethttp), and prints the ratio of each
// workload: this package's lead is on inserts and point gets, none on large answers.
// Nothing here is needed at the edge, which never listens on a socket.
//
// The protocol (RFC 9112), as net/http implements it:
//   - persistent connections: HTTP/1.1 keeps a connection unless either side says
//     "Connection: close"; HTTP/1.0 closes it unless the request says
//     "Connection: keep-alive"; pipelined requests are answered in order;
//   - request bodies framed by Content-Length or "Transfer-Encoding: chunked" (any other
//     transfer coding is refused with 501, and any in an HTTP/1.0 request with 400; both
//     together are read as chunked and the connection closed after the answer; chunk
//     framing beyond 16 bytes a chunk and twice its data is bounded to 16 KiB, as
//     net/http bounds it); "Expect: 100-continue" is answered with
//     "100 Continue" when the handler first reads the body, any other expectation with
//     417;
//   - a request's line and headers are bounded (Server.MaxHeaderBytes, 431 beyond) and
//     must arrive within Server.ReadHeaderTimeout; an HTTP/1.1 request must name its Host
//     once; malformed lines are refused with 400 and an unknown version with 505, each
//     through Server.Refuse, after which the connection is closed;
//   - answers carry Content-Length when the handler finishes within the first 64 KiB of
//     body (or set it), else a chunked body (HTTP/1.0: the body ends with the connection);
//     a Date header unless the handler set one, and a sniffed Content-Type when the
//     handler wrote a body without one; no body for HEAD, 1xx, 204 and 304;
//   - each write of an answer must be taken by the client within Server.WriteTimeout,
//     else the connection is closed (net/http's WriteTimeout bounds the whole answer
//     instead, which cuts a long answer read steadily short);
//   - after an answer, what the handler left of the body is read and dropped, up to
//     256 KiB, else the connection is closed;
//   - Server.Shutdown stops accepting, closes idle connections and waits for answers in
//     flight;
//   - a handler that holds its answer (a change feed's wait) may ask, through
//     exchange.Request.Gone, to learn that its client closed the connection: the
//     connection of a request with no body is then watched until the answer (gone.go),
//     as net/http's background read does for a request's context.
//
// TLS is the listener's: a *tls.Conn, or a connection that reports Secure() true (the
// native server's, worker/native/tls.go), makes its requests' exchange.Request.Secure
// true. HTTP/2 and protocol upgrades are not offered.
package http1
