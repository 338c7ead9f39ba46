package endpoint

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"

	"github.com/goccy/go-json/jsontext"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/wire"
	"github.com/tabletopdb/tabletop/worker/native/transfer/typedjson"
)

// MaxBatch is the most operations one $batch request may hold.
const MaxBatch = 100

// BatchError is the failure of one operation of a batch, which makes the whole batch fail:
// Index is the operation's position (-1 when the service did not say).
type BatchError struct {
	Index int
	Err   *Error
}

// Error implements error.
func (e *BatchError) Error() string { return fmt.Sprintf("operation %d: %v", e.Index, e.Err) }

// Unwrap returns the service's error.
func (e *BatchError) Unwrap() error { return e.Err }

// ErrBatchResponse is returned for a $batch answer this client cannot read.
var ErrBatchResponse = errors.New("batch response unreadable")

// Upsert writes entities, which share one PartitionKey, to table as one $batch of
// InsertOrReplace operations; they are all written or none. Their Timestamps are not sent:
// the service sets its own.
func (c *Client) Upsert(ctx context.Context, table string, entities []*model.Entity) error {
	body, ctype, err := c.batchBody(table, entities)
	if err != nil {
		return err
	}
	resp, err := c.do(ctx, request{method: http.MethodPost, path: "/$batch", body: body,
		header: http.Header{"Content-Type": {ctype}}})
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err = io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if allSucceeded(body) {
		return nil
	}
	return readBatchResponse(resp.Header.Get("Content-Type"), bytes.NewReader(body))
}

// allSucceeded reports whether every operation's status line in a batch answer is 2xx and
// there is at least one: the common case, told without parsing the parts.
func allSucceeded(body []byte) bool {
	const status = "\nHTTP/1.1 "
	n := 0
	for rest := body; ; n++ {
		i := bytes.Index(rest, []byte(status))
		if i < 0 {
			return n > 0
		}
		rest = rest[i+len(status):]
		if len(rest) == 0 || rest[0] != '2' {
			return false
		}
	}
}

// batchBody frames one changeset of PUT operations as multipart/mixed.
func (c *Client) batchBody(table string, entities []*model.Entity) ([]byte, string, error) {
	const batchB, changeB = "batch_tabletop_copy", "changeset_tabletop_copy"
	var b bytes.Buffer
	b.WriteString("--" + batchB + "\r\nContent-Type: multipart/mixed; boundary=" + changeB + "\r\n\r\n")
	// Not &b itself: given a *bytes.Buffer the encoder writes into its free space, which the
	// framing written between entities would share. U+2028 and U+2029 are escaped: Azurite
	// answers 500 to a $batch holding them raw.
	enc := jsontext.NewEncoder(struct{ io.Writer }{&b}, jsontext.EscapeForJS(true))
	for _, e := range entities {
		b.WriteString("--" + changeB + "\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n")
		b.WriteString("PUT " + c.base + "/")
		b.Write(wire.AppendKeyPredicate(nil, table, e.PartitionKey, e.RowKey))
		b.WriteString(" HTTP/1.1\r\nContent-Type: application/json\r\nAccept: application/json;odata=minimalmetadata\r\nDataServiceVersion: 3.0\r\n\r\n")
		body := *e
		body.Timestamp = 0
		if err := typedjson.WriteEntity(enc, &body); err != nil {
			return nil, "", fmt.Errorf("encode entity (%q,%q): %w", e.PartitionKey, e.RowKey, err)
		}
		b.WriteString("\r\n")
	}
	b.WriteString("--" + changeB + "--\r\n--" + batchB + "--\r\n")
	return b.Bytes(), "multipart/mixed; boundary=" + batchB, nil
}

// readBatchResponse returns nil when every operation succeeded, or the first failure.
func readBatchResponse(ctype string, body io.Reader) error {
	outer, err := boundaryReader(ctype, body)
	if err != nil {
		return err
	}
	for {
		part, err := outer.NextPart()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%w: %w", ErrBatchResponse, err)
		}
		if strings.HasPrefix(part.Header.Get("Content-Type"), "multipart/mixed") {
			inner, err := boundaryReader(part.Header.Get("Content-Type"), part)
			if err != nil {
				return err
			}
			if err := readChangeset(inner); err != nil {
				return err
			}
			continue
		}
		if err := readOperation(part); err != nil {
			return err
		}
	}
}

func boundaryReader(ctype string, r io.Reader) (*multipart.Reader, error) {
	_, params, err := mime.ParseMediaType(ctype)
	if err != nil || params["boundary"] == "" {
		return nil, fmt.Errorf("%w: content type %q", ErrBatchResponse, ctype)
	}
	return multipart.NewReader(r, params["boundary"]), nil
}

func readChangeset(r *multipart.Reader) error {
	for {
		part, err := r.NextPart()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%w: %w", ErrBatchResponse, err)
		}
		if err := readOperation(part); err != nil {
			return err
		}
	}
}

// readOperation reads one application/http answer and returns a *BatchError if it failed.
func readOperation(part io.Reader) error {
	resp, err := http.ReadResponse(bufio.NewReader(part), nil)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrBatchResponse, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 300 {
		return nil
	}
	e := readError(resp.StatusCode, resp.Header, resp.Body)
	index := -1
	if n, rest, ok := strings.Cut(e.Message, ":"); ok {
		if i, err := strconv.Atoi(n); err == nil {
			index, e.Message = i, rest
		}
	}
	return &BatchError{Index: index, Err: e}
}
