package transfer

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"sync"

	json "github.com/goccy/go-json"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/worker/native/transfer/endpoint"
)

// EntityError is the failure to write one entity: which, and the Azure error code.
type EntityError struct {
	Table        string `json:"table"`
	PartitionKey string `json:"PartitionKey"`
	RowKey       string `json:"RowKey"`
	Code         string `json:"code"`
	Message      string `json:"message"`
	Err          error  `json:"-"`
}

// Unwrap returns the error the destination answered.
func (e *EntityError) Unwrap() error { return e.Err }

// Error implements error.
func (e *EntityError) Error() string {
	return fmt.Sprintf("table %s entity (PartitionKey=%q, RowKey=%q): %s: %s", e.Table, e.PartitionKey, e.RowKey, e.Code, e.Message)
}

// Failures collects EntityErrors as JSON lines in a file, for --keep-going.
type Failures struct {
	mu sync.Mutex
	f  *os.File
	w  *bufio.Writer
	n  int
}

// CreateFailures creates (or empties) the failures file at path; with resume, it keeps the
// failures an interrupted run recorded and appends to them.
func CreateFailures(path string, resume bool) (*Failures, error) {
	flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if resume {
		flags = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	}
	f, err := os.OpenFile(path, flags, 0o644)
	if err != nil {
		return nil, err
	}
	return &Failures{f: f, w: bufio.NewWriter(f)}, nil
}

func (fs *Failures) add(e *EntityError) error {
	line, err := json.Marshal(e)
	if err != nil {
		return err
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.n++
	fs.w.Write(line)
	return fs.w.WriteByte('\n')
}

// Count returns how many failures were collected.
func (fs *Failures) Count() int {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return fs.n
}

// Close flushes and closes the file.
func (fs *Failures) Close() error {
	return errors.Join(fs.w.Flush(), fs.f.Close())
}

// writeBatch writes b (an endpoint retries transient failures itself). When one entity is
// refused it names it; with Failures set, it records it and writes the others again.
func (j *Job) writeBatch(ctx context.Context, table string, b []*model.Entity) error {
	for len(b) > 0 {
		err := j.Sink.Write(ctx, table, b)
		if err == nil {
			j.Progress.add(len(b))
			return nil
		}
		bad, rest := blame(table, b, err)
		if j.Failures == nil {
			return bad
		}
		if err := j.Failures.add(bad); err != nil {
			return err
		}
		b = rest
	}
	return nil
}

// blame returns the error of the entity that made b fail and the entities to write again.
// When the service names no operation, every entity of b is blamed in turn: the first now.
func blame(table string, b []*model.Entity, err error) (*EntityError, []*model.Entity) {
	i := 0
	var be *endpoint.BatchError
	if errors.As(err, &be) && be.Index >= 0 && be.Index < len(b) {
		i = be.Index
	}
	e := b[i]
	ee := &EntityError{Table: table, PartitionKey: e.PartitionKey, RowKey: e.RowKey, Code: "Error", Message: err.Error(), Err: err}
	var se *endpoint.Error
	if errors.As(err, &se) {
		ee.Code, ee.Message = se.Code, se.Message
	}
	// Without an operation named (a network failure that outlived the retries), the first
	// entity is blamed and the others are written again, so each failure is reported.
	rest := append(append([]*model.Entity(nil), b[:i]...), b[i+1:]...)
	return ee, rest
}
