package rest

import (
	"strings"
)

// kind is what a request path names, once the account is taken off it.
type kind uint8

const (
	kindService  kind = iota + 1 // "/" with restype=service
	kindTables                   // "/Tables" or "/Tables()"
	kindTable                    // "/Tables('t')"
	kindBatch                    // "/$batch"
	kindEntities                 // "/t" or "/t()"
	kindEntity                   // "/t(PartitionKey='p',RowKey='r')"
)

// resource is a parsed request path: its kind, the table it names and, for kindEntity,
// the entity's keys.
type resource struct {
	kind         kind
	table        string
	partitionKey string
	rowKey       string
}

// parseResource parses a decoded path relative to the account ("" or "/Tables('t')").
// One trailing slash is ignored ("/Tables/", "/$batch/", "/t()/"): clients and tools send
// them and Azure accepts them.
func parseResource(p string) (resource, error) {
	p = strings.TrimSuffix(strings.TrimPrefix(p, "/"), "/")
	if p == "" {
		return resource{kind: kindService}, nil
	}
	if strings.Contains(p, "/") && !strings.Contains(p, "(") {
		return resource{}, errBadURI
	}
	switch p {
	case "Tables", "Tables()":
		return resource{kind: kindTables}, nil
	case "$batch":
		return resource{kind: kindBatch}, nil
	}
	open := strings.IndexByte(p, '(')
	if open < 0 {
		return resource{kind: kindEntities, table: p}, nil
	}
	name, args := p[:open], p[open:]
	if !strings.HasSuffix(args, ")") {
		return resource{}, errBadURI
	}
	args = args[1 : len(args)-1]
	if name == "Tables" {
		t, rest, err := quoted(args)
		if err != nil || strings.TrimSpace(rest) != "" {
			return resource{}, errBadURI
		}
		return resource{kind: kindTable, table: t}, nil
	}
	if strings.TrimSpace(args) == "" {
		return resource{kind: kindEntities, table: name}, nil
	}
	return parseKeys(name, args)
}

// parseKeys parses "PartitionKey='p',RowKey='r'" (either order, spaces allowed around the
// separators) for table.
func parseKeys(table, args string) (resource, error) {
	r := resource{kind: kindEntity, table: table}
	var seen [2]bool
	for i := 0; i < 2; i++ {
		if i == 1 {
			var ok bool
			if args, ok = strings.CutPrefix(strings.TrimSpace(args), ","); !ok {
				return resource{}, errBadURI
			}
		}
		name, rest, ok := strings.Cut(strings.TrimSpace(args), "=")
		if !ok {
			return resource{}, errBadURI
		}
		v, rest, err := quoted(rest)
		if err != nil {
			return resource{}, err
		}
		switch strings.TrimSpace(name) {
		case "PartitionKey":
			r.partitionKey, seen[0] = v, true
		case "RowKey":
			r.rowKey, seen[1] = v, true
		default:
			return resource{}, errBadURI
		}
		args = rest
	}
	if !seen[0] || !seen[1] || strings.TrimSpace(args) != "" {
		return resource{}, errBadURI
	}
	return r, nil
}

// quoted reads a single-quoted OData string literal (a doubled quote stands for one) after
// optional spaces, and returns its value and what follows it.
func quoted(s string) (value, rest string, err error) {
	s = strings.TrimLeft(s, " ")
	if !strings.HasPrefix(s, "'") {
		return "", "", errBadURI
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		if s[i] != '\'' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 < len(s) && s[i+1] == '\'' {
			b.WriteByte('\'')
			i++
			continue
		}
		return b.String(), s[i+1:], nil
	}
	return "", "", errBadURI
}
