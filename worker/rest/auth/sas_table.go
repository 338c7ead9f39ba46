package auth

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tabletopdb/tabletop/core"
)

// tablePermissionLetters are the permissions a table SAS may grant.
const tablePermissionLetters = "raud"

// verifyTableSAS checks a table (service) SAS.
func verifyTableSAS(r *Request, f sasFields) (*Principal, error) {
	if f.sv < "2012-02-12" {
		return nil, notWellFormed("A table SAS needs version 2012-02-12 or later.")
	}
	if (f.srk != "" && f.spk == "") || (f.erk != "" && f.epk == "") {
		return nil, notWellFormed("srk needs spk and erk needs epk.")
	}
	sts := tableStringToSign(r.Account.Name, f)
	if !r.Account.matches(sts, f.sig) {
		return nil, authFailed("Signature did not match. String to sign used was " + sts)
	}
	start, expiry, perms, err := withPolicy(r, f)
	if err != nil {
		return nil, err
	}
	granted, ok := parseLetters(perms, tablePermissionLetters)
	if !ok || perms == "" {
		return nil, notWellFormed("The signed permissions '" + perms + "' are not letters of 'raud'.")
	}
	if err := checkConstraints(r, start, expiry, f.spr, f.sip); err != nil {
		return nil, err
	}
	return &Principal{
		Kind: TableSAS, Account: r.Account.Name, perms: granted,
		table: strings.ToLower(f.tn), keys: sasKeyRange(f.spk, f.srk, f.epk, f.erk),
	}, nil
}

// tableStringToSign is the string to sign of a table SAS for sf's version.
func tableStringToSign(account string, f sasFields) string {
	resource := "/table/" + account + "/" + strings.ToLower(f.tn)
	if f.sv < "2015-02-21" {
		resource = "/" + account + "/" + strings.ToLower(f.tn)
	}
	parts := []string{f.sp, f.st, f.se, resource, f.si}
	if f.sv >= "2015-04-05" {
		parts = append(parts, f.sip, f.spr)
	}
	parts = append(parts, f.sv, f.spk, f.srk, f.epk, f.erk)
	return strings.Join(parts, "\n")
}

// withPolicy returns the SAS's start, expiry and permissions, taken from the stored access
// policy si names when there is one. A field set both in the SAS and the policy fails.
func withPolicy(r *Request, f sasFields) (start, expiry, perms string, err error) {
	if f.si == "" {
		return f.st, f.se, f.sp, nil
	}
	p, err := findPolicy(r, f.tn, f.si)
	if err != nil {
		return "", "", "", err
	}
	if (f.st != "" && p.Start != "") || (f.se != "" && p.Expiry != "") || (f.sp != "" && p.Permission != "") {
		return "", "", "", fail(ErrPolicyFieldRepeated, "Access policy fields can be associated with signature or SAS identifier but not both")
	}
	return either(f.st, p.Start), either(f.se, p.Expiry), either(f.sp, p.Permission), nil
}

// either returns a, or b when a is empty.
func either(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// findPolicy returns table's stored access policy with the given id.
func findPolicy(r *Request, table, id string) (core.AccessPolicy, error) {
	if r.Policies == nil {
		return core.AccessPolicy{}, authFailed("The signed identifier '" + id + "' does not exist.")
	}
	policies, err := r.Policies(table)
	if errors.Is(err, core.ErrTableNotFound) {
		policies, err = nil, nil
	}
	if err != nil {
		return core.AccessPolicy{}, fmt.Errorf("look up access policies: %w", err)
	}
	for _, p := range policies {
		if p.ID == id {
			return p, nil
		}
	}
	return core.AccessPolicy{}, authFailed("The signed identifier '" + id + "' does not exist.")
}
