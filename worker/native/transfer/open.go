package transfer

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/tabletopdb/tabletop/worker/native/transfer/endpoint"
)

// AzuritePrefix marks an end as an Azurite table database file whatever its name; a file
// named __azurite_db_table__.json is one without it.
const AzuritePrefix = "azurite:"

// azuriteFile is the name Azurite gives its table database.
const azuriteFile = "__azurite_db_table__.json"

// OpenSource opens the source end: an endpoint (connection string or SAS URL), an Azurite
// table database file, or a dump file ("-": standard input).
func OpenSource(end string) (Source, error) {
	switch {
	case IsEndpoint(end):
		c, err := endpoint.Parse(end)
		if err != nil {
			return nil, err
		}
		return &endpointEnd{c: c}, nil
	case strings.HasPrefix(end, AzuritePrefix):
		return openAzuriteSource(strings.TrimPrefix(end, AzuritePrefix))
	case filepath.Base(end) == azuriteFile:
		return openAzuriteSource(end)
	}
	return openDumpSource(end)
}

// IsDumpFile reports whether OpenSink writes end as a dump file: not standard output
// ("-"), an endpoint or Azurite's database file.
func IsDumpFile(end string) bool {
	return end != "-" && !IsEndpoint(end) && !strings.HasPrefix(end, AzuritePrefix) && filepath.Base(end) != azuriteFile
}

// OpenSink opens the destination end: an endpoint written with parallel requests at once,
// or a dump file ("-": standard output), cut to offset when a copy resumes.
func OpenSink(end string, parallel int, offset int64) (Sink, error) {
	switch {
	case IsEndpoint(end):
		c, err := endpoint.Parse(end)
		if err != nil {
			return nil, err
		}
		return &endpointEnd{c: c, parallel: parallel}, nil
	case strings.HasPrefix(end, AzuritePrefix), filepath.Base(end) == azuriteFile:
		return nil, fmt.Errorf("%w: write to Azurite through its endpoint (UseDevelopmentStorage=true), not its database file", ErrAzuriteWrite)
	}
	return openDumpSink(end, offset)
}
