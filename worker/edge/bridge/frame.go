package bridge

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/tabletopdb/tabletop/worker/rest/exchange"
)

// ErrMalformedFrame means a request frame's head length does not fit the frame.
var ErrMalformedFrame = errors.New("malformed request frame")

// HeadLenSize is the size of the head length at the start of an answer frame.
const HeadLenSize = 4

// ServeFrame runs h on the request in frame, whose first headLen bytes are its head (in
// the form DecodeRequest reads) and the rest its body, and appends the answer frame to
// dst: the head's length as a 4-byte little-endian number, the head, then the body. The
// body is copied, so frame may be reused once ServeFrame returns. A frame whose headLen
// does not fit is answered 400, as a head that does not decode is; onPanic is Serve's.
func ServeFrame(h exchange.Handler, dst, frame []byte, headLen int, onPanic func(v any)) []byte {
	if headLen < 0 || headLen > len(frame) {
		w := plain(exchange.StatusBadRequest, fmt.Errorf("decode frame of %d bytes, head %d: %w", len(frame), headLen, ErrMalformedFrame).Error())
		return w.appendAnswer(dst)
	}
	var body []byte
	if len(frame) > headLen {
		body = bytes.Clone(frame[headLen:])
	}
	return serve(h, string(frame[:headLen]), body, onPanic).appendAnswer(dst)
}

// appendAnswer appends w's answer frame to dst: its head's length, its head, its body.
func (w *Recorder) appendAnswer(dst []byte) []byte {
	at := len(dst)
	dst = w.AppendHead(append(dst, make([]byte, HeadLenSize)...))
	binary.LittleEndian.PutUint32(dst[at:], uint32(len(dst)-at-HeadLenSize))
	return append(dst, w.Body()...)
}
