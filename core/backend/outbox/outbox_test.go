package outbox_test

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/backend/backendtest"
	"github.com/tabletopdb/tabletop/core/backend/outbox"
)

// host plays the part of the browser: it keeps what the records say, as kvlog would.
type host struct {
	snapshot []byte
	log      [][]byte
	last     *outbox.Backend
}

// drain makes the last backend's records durable.
func (h *host) drain() {
	if h.last == nil {
		return
	}
	for _, r := range h.last.Take() {
		switch r.Kind {
		case outbox.Snapshot:
			h.snapshot, h.log = r.Data, nil
		case outbox.ChangeSet:
			h.log = append(h.log, r.Data)
		}
	}
}

func (h *host) open() core.Backend {
	h.drain()
	h.last = outbox.New(h.snapshot, h.log)
	return h.last
}

func TestBackend(t *testing.T) {
	backendtest.Run(t, func(t *testing.T) func() core.Backend {
		h := &host{}
		return h.open
	})
}

func TestBackend_Take(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		h := &host{}
		s, err := core.Open(core.Options{Backend: h.open(), CompactAfter: 1})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.CreateTable("things"); err != nil {
			t.Fatal(err)
		}
		got := h.last.Take()
		if len(got) != 2 || got[0].Kind != outbox.ChangeSet || got[1].Kind != outbox.Snapshot {
			t.Fatalf("records = %+v, want a change set then a snapshot (CompactAfter 1)", got)
		}
		if again := h.last.Take(); len(again) != 0 {
			t.Fatalf("second Take = %d records", len(again))
		}
		var buf bytes.Buffer
		if err := s.Snapshot(&buf); err != nil || !bytes.Equal(buf.Bytes(), got[1].Data) {
			t.Fatalf("snapshot record differs from the store's snapshot (%v)", err)
		}
	})
	t.Run("LoadsOnce", func(t *testing.T) {
		b := outbox.New([]byte("snap"), [][]byte{[]byte("a"), []byte("b")})
		var seen []string
		load := func() error {
			return b.Load(func(r io.Reader) error {
				p, _ := io.ReadAll(r)
				seen = append(seen, string(p))
				return nil
			}, func(cs []byte) error { seen = append(seen, string(cs)); return nil })
		}
		if err := load(); err != nil || len(seen) != 3 || seen[0] != "snap" || seen[2] != "b" {
			t.Fatalf("Load = %v, saw %q", err, seen)
		}
		if err := load(); err != nil || len(seen) != 3 {
			t.Fatalf("second Load replayed again: %q", seen)
		}
	})
	t.Run("ErrLoad", func(t *testing.T) {
		boom := errors.New("boom")
		b := outbox.New(nil, [][]byte{[]byte("a")})
		err := b.Load(nil, func([]byte) error { return boom })
		if !errors.Is(err, boom) {
			t.Fatalf("err = %v", err)
		}
	})
}
