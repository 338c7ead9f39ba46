// Package entra verifies OAuth bearer tokens of Microsoft Entra ID the way a local server
// can: Tokens checks a token's claims (lifetime, issuer, audience) and not its signature,
// as Azurite's "basic" OAuth does, so that code getting its tokens from Entra ID
// (DefaultAzureCredential and the like) runs against the native server's -oauth. It is a
// package of its own so that the edge build, which takes no tokens, links none of it
// (encoding/json among it).
package entra

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"time"

	"github.com/tabletopdb/tabletop/worker/rest/auth"
)

// Tokens is the auth.TokenVerifier of a local server (the native server's -oauth): it
// reads a JWT's claims without verifying its signature and accepts it when it is within
// its lifetime (nbf, exp), was issued by Microsoft Entra ID (iss) and is meant for Azure
// Storage or this account's Table service (aud).
type Tokens struct{}

// entraIssuers are the prefixes of the issuers of Microsoft Entra ID tokens, in the
// public and the sovereign clouds.
var entraIssuers = []string{
	"https://sts.windows.net/", "https://login.microsoftonline.com/",
	"https://sts.chinacloudapi.cn/", "https://login.chinacloudapi.cn/", "https://login.partner.microsoftonline.cn/",
	"https://login.microsoftonline.us/", "https://sts.microsoftonline.de/", "https://login.microsoftonline.de/",
}

// tableDomains are the domains of the Table service's account endpoints
// (https://{account}.{domain}), in the public and the sovereign clouds.
var tableDomains = []string{"table.core.windows.net", "table.core.chinacloudapi.cn", "table.core.usgovcloudapi.net", "table.core.cloudapi.de"}

// storageAudiences are the audiences of Azure Storage as a whole: its resource URI and
// its application ID.
var storageAudiences = []string{"https://storage.azure.com", "https://storage.azure.com/", "e406a681-f3d4-42a8-90b6-c2b029497af1"}

// claims are the claims of a token that Tokens checks, and its tenant.
type claims struct {
	Aud json.RawMessage `json:"aud"`
	Iss string          `json:"iss"`
	Nbf *float64        `json:"nbf"`
	Exp *float64        `json:"exp"`
	Tid string          `json:"tid"`
}

// VerifyToken checks token's claims for the request's account. A token refused is
// auth.ErrInvalidToken, whose challenge names the token's tenant.
func (Tokens) VerifyToken(r *auth.Request, token string) (*auth.Principal, error) {
	c, err := readClaims(token)
	if err != nil {
		return nil, err
	}
	failed := func(detail string) error { return auth.TokenRefused(c.tenant(), detail) }
	now := r.Now
	if now.IsZero() {
		now = time.Now()
	}
	switch {
	case c.Nbf == nil || c.Exp == nil:
		return nil, failed("The token has no lifetime (nbf, exp).")
	case now.Before(unixTime(*c.Nbf)):
		return nil, failed("Lifetime validation failed. The token is not valid yet.")
	case now.After(unixTime(*c.Exp)):
		return nil, failed("Lifetime validation failed. The token is expired.")
	case !entraIssuer(c.Iss):
		return nil, failed("Issuer validation failed. The issuer '" + c.Iss + "' is not Microsoft Entra ID.")
	case !forAccount(c.Aud, r.Account.Name):
		return nil, failed("Audience validation failed. The audience " + string(c.Aud) + " is not Azure Storage or this account's Table service.")
	}
	return &auth.Principal{Kind: auth.Bearer, Account: r.Account.Name}, nil
}

// readClaims decodes the claims of a JWT (header.claims.signature, base64url).
func readClaims(token string) (*claims, error) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return nil, auth.TokenRefused("", "The bearer token is not a JWT.")
	}
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	var c claims
	if err == nil {
		err = json.Unmarshal(raw, &c)
	}
	if err != nil {
		return nil, auth.TokenRefused("", "The bearer token's claims do not decode.")
	}
	return &c, nil
}

// tenant is the tenant a token names: its tid claim, else the first path segment of an
// issuer of Microsoft Entra ID (https://sts.windows.net/{tenant}/,
// https://login.microsoftonline.com/{tenant}/v2.0), else "".
func (c *claims) tenant() string {
	if c.Tid != "" {
		return c.Tid
	}
	for _, p := range entraIssuers {
		if rest, ok := strings.CutPrefix(c.Iss, p); ok {
			tenant, _, _ := strings.Cut(rest, "/")
			return tenant
		}
	}
	return ""
}

// unixTime is the time of a JWT NumericDate.
func unixTime(seconds float64) time.Time { return time.Unix(0, int64(seconds*1e9)) }

// entraIssuer reports whether iss is a Microsoft Entra ID issuer.
func entraIssuer(iss string) bool {
	for _, p := range entraIssuers {
		if strings.HasPrefix(iss, p) {
			return true
		}
	}
	return false
}

// forAccount reports whether the audience claim (a string or a list of them) names Azure
// Storage or account's Table service.
func forAccount(aud json.RawMessage, account string) bool {
	var list []string
	var one string
	if json.Unmarshal(aud, &one) == nil {
		list = []string{one}
	} else if json.Unmarshal(aud, &list) != nil {
		return false
	}
	for _, a := range list {
		for _, s := range storageAudiences {
			if a == s {
				return true
			}
		}
		if tableAudienceOf(a) == account {
			return true
		}
	}
	return false
}

// tableAudienceOf returns the account an audience names as its Table service endpoint
// (https://{account}.table.core.windows.net, a trailing slash allowed, any cloud), "" if
// it names none.
func tableAudienceOf(aud string) string {
	host, ok := strings.CutPrefix(strings.TrimSuffix(aud, "/"), "https://")
	account, domain, found := strings.Cut(host, ".")
	if !ok || !found || account == "" {
		return ""
	}
	for _, d := range tableDomains {
		if domain == d {
			return account
		}
	}
	return ""
}
