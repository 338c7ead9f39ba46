package transfer

import (
	"bufio"
	"context"
	"errors"
	"os"
	"strings"

	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/worker/native/transfer/azurite"
)

// ErrAzuriteWrite is returned for an Azurite database file given as a destination.
var ErrAzuriteWrite = errors.New("an Azurite database file is read only")

// azuriteSource reads the tables of one account (after "#" in the end, else
// devstoreaccount1) from an Azurite table database file.
type azuriteSource struct {
	f       *os.File
	account string
	count   *countingReader
	total   int64
}

func openAzuriteSource(end string) (*azuriteSource, error) {
	path, account, _ := strings.Cut(end, "#")
	if account == "" {
		account = azurite.DefaultAccount
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	s := &azuriteSource{f: f, account: account, count: &countingReader{r: f}}
	if fi, err := f.Stat(); err == nil {
		s.total = fi.Size()
	}
	return s, nil
}

// Read streams the file, keeping the selected tables and matching entities.
func (s *azuriteSource) Read(_ context.Context, sel *Selection, fn func(string, *model.Entity) error) error {
	return azurite.Read(bufio.NewReaderSize(s.count, 1<<16), s.account, func(table string, e *model.Entity) error {
		if !sel.wants(table) || (e != nil && !sel.matches(e)) {
			return nil
		}
		return fn(table, e)
	})
}

// Position is how far through the file the reading is, in bytes.
func (s *azuriteSource) Position() (int64, int64) { return s.count.n, s.total }

// Close closes the file.
func (s *azuriteSource) Close() error { return s.f.Close() }
