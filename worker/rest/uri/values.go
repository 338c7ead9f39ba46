package uri

import (
	"errors"
	"strings"
)

// Values maps a query's parameter names to their values, as url.Values does.
type Values map[string][]string

// Get returns the first value of name, "" if there is none.
func (v Values) Get(name string) string {
	if vs := v[name]; len(vs) > 0 {
		return vs[0]
	}
	return ""
}

// maxParams is how many parameters ParseQuery reads at most (net/url's default).
const maxParams = 10000

// ParseQuery parses a query string as url.ParseQuery does: "&"-separated name=value
// pairs, each unescaped by QueryUnescape. A pair holding a ";" or a malformed escape is
// left out; the first such problem is returned with the pairs that were read.
func ParseQuery(query string) (Values, error) {
	m := Values{}
	if strings.Count(query, "&")+1 > maxParams {
		return m, errors.New("number of URL query parameters exceeded limit")
	}
	var err error
	for query != "" {
		var pair string
		pair, query, _ = strings.Cut(query, "&")
		if strings.Contains(pair, ";") {
			err = errors.New("invalid semicolon separator in query")
			continue
		}
		if pair == "" {
			continue
		}
		name, value, _ := strings.Cut(pair, "=")
		name, err1 := QueryUnescape(name)
		if err1 == nil {
			value, err1 = QueryUnescape(value)
		}
		if err1 != nil {
			if err == nil {
				err = err1
			}
			continue
		}
		m[name] = append(m[name], value)
	}
	return m, err
}
