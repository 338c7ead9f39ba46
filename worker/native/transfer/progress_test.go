package transfer

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/tabletopdb/tabletop/core/model"
)

// halfway is a Source that says it is half read.
type halfway struct{}

func (halfway) Read(context.Context, *Selection, func(string, *model.Entity) error) error { return nil }
func (halfway) Close() error                                                              { return nil }
func (halfway) Position() (int64, int64)                                                  { return 50, 100 }

func TestProgress_report(t *testing.T) {
	t.Run("OK/Lines", func(t *testing.T) {
		var buf bytes.Buffer
		p := NewProgress(&buf, false)
		p.Start(halfway{})
		p.table("people")
		p.add(1500)
		p.report()
		p.Finish(2, nil)
		want := regexp.MustCompile(`^progress entities=1500 rate=\d+/s elapsed=\d+\.\ds table=people\ndone entities=1500 failed=2 rate=\d+/s elapsed=\d+\.\ds\n$`)
		if !want.MatchString(buf.String()) {
			t.Fatalf("output %q", buf.String())
		}
	})
	t.Run("OK/Bar", func(t *testing.T) {
		var buf bytes.Buffer
		p := NewProgress(&buf, true)
		p.Start(halfway{})
		p.table("people")
		p.add(10)
		p.report()
		p.Finish(0, nil)
		out := buf.String()
		if !strings.Contains(out, "\r\033[K"+strings.Repeat("█", 10)+strings.Repeat("·", 10)+" people: 10 entities, ") || !strings.Contains(out, "ETA ") {
			t.Fatalf("bar %q", out)
		}
	})
	t.Run("OK/Nil", func(t *testing.T) {
		var p *Progress
		p.Start(halfway{})
		p.add(1)
		p.table("x")
		p.Finish(0, nil)
	})
}
