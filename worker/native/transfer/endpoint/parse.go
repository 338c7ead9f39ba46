package endpoint

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// ErrEndpoint is returned for an endpoint string that is neither a usable connection
// string nor a URL.
var ErrEndpoint = errors.New("endpoint invalid")

// devKey is Azurite's and Tabletop's well-known development account key, which Microsoft
// publishes for UseDevelopmentStorage=true.
const devKey = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="

// Parse reads an endpoint: a connection string with AccountName, AccountKey and
// TableEndpoint (or UseDevelopmentStorage=true, http://127.0.0.1:10002/devstoreaccount1), or
// an http(s) URL of the table service whose query string holds a SAS. A URL's account is
// its first path segment when it has one (Azurite and Tabletop), otherwise the first label
// of its host name (Azure).
func Parse(s string) (*Client, error) {
	if strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://") {
		return parseURL(s)
	}
	return parseConnectionString(s)
}

func parseURL(s string) (*Client, error) {
	u, err := url.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrEndpoint, err)
	}
	c := &Client{sas: u.RawQuery}
	u.RawQuery = ""
	c.base = strings.TrimSuffix(u.String(), "/")
	c.account, _, _ = strings.Cut(strings.TrimPrefix(u.Path, "/"), "/")
	if c.account == "" {
		c.account, _, _ = strings.Cut(u.Hostname(), ".")
	}
	if c.sas == "" {
		return nil, fmt.Errorf("%w: the URL %s has no shared access signature; give a SAS or a connection string", ErrEndpoint, c.base)
	}
	return c.init(), nil
}

func parseConnectionString(s string) (*Client, error) {
	kv := map[string]string{}
	for _, part := range strings.Split(s, ";") {
		if k, v, ok := strings.Cut(strings.TrimSpace(part), "="); ok {
			kv[strings.ToLower(k)] = v
		}
	}
	if strings.EqualFold(kv["usedevelopmentstorage"], "true") {
		kv["accountname"], kv["accountkey"] = "devstoreaccount1", devKey
		kv["tableendpoint"] = "http://127.0.0.1:10002/devstoreaccount1"
	}
	name, key, endpoint := kv["accountname"], kv["accountkey"], kv["tableendpoint"]
	if endpoint == "" && name != "" {
		proto := kv["defaultendpointsprotocol"]
		if proto == "" {
			proto = "https"
		}
		suffix := kv["endpointsuffix"]
		if suffix == "" {
			suffix = "core.windows.net"
		}
		endpoint = proto + "://" + name + ".table." + suffix
	}
	if name == "" || endpoint == "" {
		return nil, fmt.Errorf("%w: a connection string needs AccountName and AccountKey (or SharedAccessSignature), or UseDevelopmentStorage=true", ErrEndpoint)
	}
	c := &Client{account: name, base: strings.TrimSuffix(endpoint, "/"), sas: strings.TrimPrefix(kv["sharedaccesssignature"], "?")}
	if c.sas == "" {
		k, err := base64.StdEncoding.DecodeString(key)
		if err != nil || len(k) == 0 {
			return nil, fmt.Errorf("%w: AccountKey is not base64", ErrEndpoint)
		}
		c.key = k
	}
	if _, err := url.Parse(c.base); err != nil {
		return nil, fmt.Errorf("%w: TableEndpoint: %w", ErrEndpoint, err)
	}
	return c.init(), nil
}
