package dump_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/worker/native/transfer/dump"
	"github.com/tabletopdb/tabletop/worker/native/transfer/transfertest"
)

// readAll reads every record of a dump.
func readAll(t *testing.T, r io.Reader) ([]dump.Record, error) {
	t.Helper()
	rd, err := dump.NewReader(r)
	if err != nil {
		return nil, err
	}
	var out []dump.Record
	for {
		rec, err := rd.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, rec)
	}
}

func TestWriter(t *testing.T) {
	want := transfertest.EdgeEntities()
	write := func(w io.Writer) {
		dw := dump.NewWriter(w)
		for _, table := range []string{"people", "empty"} {
			if err := dw.Header(table); err != nil {
				t.Fatal(err)
			}
			if table == "empty" {
				continue
			}
			for _, e := range want {
				if err := dw.Entity(e); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	check := func(t *testing.T, r io.Reader) {
		recs, err := readAll(t, r)
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) != len(want)+2 || recs[0].Entity != nil || recs[len(recs)-1].Table != "empty" || recs[len(recs)-1].Entity != nil {
			t.Fatalf("records %+v", recs)
		}
		var got []*model.Entity
		for _, rec := range recs[1 : len(recs)-1] {
			if rec.Table != "people" {
				t.Fatalf("table %q", rec.Table)
			}
			got = append(got, rec.Entity)
		}
		if d := transfertest.Diff(want, got, true); d != "" {
			t.Fatal(d)
		}
	}
	t.Run("OK", func(t *testing.T) {
		var buf bytes.Buffer
		write(&buf)
		if !strings.HasPrefix(buf.String(), `{"format":"tabletop-dump","version":1,"table":"people"}`+"\n") {
			t.Fatalf("header line: %.80s", buf.String())
		}
		check(t, &buf)
	})
	t.Run("OK/Gzip", func(t *testing.T) {
		var buf bytes.Buffer
		gz := gzip.NewWriter(&buf)
		write(gz)
		if err := gz.Close(); err != nil {
			t.Fatal(err)
		}
		check(t, &buf)
	})
}

func TestReader_Next(t *testing.T) {
	const header = `{"format":"tabletop-dump","version":1,"table":"ttt"}` + "\n"
	t.Run("OK/UnknownHeaderMembers", func(t *testing.T) {
		recs, err := readAll(t, strings.NewReader(`{"table":"ttt","version":1,"format":"tabletop-dump","by":"x"}`+"\n"+`{"RowKey":"r","PartitionKey":"p"}`+"\n"))
		if err != nil || len(recs) != 2 || recs[1].Entity.RowKey != "r" {
			t.Fatalf("%+v %v", recs, err)
		}
	})
	for _, tc := range []struct {
		name, text, mention string
		want                error
	}{
		{"ErrVersion", header + `{"format":"tabletop-dump","version":2,"table":"u"}` + "\n", "line 2", dump.ErrVersion},
		{"ErrNoHeader", `{"PartitionKey":"p","RowKey":"r"}` + "\n", "line 1", dump.ErrNoHeader},
		{"ErrHeader/Table", `{"format":"tabletop-dump","version":1,"table":"1bad"}` + "\n", "line 1", dump.ErrHeader},
		{"ErrHeader/Format", header + `{"format":"other","version":1}` + "\n", "line 2", dump.ErrHeader},
		{"ErrValueInvalid", header + `{"PartitionKey":"p","RowKey":"r"}` + "\n" + `{"PartitionKey":"p","RowKey":"s","G@odata.type":"Edm.Guid","G":"nope"}` + "\n", "line 3: G", model.ErrValueInvalid},
		{"ErrUnexpectedEOF", header + `{"PartitionKey":"p","RowKey":`, "line 2", io.ErrUnexpectedEOF},
		{"ErrValueInvalid/AfterBlankLines", header + "\n  \n" + `{"PartitionKey":"p","RowKey":"r","X@odata.type":"Edm.Int32","X":"x"}` + "\n", "line 4: X", model.ErrValueInvalid},
		{"ErrLine", header + `{"PartitionKey":"p","RowKey":"r"} {"PartitionKey":"p","RowKey":"s"}` + "\n", "line 2", dump.ErrLine},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := readAll(t, strings.NewReader(tc.text))
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.mention) {
				t.Fatalf("err = %v, want %v mentioning %q", err, tc.want, tc.mention)
			}
		})
	}
}

func TestReader_Next_longLine(t *testing.T) {
	long := strings.Repeat("é", 30_000) // 60 KB; ten of them make a line longer than the reader's buffer
	line := `{"PartitionKey":"p","RowKey":"r"`
	for i := range 10 {
		line += fmt.Sprintf(`,"S%d":"%s"`, i, long)
	}
	text := `{"format":"tabletop-dump","version":1,"table":"ttt"}` + "\r\n" + line + "}\r\n" + `{"PartitionKey":"p","RowKey":"s"}`
	recs, err := readAll(t, strings.NewReader(text))
	if err != nil || len(recs) != 3 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	if v, _ := recs[1].Entity.Get("S9"); v.Str() != long || recs[2].Entity.RowKey != "s" {
		t.Fatal("long line misread")
	}
}

func FuzzReader(f *testing.F) {
	f.Add([]byte(`{"format":"tabletop-dump","version":1,"table":"ttt"}` + "\n" + `{"PartitionKey":"p","RowKey":"r","X@odata.type":"Edm.Int64","X":"5"}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rd, err := dump.NewReader(bytes.NewReader(data))
		if err != nil {
			return
		}
		for i := 0; i < 1000; i++ {
			rec, err := rd.Next()
			if err != nil {
				return
			}
			if rec.Table == "" {
				t.Fatal("record without a table")
			}
		}
	})
}
