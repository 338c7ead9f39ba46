package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
)

func TestAPI_Export(t *testing.T) {
	s := newSession(t)
	s.must("createTable", "People")
	s.must("createTable", "empty")
	s.must("write", "People", "create", `{"PartitionKey":"uk","RowKey":"ada","Name":"Ada","Age":36,"Score@odata.type":"Edm.Double","Score":5.0,`+
		`"Big@odata.type":"Edm.Int64","Big":"-9223372036854775808","Nan@odata.type":"Edm.Double","Nan":"NaN","Active":true,`+
		`"When@odata.type":"Edm.DateTime","When":"2021-08-31T15:40:49.6724407Z","Id@odata.type":"Edm.Guid","Id":"0D391D16-97F1-4B9A-BE68-4CC871F90001",`+
		`"Bin@odata.type":"Edm.Binary","Bin":"AAH/"}`, "")
	dump := s.must("export")
	lines := strings.Split(strings.TrimSuffix(dump, "\n"), "\n")
	t.Run("OK", func(t *testing.T) {
		if len(lines) != 3 || lines[0] != `{"format":"tabletop-dump","version":1,"table":"empty"}` ||
			lines[1] != `{"format":"tabletop-dump","version":1,"table":"People"}` {
			t.Fatalf("dump = %s", dump)
		}
		want := `"Name":"Ada","Age@odata.type":"Edm.Int32","Age":36,"Score@odata.type":"Edm.Double","Score":5.0,` +
			`"Big@odata.type":"Edm.Int64","Big":"-9223372036854775808","Nan@odata.type":"Edm.Double","Nan":"NaN","Active":true,` +
			`"When@odata.type":"Edm.DateTime","When":"2021-08-31T15:40:49.6724407Z","Id@odata.type":"Edm.Guid","Id":"0d391d16-97f1-4b9a-be68-4cc871f90001",` +
			`"Bin@odata.type":"Edm.Binary","Bin":"AAH/"}`
		if !strings.HasPrefix(lines[2], `{"PartitionKey":"uk","RowKey":"ada","Timestamp@odata.type":"Edm.DateTime","Timestamp":"`) || !strings.HasSuffix(lines[2], want) {
			t.Fatalf("entity line = %s", lines[2])
		}
	})
	t.Run("RoundTrip", func(t *testing.T) {
		other := newSession(t)
		if got := other.must("import", dump); got != `{"tables":["empty","People"],"entities":1}` {
			t.Fatalf("import = %s", got)
		}
		again := other.must("export", "people")
		if strip(again) != strip(strings.Join(lines[1:], "\n")+"\n") {
			t.Fatalf("re-exported\n%s\nwant\n%s", again, dump)
		}
	})
	t.Run("ErrTableNotFound", func(t *testing.T) {
		_, _, err := s.call("export", "nothere")
		wantCode(t, err, "TableNotFound")
	})
}

// strip removes the Timestamps, which an import renews.
func strip(dump string) string {
	var out []string
	for _, l := range strings.Split(dump, "\n") {
		if i := strings.Index(l, `"Timestamp":"`); i >= 0 {
			l = l[:i] + l[i+len(`"Timestamp":"2021-08-31T15:40:49.6724407Z"`):]
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

func TestAPI_Import(t *testing.T) {
	header := `{"format":"tabletop-dump","version":1,"table":"tab1"}` + "\n"
	for _, tc := range []struct{ name, dump, code, says string }{
		{"ErrValueInvalid", header + `{"PartitionKey":"p","RowKey":"1"}` + "\n" + `{"PartitionKey":"p","RowKey":"2","A@odata.type":"Edm.Int32","A":"fifteen"}`, "InvalidInput", "line 3"},
		{"ErrBoolean", header + `{"PartitionKey":"p","RowKey":"2","B@odata.type":"Edm.Boolean","B":"yes"}`, "InvalidInput", "line 2"},
		{"ErrDumpVersion", `{"format":"tabletop-dump","version":2,"table":"tab1"}`, "InvalidInput", "line 1"},
		{"ErrDumpHeaderMissing", `{"PartitionKey":"p","RowKey":"1"}`, "InvalidInput", "line 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSession(t)
			_, _, err := s.call("import", tc.dump)
			wantCode(t, err, tc.code)
			if !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("err = %v, want it to say %q", err, tc.says)
			}
			if got := s.must("listTables", "", "0", ""); strings.Contains(got, "tab1") {
				t.Fatalf("a failed import left %s", got)
			}
		})
	}
	t.Run("OK/UnknownHeaderMembersAndOrder", func(t *testing.T) {
		s := newSession(t)
		got := s.must("import", `{"table":"tab1","version":1,"format":"tabletop-dump","extra":[1]}`+"\n"+`{"A":1.5,"RowKey":"r","PartitionKey":"p"}`+"\n")
		if got != `{"tables":["tab1"],"entities":1}` {
			t.Fatalf("import = %s", got)
		}
		if e := s.entity("tab1", "p", "r"); e["A"] != model.DoubleValue(1.5) {
			t.Fatalf("entity = %+v", e)
		}
	})
}

func TestAPI_ImportNeedsEveryPartition(t *testing.T) {
	full := newSession(t, "outbox", "")
	full.must("createTable", "people")
	meta := full.must("saveRange", "m", "\xff") // the store's own records and the table's, no entity
	s := newSession(t, "partial")
	s.must("loadRange", "m", "\xff", meta)
	var dump strings.Builder
	dump.WriteString(`{"format":"tabletop-dump","version":1,"table":"people"}` + "\n")
	for _, pk := range []string{"a", "b", "c"} {
		for rk := range 3 {
			fmt.Fprintf(&dump, `{"PartitionKey":"%s","RowKey":"%d"}`+"\n", pk, rk)
		}
	}
	_, recs, err := s.call("import", dump.String())
	got := needs(t, err)
	if len(got) == 0 || len(recs) != 0 {
		t.Fatalf("import = %v, records %+v; want a need", err, recs)
	}
	id := stored.TableID("people")
	mustName(t, got, stored.EntityKey(id, "a", "0"), stored.EntityKey(id, "b", "0"), stored.EntityKey(id, "c", "0"))
	// With every range named loaded, the partitions' first entities import at once.
	for _, r := range got {
		s.must("loadRange", r[0], r[1], full.must("saveRange", r[0], r[1]))
	}
	first := `{"format":"tabletop-dump","version":1,"table":"people"}` + "\n" +
		`{"PartitionKey":"a","RowKey":"0"}` + "\n" + `{"PartitionKey":"b","RowKey":"0"}` + "\n" + `{"PartitionKey":"c","RowKey":"0"}` + "\n"
	if _, _, err := s.call("import", first); err != nil {
		t.Fatalf("import after loading what the need named: %v", err)
	}
}
