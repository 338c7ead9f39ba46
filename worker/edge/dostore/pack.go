package dostore

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrBadKey means a key is empty or holds a tab, a newline or U+0001, which the packed
// form and the storage's parts use.
var ErrBadKey = errors.New("bad key")

// ErrBadListing means a listing from the adapter does not match its data.
var ErrBadListing = errors.New("malformed listing")

// checkKey returns ErrBadKey for a key that cannot be stored.
func checkKey(key string) error {
	if key == "" || strings.ContainsAny(key, "\t\n\x01") {
		return fmt.Errorf("check key %q: %w", key, ErrBadKey)
	}
	return nil
}

// packed is keys and values in the adapter's form: "key\tlength\n" lines and the values
// back to back.
type packed struct {
	text strings.Builder
	data []byte
}

func (p *packed) add(key string, value []byte) {
	p.text.WriteString(key + "\t" + strconv.Itoa(len(value)) + "\n")
	p.data = append(p.data, value...)
}

// unpack calls fn with each key and value of a listing, in order.
func unpack(text string, data []byte, fn func(key string, value []byte) error) error {
	off := 0
	for text != "" {
		var line string
		line, text, _ = strings.Cut(text, "\n")
		key, size, ok := strings.Cut(line, "\t")
		n, err := strconv.Atoi(size)
		if !ok || err != nil || n < 0 || n > len(data)-off {
			return fmt.Errorf("unpack line %q: %w", line, ErrBadListing)
		}
		if err := fn(key, data[off:off+n:off+n]); err != nil {
			return err
		}
		off += n
	}
	if off != len(data) {
		return fmt.Errorf("unpack: %d bytes left over: %w", len(data)-off, ErrBadListing)
	}
	return nil
}
