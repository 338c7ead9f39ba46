package main

import (
	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/wire"
)

// getAccessPolicy answers a table's stored access policies as a JSON array of
// {"id","start","expiry","permission"}; its one argument is the table.
func (s *store) getAccessPolicy(a [][]byte) ([]byte, error) {
	var t *core.Table
	err := s.db.View(func(tx *core.Tx) (err error) {
		t, err = tx.Table(arg(a, 0))
		return err
	})
	if err != nil {
		return nil, err
	}
	b := []byte{'['}
	for i, p := range t.Policies {
		if i > 0 {
			b = append(b, ',')
		}
		b = wire.AppendString(append(b, `{"id":`...), p.ID)
		b = wire.AppendString(append(b, `,"start":`...), p.Start)
		b = wire.AppendString(append(b, `,"expiry":`...), p.Expiry)
		b = wire.AppendString(append(b, `,"permission":`...), p.Permission)
		b = append(b, '}')
	}
	return append(b, ']'), nil
}

// setAccessPolicy replaces a table's stored access policies: its arguments are the table,
// then id, start, expiry and permission of each policy ("" where not set).
func (s *store) setAccessPolicy(a [][]byte) error {
	if len(a) < 1 || (len(a)-1)%4 != 0 {
		return ErrActionInvalid
	}
	policies := make([]core.AccessPolicy, (len(a)-1)/4)
	for i := range policies {
		f := a[1+4*i:]
		policies[i] = core.AccessPolicy{ID: string(f[0]), Start: string(f[1]), Expiry: string(f[2]), Permission: string(f[3])}
		if p := policies[i]; p.ID == "" || len(p.ID) > 64 {
			return ErrPolicyInvalid
		}
	}
	return s.db.Update(func(tx *core.Tx) error { return tx.SetAccessPolicies(arg(a, 0), policies) })
}
