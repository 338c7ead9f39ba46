package object

import (
	"fmt"
	"strings"

	"github.com/tabletopdb/tabletop/worker/rest"
)

// corsLines answers the internal operation cors, "origin\0method\0name…" (the request's
// Origin and method, then the names of an answer's headers) with the header lines
// ("Name: value\n") account's CORS rules add to that answer: "" for none. The entry
// Worker asks it for the answers it builds itself, so that a browser reads their error
// codes as it reads the handler's.
func corsLines(account *rest.Account, arg string) (string, error) {
	f := strings.Split(arg, "\x00")
	if len(f) < 2 || f[0] == "" {
		return "", fmt.Errorf("read origin and method of %q: %w", arg, ErrBadArgument)
	}
	h, err := account.CORSHeaders(f[0], f[1], f[2:])
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for name, values := range h {
		for _, v := range values {
			b.WriteString(name + ": " + v + "\n")
		}
	}
	return b.String(), nil
}
