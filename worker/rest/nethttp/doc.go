// Package nethttp adapts between net/http and worker/rest's exchange types, both ways:
// Handler serves an exchange.Handler (worker/rest) from net/http (the tests' httptest
// servers, and any program that embeds the REST API in its own net/http server), and
// FromHandler serves a net/http handler as an exchange.Handler (the native server, which
// speaks HTTP/1.1 through worker/native/http1, serves its playground's files through
// net/http's file server this way). It lives apart from worker/rest so that the edge
// build, which imports worker/rest but never listens on a socket, does not link net/http.
//
// Nothing is copied: a Request's Header and the answer's Header are net/http's own maps,
// and the body is read from the connection as the handler reads it. The writer offers
// net/http's read deadline (exchange.ReadDeadliner), through which the handler bounds the
// time a client has to send its body, and a "Connection: close" header set by the handler
// closes the connection after the answer, as net/http does for any handler.
package nethttp
