package bridge

import (
	"strings"
	"sync"

	"github.com/tabletopdb/tabletop/worker/rest/exchange"
)

// maxNames bounds how many header names nameCache keeps, and maxNameLen how long one may
// be: a client cannot make it grow without bound.
const (
	maxNames   = 256
	maxNameLen = 64
)

// nameCache keeps the canonical spelling of the header names requests carry (the glue
// hands them over in lower case, as the Workers runtime's Headers spells them), so that
// each is canonicalized once, not once per request.
type nameCache struct {
	mu sync.Mutex
	m  map[string]string
}

// names is the cache parseHeader canonicalizes through.
var names = nameCache{m: make(map[string]string, maxNames)}

// canonical is exchange.CanonicalKey(name).
func (c *nameCache) canonical(name string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if k, ok := c.m[name]; ok {
		return k
	}
	k := exchange.CanonicalKey(name)
	if len(c.m) < maxNames && len(name) <= maxNameLen {
		// Copies: name and k may share the memory of the whole request head.
		c.m[strings.Clone(name)] = strings.Clone(k)
	}
	return k
}
