package xmldoc

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
)

// MaxIdentifierLength is the longest signed identifier (stored access policy Id).
const MaxIdentifierLength = 64

// aclTimeLayout is how Azure writes stored access policy times.
const aclTimeLayout = "2006-01-02T15:04:05.0000000Z"

// wireACL is the <SignedIdentifiers> document; pointers tell absent from empty.
type wireACL struct {
	Items []wireIdentifier `xml:"SignedIdentifier"`
}

type wireIdentifier struct {
	ID     *string     `xml:"Id"`
	Policy *wirePolicy `xml:"AccessPolicy"`
}

type wirePolicy struct {
	Start      *string `xml:"Start"`
	Expiry     *string `xml:"Expiry"`
	Permission *string `xml:"Permission"`
}

// ParseACL reads a Set Table ACL body. An empty body is an empty ACL.
func ParseACL(r io.Reader) ([]core.AccessPolicy, error) {
	body, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read acl: %w", err)
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, nil
	}
	doc, err := decodeACL(body)
	if err != nil {
		return nil, fmt.Errorf("parse acl: %v: %w", err, ErrXMLInvalid)
	}
	if len(doc.Items) > core.MaxAccessPolicies {
		return nil, fmt.Errorf("parse acl: %d signed identifiers, at most %d: %w", len(doc.Items), core.MaxAccessPolicies, ErrXMLInvalid)
	}
	policies := make([]core.AccessPolicy, 0, len(doc.Items))
	for i, it := range doc.Items {
		p, err := it.policy()
		if err != nil {
			return nil, fmt.Errorf("parse acl: signed identifier %d: %w", i, err)
		}
		for _, q := range policies {
			if q.ID == p.ID {
				return nil, fmt.Errorf("parse acl: signed identifier %q given twice: %w", p.ID, ErrXMLInvalid)
			}
		}
		policies = append(policies, p)
	}
	return policies, nil
}

// policy checks and normalizes one signed identifier.
func (it wireIdentifier) policy() (core.AccessPolicy, error) {
	var p core.AccessPolicy
	if it.ID == nil || *it.ID == "" || len([]rune(*it.ID)) > MaxIdentifierLength {
		return p, fmt.Errorf("id must have 1 to %d characters: %w", MaxIdentifierLength, ErrXMLInvalid)
	}
	p.ID = *it.ID
	if it.Policy == nil {
		return p, nil
	}
	var err error
	if p.Start, err = aclTime("start", it.Policy.Start); err != nil {
		return p, err
	}
	if p.Expiry, err = aclTime("expiry", it.Policy.Expiry); err != nil {
		return p, err
	}
	p.Permission, err = aclPermission(it.Policy.Permission)
	return p, err
}

// aclTime normalizes an optional ISO 8601 time to Azure's form.
func aclTime(field string, s *string) (string, error) {
	if s == nil || strings.TrimSpace(*s) == "" {
		return "", nil
	}
	t, err := auth.ParseTime(strings.TrimSpace(*s))
	if err != nil {
		return "", fmt.Errorf("%s %q is not an ISO 8601 time: %w", field, *s, ErrXMLInvalid)
	}
	return t.Format(aclTimeLayout), nil
}

// aclPermission checks letters of "raud", each at most once, and returns them in that
// order.
func aclPermission(s *string) (string, error) {
	if s == nil {
		return "", nil
	}
	text := strings.TrimSpace(*s)
	var out []byte
	for _, c := range []byte("raud") {
		switch strings.Count(text, string(c)) {
		case 0:
		case 1:
			out = append(out, c)
		default:
			return "", fmt.Errorf("permission %q repeats %q: %w", text, c, ErrXMLInvalid)
		}
	}
	if len(out) != len(text) {
		return "", fmt.Errorf("permission %q is not letters of \"raud\": %w", text, ErrXMLInvalid)
	}
	return string(out), nil
}

// aclOut is the <SignedIdentifiers> document as written.
type aclOut struct {
	Items []identifierOut `xml:"SignedIdentifier"`
}

type identifierOut struct {
	ID     string    `xml:"Id"`
	Policy policyOut `xml:"AccessPolicy"`
}

type policyOut struct {
	Start      string `xml:"Start,omitempty"`
	Expiry     string `xml:"Expiry,omitempty"`
	Permission string `xml:"Permission,omitempty"`
}

// WriteACL writes a Get Table ACL body with the XML declaration:
// <SignedIdentifiers><SignedIdentifier><Id/><AccessPolicy><Start/><Expiry/><Permission/>
// </AccessPolicy></SignedIdentifier></SignedIdentifiers>, leaving out unset times and
// permissions.
func WriteACL(w io.Writer, policies []core.AccessPolicy) error {
	doc := aclOut{Items: make([]identifierOut, len(policies))}
	for i, p := range policies {
		doc.Items[i] = identifierOut{ID: p.ID, Policy: policyOut{Start: p.Start, Expiry: p.Expiry, Permission: p.Permission}}
	}
	return writeACLDoc(w, doc)
}
