package rest

import (
	"fmt"
	"strings"

	"github.com/tabletopdb/tabletop/worker/rest/uri"
)

// parseQuery parses a request's raw query string as Azure reads it: parameters separated
// by "&" only (a ";" is part of a value, as in $filter=RowKey eq 'a;b'), names and values
// percent-decoded, "+" a space. A malformed escape is ErrQueryMalformed: Go's
// url.ParseQuery would drop that parameter silently, and a $filter, $top or continuation
// dropped would answer as if it were absent.
func parseQuery(raw string) (uri.Values, error) {
	q := uri.Values{}
	for raw != "" {
		var pair string
		pair, raw, _ = strings.Cut(raw, "&")
		if pair == "" {
			continue
		}
		name, value, _ := strings.Cut(pair, "=")
		n, err := uri.QueryUnescape(name)
		if err == nil {
			value, err = uri.QueryUnescape(value)
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %q: %v", ErrQueryMalformed, pair, err)
		}
		q[n] = append(q[n], value)
	}
	return q, nil
}
