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
		head, body := plain(exchange.StatusBadRequest, fmt.Errorf("decode frame of %d bytes, head %d: %w", len(frame), headLen, ErrMalformedFrame).Error())
		return AppendAnswer(dst, head, body)
	}
	var body []byte
	if len(frame) > headLen {
		body = bytes.Clone(frame[headLen:])
	}
	head, out := Serve(h, string(frame[:headLen]), body, onPanic)
	return AppendAnswer(dst, head, out)
}

// AppendAnswer appends the answer frame of head and body to dst.
func AppendAnswer(dst []byte, head string, body []byte) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(head)))
	dst = append(dst, head...)
	return append(dst, body...)
}
