package batch

import (
	"fmt"
	"io"
	"strconv"

	"github.com/tabletopdb/tabletop/worker/rest/exchange"
)

// Response is the result of one sub-request.
type Response struct {
	// Status is the HTTP status, such as 204 or 409.
	Status int
	// Header holds the sub-response's headers: ETag, Location, DataServiceId,
	// Preference-Applied, DataServiceVersion, Content-Type, X-Content-Type-Options,
	// Cache-Control. Headers of the outer response (Date, x-ms-request-id, ...) are left
	// out when written; see WriteResponse.
	Header exchange.Header
	// Body is the JSON error for the failing operation, an entity echo, or empty.
	Body []byte
}

// ContentType returns the Content-Type of a batch response with the given boundary.
func ContentType(batchBoundary string) string {
	return "multipart/mixed; boundary=" + batchBoundary
}

// WriteResponse writes the body of a 202 batch response in the service's byte layout
// (see the package doc). If any response has a Status of 400 or more, the transaction
// failed and, as the service does, the changeset holds only the first such response;
// otherwise it holds all of rs, in order. rs must not be empty (ErrEmpty), and each Status
// must have three digits (ErrStatus). The reason phrase is exchange.StatusText. Bodies must
// not contain the changeset boundary; random boundaries from NewBoundaries make that
// practically impossible.
func WriteResponse(w io.Writer, batchBoundary, changesetBoundary string, rs []Response) error {
	rs, err := outcome(rs)
	if err != nil {
		return err
	}
	b := make([]byte, 0, 512*len(rs))
	b = append(b, "--"+batchBoundary+"\r\n"...)
	b = append(b, "Content-Type: "+ContentType(changesetBoundary)+"\r\n\r\n"...)
	for _, r := range rs {
		b = append(b, "--"+changesetBoundary+"\r\n"...)
		b = append(b, "Content-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"...)
		b = appendResponse(b, r)
		b = append(b, "\r\n"...)
	}
	b = append(b, "--"+changesetBoundary+"--\r\n"...)
	b = append(b, "--"+batchBoundary+"--\r\n"...)
	if _, err := w.Write(b); err != nil {
		return fmt.Errorf("write batch response: %w", err)
	}
	return nil
}

// outcome returns the responses to write: the first failure alone, or all of rs.
func outcome(rs []Response) ([]Response, error) {
	if len(rs) == 0 {
		return nil, ErrEmpty
	}
	for i, r := range rs {
		if r.Status < 100 || r.Status > 999 {
			return nil, fmt.Errorf("write response %d: %w: %d", i, ErrStatus, r.Status)
		}
	}
	for i, r := range rs {
		if r.Status >= 400 {
			return rs[i : i+1], nil
		}
	}
	return rs, nil
}

// appendResponse appends "HTTP/1.1 <status> <text>", the headers, a blank line and the body.
func appendResponse(b []byte, r Response) []byte {
	b = append(b, "HTTP/1.1 "...)
	b = strconv.AppendInt(b, int64(r.Status), 10)
	b = append(b, ' ')
	b = append(b, exchange.StatusText(r.Status)...)
	b = append(b, "\r\n"...)
	b = appendHeader(b, r.Header)
	b = append(b, "\r\n"...)
	return append(b, r.Body...)
}

// WriteQueryResponse writes the body of the 202 answer to a query batch: one
// application/http part, outside any changeset, holding r.
//
//	--batchresponse_B\r\n
//	Content-Type: application/http\r\n
//	Content-Transfer-Encoding: binary\r\n
//	\r\n
//	HTTP/1.1 200 OK\r\n
//	…headers, a blank line, the body\r\n
//	--batchresponse_B--\r\n
func WriteQueryResponse(w io.Writer, batchBoundary string, r Response) error {
	if r.Status < 100 || r.Status > 999 {
		return fmt.Errorf("write query response: %w: %d", ErrStatus, r.Status)
	}
	b := make([]byte, 0, 512+len(r.Body))
	b = append(b, "--"+batchBoundary+"\r\n"...)
	b = append(b, "Content-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"...)
	b = appendResponse(b, r)
	b = append(b, "\r\n--"+batchBoundary+"--\r\n"...)
	if _, err := w.Write(b); err != nil {
		return fmt.Errorf("write query response: %w", err)
	}
	return nil
}
