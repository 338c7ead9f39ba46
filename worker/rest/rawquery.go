package rest

import (
	"fmt"
	"net/url"
	"strings"
)

// parseQuery parses a request's raw query string as Azure reads it: parameters separated
// by "&" only (a ";" is part of a value, as in $filter=RowKey eq 'a;b'), names and values
// percent-decoded, "+" a space. A malformed escape is ErrQueryMalformed: Go's
// url.Values would drop that parameter silently, and a $filter, $top or continuation
// dropped would answer as if it were absent.
func parseQuery(raw string) (url.Values, error) {
	q := url.Values{}
	for raw != "" {
		var pair string
		pair, raw, _ = strings.Cut(raw, "&")
		if pair == "" {
			continue
		}
		name, value, _ := strings.Cut(pair, "=")
		n, err := url.QueryUnescape(name)
		if err == nil {
			value, err = url.QueryUnescape(value)
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %q: %v", ErrQueryMalformed, pair, err)
		}
		q[n] = append(q[n], value)
	}
	return q, nil
}
