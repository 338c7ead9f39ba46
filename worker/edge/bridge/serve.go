package bridge

import (
	"fmt"

	"github.com/tabletopdb/tabletop/worker/rest/exchange"
)

// Serve runs h on the request that head and body describe and returns the head and body
// of its answer. A head that does not decode is answered 400; a panic in h is answered
// 500 with whatever headers h had set dropped, and reported to onPanic if it is not nil.
func Serve(h exchange.Handler, head string, body []byte, onPanic func(v any)) (respHead string, respBody []byte) {
	w := serve(h, head, body, onPanic)
	return w.Head(), w.Body()
}

// serve is Serve, answering into the Recorder it returns.
func serve(h exchange.Handler, head string, body []byte, onPanic func(v any)) *Recorder {
	r, err := DecodeRequest(head, body)
	if err != nil {
		return plain(exchange.StatusBadRequest, err.Error())
	}
	w := NewRecorder()
	if v, panicked := run(h, w, r); panicked {
		if onPanic != nil {
			onPanic(v)
		}
		return plain(exchange.StatusInternalServerError, fmt.Sprintf("internal error: %v", v))
	}
	return w
}

// run calls h and reports whether it panicked, and with what.
func run(h exchange.Handler, w exchange.ResponseWriter, r *exchange.Request) (v any, panicked bool) {
	defer func() {
		if v = recover(); v != nil {
			panicked = true
		}
	}()
	h.Serve(w, r)
	return nil, false
}

// plain is a text/plain answer with status and message.
func plain(status int, msg string) *Recorder {
	w := NewRecorder()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	w.Write([]byte(msg + "\n"))
	return w
}
