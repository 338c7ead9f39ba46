package bridge

import (
	"bytes"
	"strconv"

	"github.com/tabletopdb/tabletop/worker/rest/exchange"
)

// Recorder is the exchange.ResponseWriter of one bridged request: it keeps the status, the
// header and the body in memory until the handler returns.
type Recorder struct {
	header exchange.Header
	status int
	body   bytes.Buffer
}

var _ exchange.ResponseWriter = (*Recorder)(nil)

// answerHeaders is how many headers a Recorder makes room for at once: as many as fit in
// the map's first allocation (a hint above 8 costs more allocations than it saves).
const answerHeaders = 8

// NewRecorder returns a Recorder whose status is 200 until the handler says otherwise.
func NewRecorder() *Recorder { return &Recorder{header: make(exchange.Header, answerHeaders)} }

// Header is the response header, to change before WriteHeader or Write.
func (w *Recorder) Header() exchange.Header { return w.header }

// WriteHeader records the status; only the first call counts.
func (w *Recorder) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

// Write appends to the body, writing a 200 status first if none was written.
func (w *Recorder) Write(p []byte) (int, error) {
	w.WriteHeader(exchange.StatusOK)
	return w.body.Write(p)
}

// Flush does nothing: the whole body goes across at once.
func (w *Recorder) Flush() {}

// Status is the status written, 200 if none was.
func (w *Recorder) Status() int {
	if w.status == 0 {
		return exchange.StatusOK
	}
	return w.status
}

// Head is the response head: the status line and the header lines.
func (w *Recorder) Head() string { return string(w.AppendHead(nil)) }

// AppendHead appends the response head to dst.
func (w *Recorder) AppendHead(dst []byte) []byte {
	dst = strconv.AppendInt(dst, int64(w.Status()), 10)
	dst = append(dst, '\n')
	return appendHeader(dst, w.header)
}

// Body is the body written.
func (w *Recorder) Body() []byte { return w.body.Bytes() }
