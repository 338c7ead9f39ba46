package batch

import (
	"bytes"
	"net/http"
)

// Recorder is an http.ResponseWriter that keeps one sub-request's response, so that the
// REST layer can run a sub-request through its single-request code and pass the result
// to WriteResponse. The zero value is not ready: use NewRecorder.
type Recorder struct {
	status int
	header http.Header
	body   bytes.Buffer
}

// NewRecorder returns an empty Recorder.
func NewRecorder() *Recorder {
	return &Recorder{header: http.Header{}}
}

// Header returns the header map to set before WriteHeader or Write.
func (r *Recorder) Header() http.Header { return r.header }

// WriteHeader records status; calls after the first are ignored, as net/http does.
func (r *Recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
}

// Write appends p to the body, recording status 200 if none was written.
func (r *Recorder) Write(p []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	return r.body.Write(p)
}

// Response returns what was recorded: status (200 if nothing was written), a copy of
// the header and the body.
func (r *Recorder) Response() Response {
	status := r.status
	if status == 0 {
		status = http.StatusOK
	}
	return Response{Status: status, Header: r.header.Clone(), Body: bytes.Clone(r.body.Bytes())}
}
