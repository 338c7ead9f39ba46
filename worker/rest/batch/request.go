package batch

import (
	"fmt"
	"io"
	"strings"

	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/worker/rest/exchange"
)

// ReadRequest parses a $batch request body, given the request's Content-Type header, into
// the changeset's operations in order, or, for a batch holding a single query (outside a
// changeset, or alone in one), that query (Method GET) alone. It reads at most model.MaxBatchBytes+1 bytes of body
// and returns ErrTooLarge, without parsing, when there are more than model.MaxBatchBytes.
// Other errors wrap ErrMalformed, ErrEmpty, ErrTooManyOperations, ErrMultipleChangesets
// ErrMethod or ErrQueryNotAlone; errors in one operation are an *OperationError. See the package doc for
// what is accepted.
func ReadRequest(body io.Reader, contentType string) ([]SubRequest, error) {
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
	subs, err := readBatch(newPartReader(buf, boundary))
	if err != nil {
		return nil, fmt.Errorf("read batch: %w", err)
	}
	return subs, nil
}

// multipartBoundary returns the boundary of a multipart/mixed content type.
func multipartBoundary(contentType string) (string, error) {
	if contentType == "" {
		return "", malformed("no Content-Type, want multipart/mixed")
	}
	mediaType, params, err := exchange.ParseMediaType(contentType)
	if err != nil {
		return "", malformed("Content-Type %q: %v", contentType, err)
	}
	if mediaType != "multipart/mixed" {
		return "", malformed("Content-Type is %q, want multipart/mixed", mediaType)
	}
	if params["boundary"] == "" {
		return "", malformed("Content-Type %q has no boundary", contentType)
	}
	return params["boundary"], nil
}

// readBatch reads the batch's single changeset, or its single query, and checks that
// nothing follows it.
func readBatch(mr *partReader) ([]SubRequest, error) {
	part, err := mr.next()
	if err == io.EOF { // the closing delimiter; see framed
		return nil, ErrEmpty
	}
	if err != nil {
		return nil, malformed("batch: %v", err)
	}
	if mt, _, _ := exchange.ParseMediaType(part.Header.Get("Content-Type")); mt == "application/http" {
		return readQuery(mr, part)
	}
	boundary, err := multipartBoundary(part.Header.Get("Content-Type"))
	if err != nil {
		return nil, fmt.Errorf("changeset: %w", err)
	}
	content, err := io.ReadAll(part)
	if err != nil {
		return nil, malformed("batch: %v", err)
	}
	subs, err := readChangeset(newPartReader(content, boundary))
	if err != nil {
		return nil, err
	}
	switch _, err := mr.next(); {
	case err == nil:
		return nil, ErrMultipleChangesets
	case err != io.EOF:
		return nil, malformed("batch after the changeset: %v", err)
	}
	return subs, nil
}

// readQuery reads a batch whose part is a request rather than a changeset: it must be a
// query (GET), alone in the batch.
func readQuery(mr *partReader, part *part) ([]SubRequest, error) {
	sub, err := readOperation(part.Header, part)
	if err != nil {
		return nil, &OperationError{Index: 0, Err: err}
	}
	if sub.Method != exchange.MethodGet {
		return nil, &OperationError{Index: 0, Err: &methodError{sub.Method}}
	}
	switch _, err := mr.next(); {
	case err == nil:
		return nil, ErrQueryNotAlone
	case err != io.EOF:
		return nil, malformed("batch after the query: %v", err)
	}
	return []SubRequest{sub}, nil
}

// readChangeset reads the changeset's operations, at most model.MaxBatchOperations.
func readChangeset(mr *partReader) ([]SubRequest, error) {
	var subs []SubRequest
	for {
		part, err := mr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, malformed("changeset: %v", err)
		}
		if len(subs) == model.MaxBatchOperations {
			return nil, ErrTooManyOperations
		}
		sub, err := readOperation(part.Header, part)
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

// readOperation checks a changeset part's headers and parses the request it holds.
func readOperation(h exchange.Header, r io.Reader) (SubRequest, error) {
	ct := h.Get("Content-Type")
	if mediaType, _, err := exchange.ParseMediaType(ct); err != nil || mediaType != "application/http" {
		return SubRequest{}, malformed("part has Content-Type %q, want application/http", ct)
	}
	if te := h.Get("Content-Transfer-Encoding"); te != "" && !strings.EqualFold(te, "binary") {
		return SubRequest{}, malformed("part has Content-Transfer-Encoding %q, want binary", te)
	}
	return parseSubRequest(r)
}
