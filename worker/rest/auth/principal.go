package auth

import (
	"strconv"
	"strings"

	"github.com/tabletopdb/tabletop/core/stored"
)

// Kind is how a request was authenticated.
type Kind uint8

// The kinds of credentials.
const (
	SharedKey Kind = iota + 1
	SharedKeyLite
	TableSAS
	AccountSAS
	// Bearer is an OAuth (Microsoft Entra ID) token, authorizing like the account key.
	Bearer
)

// String returns the kind's name, such as "SharedKeyLite".
func (k Kind) String() string {
	switch k {
	case SharedKey:
		return "SharedKey"
	case SharedKeyLite:
		return "SharedKeyLite"
	case TableSAS:
		return "TableSAS"
	case AccountSAS:
		return "AccountSAS"
	case Bearer:
		return "Bearer"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Principal is an authenticated request: the account and, for a SAS, what it grants.
type Principal struct {
	Kind    Kind
	Account string

	perms     Permission      // SAS permissions
	resources ResourceType    // account SAS resource types
	table     string          // table SAS: tn, lower case
	keys      stored.KeyRange // table SAS key range
}

// Table returns the table a table SAS is for (lower case), or "".
func (p *Principal) Table() string { return p.table }

// Permission returns what a SAS grants; Shared Key grants everything.
func (p *Principal) Permission() Permission {
	if p.Kind == SharedKey || p.Kind == SharedKeyLite || p.Kind == Bearer {
		return Read | Add | Update | Delete | Write | List | Create
	}
	return p.perms
}

// KeyRange returns the part of the table's key order the principal may read: the key
// range of a table SAS, the whole table otherwise. Query Entities must intersect its
// scan with it, as Azure returns only entities within a SAS's range.
func (p *Principal) KeyRange() stored.KeyRange {
	if p.Kind != TableSAS {
		return stored.WholeTable
	}
	return p.keys
}

// Authorize checks that the principal may perform a. Shared Key and a bearer token may do
// everything; a SAS only what it grants (see the package documentation for the rules and
// errors).
func (p *Principal) Authorize(a Access) error {
	switch p.Kind {
	case SharedKey, SharedKeyLite, Bearer:
		return nil
	case TableSAS:
		return p.authorizeTable(a)
	case AccountSAS:
		return p.authorizeAccount(a)
	}
	return authFailed("unknown credential kind")
}

func (p *Principal) authorizeTable(a Access) error {
	if a.OwnerOnly || a.ResourceType != Object || !strings.EqualFold(a.Table, p.table) {
		return fail(ErrAuthorizationFailure, "a table SAS grants entity operations on table '"+p.table+"' only")
	}
	if missing := a.Permission &^ p.perms; missing != 0 {
		return fail(ErrPermissionMismatch, "missing permission '"+missing.String()+"'")
	}
	if a.HasKey && !inRange(p.keys, a.PartitionKey, a.RowKey) {
		return authFailed("The entity (PartitionKey '" + a.PartitionKey + "', RowKey '" + a.RowKey +
			"') is outside the key range of the shared access signature.")
	}
	return nil
}

func (p *Principal) authorizeAccount(a Access) error {
	if a.OwnerOnly {
		return fail(ErrAuthorizationFailure, "only the account owner (Shared Key) may perform this operation")
	}
	if a.ResourceType&^p.resources != 0 {
		return fail(ErrResourceTypeMismatch, "")
	}
	granted := p.perms
	if granted&Write != 0 {
		granted |= Create // Create Table needs c or w
	}
	if missing := a.Permission &^ granted; missing != 0 {
		return fail(ErrPermissionMismatch, "missing permission '"+missing.String()+"'")
	}
	return nil
}

// inRange reports whether entity (pk, rk) lies in r.
func inRange(r stored.KeyRange, pk, rk string) bool {
	b := stored.KeyAt(pk, rk)
	return b >= r.From && b < r.To
}

// sasKeyRange is the key range of a table SAS: inclusive tuple bounds, a missing start
// or end leaving that side open, and a partition key alone bounding whole partitions.
func sasKeyRange(spk, srk, epk, erk string) stored.KeyRange {
	r := stored.WholeTable
	switch {
	case spk != "" && srk != "":
		r.From = stored.KeyAt(spk, srk)
	case spk != "":
		r.From = stored.PartitionStart(spk)
	}
	switch {
	case epk != "" && erk != "":
		r.To = stored.KeyAfter(epk, erk)
	case epk != "":
		r.To = stored.PartitionEnd(epk)
	}
	return r
}
