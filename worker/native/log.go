//go:build !js

package native

import (
	"encoding/base64"
	"log"
	"time"

	"github.com/tabletopdb/tabletop/worker/rest/exchange"
)

// withLog logs one line per request: method, path, status and duration.
func withLog(l *log.Logger, next exchange.Handler) exchange.Handler {
	return exchange.HandlerFunc(func(w exchange.ResponseWriter, r *exchange.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w, status: exchange.StatusOK}
		next.Serve(sw, r)
		l.Printf("%s %s %d %s", r.Method, r.URL.Path, sw.status, time.Since(start).Round(time.Microsecond))
	})
}

// statusWriter records the status a handler answers.
type statusWriter struct {
	exchange.ResponseWriter
	status int
	wrote  bool
}

func (w *statusWriter) WriteHeader(status int) {
	if !w.wrote {
		w.status, w.wrote = status, true
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	w.wrote = true
	return w.ResponseWriter.Write(b)
}

// Unwrap gives exchange.SetReadDeadline the server's writer.
func (w *statusWriter) Unwrap() exchange.ResponseWriter { return w.ResponseWriter }

func encodeKey(k []byte) string { return base64.StdEncoding.EncodeToString(k) }
