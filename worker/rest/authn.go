package rest

import (
	"strings"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
	"github.com/tabletopdb/tabletop/worker/rest/uri"
)

// authenticate verifies the request's Shared Key, Shared Key Lite, SAS or (with
// Options.Tokens) bearer token credentials.
// The client's address is parsed only for a request without an Authorization header: a
// SAS may restrict it (sip), a Shared Key never does.
func (c *call) authenticate() error {
	r := auth.Request{
		HTTP:          c.r,
		Account:       c.acct.Account,
		CanonicalPath: auth.PathAsSent(c.r),
		Query:         c.query,
		Policies:      c.acct.policies,
		Now:           c.now,
		Secure:        c.secure(),
		Tokens:        c.h.tokens,
	}
	if c.r.Header.Get("Authorization") == "" {
		r.ClientIP = clientIP(c.r.RemoteAddr)
	}
	p, err := auth.Verify(r)
	if err != nil {
		return err
	}
	c.principal = p
	return nil
}

// storedPolicies returns a table's stored access policies, for a SAS that names one. New
// keeps it as the account's policies, so that no request makes a closure of its own.
func (a *Account) storedPolicies(table string) (ps []core.AccessPolicy, err error) {
	err = a.Store.View(func(tx *core.Tx) error {
		t, err := tx.Table(table)
		if err == nil {
			ps = t.Policies
		}
		return err
	})
	return ps, err
}

// authorize checks that the request's credentials allow operation op on table.
func (c *call) authorize(op auth.Operation, table string) error {
	return c.principal.Authorize(auth.For(op, table))
}

// authorizeEntity checks that the credentials allow op on entity (pk, rk) of table.
func (c *call) authorizeEntity(op auth.Operation, table, pk, rk string) error {
	return c.principal.Authorize(auth.For(op, table).WithKey(pk, rk))
}

// clientIP is the address of a RemoteAddr ("ip:port", "[ipv6]:port" or a bare address),
// the zero Addr if it has none. The form is told by its colons (an IPv6 address with a
// port is bracketed, so one colon means IPv4 and a port), so that the edge's bare
// addresses (Cf-Connecting-Ip) are parsed once, without a failed attempt per request.
func clientIP(remote string) uri.Addr {
	var a uri.Addr
	var err error
	switch {
	case remote == "":
		return uri.Addr{}
	case remote[0] == '[' || strings.Count(remote, ":") == 1:
		a, _, err = uri.ParseAddrPort(remote)
	default:
		a, err = uri.ParseAddr(remote)
	}
	if err != nil {
		return uri.Addr{}
	}
	if a.Zone() != "" {
		return uri.Addr{}
	}
	return a.Unmap()
}
