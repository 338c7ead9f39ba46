package core

import "github.com/tabletopdb/tabletop/core/stored"

// Meta returns the store metadata value named name ("" and false when unset). Hosts keep
// account-level settings here, such as the service properties document.
func (tx *Tx) Meta(name string) (string, bool, error) {
	return tx.get(stored.MetaPrefix + "user/" + name)
}

// SetMeta sets the store metadata value named name; it is durable like any write.
func (tx *Tx) SetMeta(name, value string) error { return tx.set(stored.MetaPrefix+"user/"+name, value) }
