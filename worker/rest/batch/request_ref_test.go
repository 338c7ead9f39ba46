package batch

// The batch reader as it was over mime/multipart: the reference that partReader
// (multipart.go) must agree with on any body. The package itself does not link
// mime/multipart.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/textproto"
	"reflect"
	"strings"
	"testing"

	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/worker/rest/exchange"
)

// framed returns b followed by a line ending and then errCutShort in place of io.EOF, as
// partReader reads its data.
func framed(b []byte, boundary string) io.Reader {
	return io.MultiReader(bytes.NewReader(b), strings.NewReader(lineEnding(b, boundary)), cutShort{})
}

func refReadRequest(body io.Reader, contentType string) ([]SubRequest, error) {
	boundary, err := multipartBoundary(contentType)
	if err != nil {
		return nil, fmt.Errorf("read batch: %w", err)
	}
	buf, err := io.ReadAll(io.LimitReader(body, model.MaxBatchBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read batch: %w", err)
	}
	if len(buf) > model.MaxBatchBytes {
		return nil, ErrTooLarge
	}
	subs, err := refReadBatch(multipart.NewReader(framed(buf, boundary), boundary))
	if err != nil {
		return nil, fmt.Errorf("read batch: %w", err)
	}
	return subs, nil
}

// readBatch reads the batch's single changeset, or its single query, and checks that
// nothing follows it.
func refReadBatch(mr *multipart.Reader) ([]SubRequest, error) {
	part, err := mr.NextRawPart()
	if err == io.EOF { // the closing delimiter; see framed
		return nil, ErrEmpty
	}
	if err != nil {
		return nil, malformed("batch: %v", err)
	}
	if mt, _, _ := mime.ParseMediaType(part.Header.Get("Content-Type")); mt == "application/http" {
		return refReadQuery(mr, part)
	}
	boundary, err := multipartBoundary(part.Header.Get("Content-Type"))
	if err != nil {
		return nil, fmt.Errorf("changeset: %w", err)
	}
	content, err := io.ReadAll(part)
	if err != nil {
		return nil, malformed("batch: %v", err)
	}
	subs, err := refReadChangeset(multipart.NewReader(framed(content, boundary), boundary))
	if err != nil {
		return nil, err
	}
	switch _, err := mr.NextRawPart(); {
	case err == nil:
		return nil, ErrMultipleChangesets
	case err != io.EOF:
		return nil, malformed("batch after the changeset: %v", err)
	}
	return subs, nil
}

// readQuery reads a batch whose part is a request rather than a changeset: it must be a
// query (GET), alone in the batch.
func refReadQuery(mr *multipart.Reader, part *multipart.Part) ([]SubRequest, error) {
	sub, err := readOperation(exchange.Header(part.Header), part)
	if err != nil {
		return nil, &OperationError{Index: 0, Err: err}
	}
	if sub.Method != exchange.MethodGet {
		return nil, &OperationError{Index: 0, Err: &methodError{sub.Method}}
	}
	switch _, err := mr.NextRawPart(); {
	case err == nil:
		return nil, ErrQueryNotAlone
	case err != io.EOF:
		return nil, malformed("batch after the query: %v", err)
	}
	return []SubRequest{sub}, nil
}

// readChangeset reads the changeset's operations, at most model.MaxBatchOperations.
func refReadChangeset(mr *multipart.Reader) ([]SubRequest, error) {
	var subs []SubRequest
	for {
		part, err := mr.NextRawPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, malformed("changeset: %v", err)
		}
		if len(subs) == model.MaxBatchOperations {
			return nil, ErrTooManyOperations
		}
		sub, err := readOperation(exchange.Header(part.Header), part)
		if err == nil && sub.Method == exchange.MethodGet && len(subs) > 0 {
			err = &methodError{sub.Method} // a query never stands beside a write
		}
		if err != nil {
			return nil, &OperationError{Index: len(subs), Err: err}
		}
		if len(subs) == 1 && subs[0].Method == exchange.MethodGet {
			return nil, &OperationError{Index: 0, Err: &methodError{subs[0].Method}}
		}
		subs = append(subs, sub)
	}
	if len(subs) == 0 {
		return nil, ErrEmpty
	}
	return subs, nil
}

// FuzzReadRequestSameAsMultipart holds ReadRequest to the reader it replaced: the same
// operations, or an error wrapping the same sentinel (and naming the same operation).
func FuzzReadRequestSameAsMultipart(f *testing.F) {
	for _, name := range []string{"go_sdk_request.txt", "js_sdk_request.txt"} {
		body, ct := fixture(f, name)
		f.Add([]byte(body), ct)
		f.Add([]byte(strings.ReplaceAll(body, "\r\n", "\n")), ct)
	}
	f.Add([]byte(batchBody(insertOps(3)...)), testCT)
	f.Add([]byte(batchBody("GET /a/t() HTTP/1.1\r\n\r\n")), testCT)
	f.Add([]byte("pre\r\n--batch_b1 \t\r\nContent-Type: multipart/mixed; boundary=x\r\n\r\n--x\r\nContent-Type: application/http\r\n\r\nPOST /a/t HTTP/1.1\r\n\r\n--xy\r\n--x-\r\n--x\r\n--x--\r\n--batch_b1--"), testCT)
	f.Add([]byte("--batch_b1\nContent-Type: multipart/mixed; boundary=x\n\n--x\nContent-Type: application/http\n\nDELETE /a/t(PartitionKey='',RowKey='') HTTP/1.1\n\n--x--\n--batch_b1--\n"), testCT)
	f.Add([]byte("--batch_b1\r\n\r\n--batch_b1\r\nX: y\r\n z\r\n\r\n--batch_b1--junk"), testCT)
	f.Add([]byte("--batch_b1--"), testCT)
	f.Add([]byte("--batch_b1\r\nContent-Type: multipart/mixed; boundary=\"\"\r\n\r\n"), testCT)
	f.Fuzz(func(t *testing.T, body []byte, contentType string) {
		subs, err := ReadRequest(bytes.NewReader(body), contentType)
		want, werr := refReadRequest(bytes.NewReader(body), contentType)
		if (err == nil) != (werr == nil) {
			t.Fatalf("ReadRequest(%q): %v; over mime/multipart: %v", body, err, werr)
		}
		if err == nil {
			if !reflect.DeepEqual(subs, want) {
				t.Fatalf("ReadRequest(%q) = %+v; over mime/multipart: %+v", body, subs, want)
			}
			return
		}
		for _, s := range []error{ErrMalformed, ErrTooLarge, ErrTooManyOperations, ErrEmpty, ErrMultipleChangesets, ErrMethod, ErrQueryNotAlone} {
			if errors.Is(err, s) != errors.Is(werr, s) {
				t.Fatalf("ReadRequest(%q): %v; over mime/multipart: %v", body, err, werr)
			}
		}
		var oe, woe *OperationError
		if errors.As(err, &oe) != errors.As(werr, &woe) || (oe != nil && oe.Index != woe.Index) {
			t.Fatalf("ReadRequest(%q): %v; over mime/multipart: %v", body, err, werr)
		}
	})
}

// FuzzMIMEHeaderSameAsTextproto holds lineReader to net/textproto's Reader: the same
// request line and headers, or an error for both, and the same rest.
func FuzzMIMEHeaderSameAsTextproto(f *testing.F) {
	for _, s := range []string{
		"POST http://h/a/t HTTP/1.1\r\nContent-Type: application/json\r\nIf-Match: *\r\n\r\n{}",
		"GET /a HTTP/1.1\nx-ms-date:  Sat, 22 Nov\n  2026 \n\tmore\nA: 1\na: 2\n\nbody", " bad: first\r\n\r\n", "L\r\nno colon\r\n\r\n",
		"L\r\nbad name: v\r\n\r\n", "L\r\nbad\x00: v\r\n\r\n", "L\r\nk: v\x01\r\n\r\n", "L\r\nk: v\r\n", "L\r\nk: \xff\xfe\r\n\r\n",
		"L\r\nk: v\r\n \r\n\r\n", "L\r\nk:v\r\n \t", "L\r\n:v\r\n\r\n", "L\r\nk: a\rb\r\n\r\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		lr := lineReader{bufio.NewReader(strings.NewReader(s))}
		line, err := lr.readLine()
		var h exchange.Header
		if err == nil {
			h, err = lr.readMIMEHeader()
		}
		rest, _ := io.ReadAll(lr.r)
		tp := textproto.NewReader(bufio.NewReader(strings.NewReader(s)))
		wline, werr := tp.ReadLine()
		var wh textproto.MIMEHeader
		if werr == nil {
			wh, werr = tp.ReadMIMEHeader()
		}
		wrest, _ := io.ReadAll(tp.R)
		if (err == nil) != (werr == nil) || string(line) != wline {
			t.Fatalf("%q: line %q, %v; textproto: %q, %v", s, line, err, wline, werr)
		}
		if err == nil && (!reflect.DeepEqual(map[string][]string(h), map[string][]string(wh)) || string(rest) != string(wrest)) {
			t.Fatalf("%q: %q, rest %q; textproto: %q, rest %q", s, h, rest, wh, wrest)
		}
	})
}
