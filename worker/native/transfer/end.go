package transfer

import (
	"context"
	"fmt"
	"strings"

	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/query"
	"github.com/tabletopdb/tabletop/worker/native/transfer/endpoint"
)

// Selection is what a copy reads: chosen tables (all when empty) and the entities that
// match a $filter (all when empty).
type Selection struct {
	Tables []string
	Filter string
	filter *query.Filter
	resume *resumePoint
	done   []string // tables a resumed copy wrote completely, which a seeker need not read
}

// resumePoint is where a seeker resumes: after the entity (pk, rk) of table.
type resumePoint struct {
	table, pk, rk string
}

// seeker is a Source that reads in key order and, given Selection.resume, starts the
// resumed table after its keys instead of from the start.
type seeker interface {
	Seeks()
}

// wants reports whether table is selected.
func (s *Selection) wants(table string) bool {
	if len(s.Tables) == 0 {
		return true
	}
	for _, t := range s.Tables {
		if strings.EqualFold(t, table) {
			return true
		}
	}
	return false
}

// matches reports whether e passes the filter, for sources that filter locally.
func (s *Selection) matches(e *model.Entity) bool { return s.filter == nil || s.filter.Matches(e) }

// Source is where a copy reads: Read calls fn with each selected table's name and a nil
// entity when the table starts, then with each of its selected entities, in a stable order.
type Source interface {
	Read(ctx context.Context, sel *Selection, fn func(table string, e *model.Entity) error) error
	Close() error
}

// Sink is where a copy writes. BeginTable starts a table (resumed: the checkpoint says
// part of it is written already); Write writes entities of one partition, or of any
// partitions in source order to an Ordered sink; Sync makes what was written durable and
// returns the length of a file destination (0 otherwise). Parallel is how many Writes may
// run at once. Ordered reports whether the sink is a file, written one Write after the
// other in source order (Sync then never runs beside a Write).
type Sink interface {
	BeginTable(ctx context.Context, table string, resumed bool) error
	Write(ctx context.Context, table string, es []*model.Entity) error
	Sync() (int64, error)
	Parallel() int
	Ordered() bool
	Close() error
}

// sized is a Source that knows how far through its input it is, in bytes.
type sized interface {
	Position() (done, total int64)
}

// IsEndpoint reports whether an end names a table endpoint rather than a file: a URL or
// a connection string.
func IsEndpoint(end string) bool {
	if strings.HasPrefix(end, "http://") || strings.HasPrefix(end, "https://") {
		return true
	}
	l := strings.ToLower(end)
	return strings.Contains(l, "accountname=") || strings.Contains(l, "usedevelopmentstorage=") || strings.Contains(l, "tableendpoint=")
}

// describe returns an end as it may be printed and stored in a checkpoint: an endpoint's
// URL without credentials, a file's name.
func describe(end string) string {
	if IsEndpoint(end) {
		if c, err := endpoint.Parse(end); err == nil {
			return c.String()
		}
	}
	return end
}

// Compile parses the filter, for the sources that apply it themselves.
func (s *Selection) Compile() error {
	if s.Filter == "" {
		return nil
	}
	f, err := query.ParseFilter(s.Filter)
	if err != nil {
		return fmt.Errorf("filter: %w", err)
	}
	s.filter = f
	return nil
}

// filterFor returns the $filter to read table with: the selection's, and for a resumed
// table only the keys after the resume point.
func (s *Selection) filterFor(table string) string {
	r := s.resume
	if r == nil || r.table != table {
		return s.Filter
	}
	after := fmt.Sprintf("(PartitionKey gt %s or (PartitionKey eq %s and RowKey gt %s))", quote(r.pk), quote(r.pk), quote(r.rk))
	if s.Filter == "" {
		return after
	}
	return "(" + s.Filter + ") and " + after
}

// quote writes s as an OData string literal.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
