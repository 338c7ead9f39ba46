//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"strings"
	"syscall/js"

	"github.com/syumai/workers"
	"github.com/syumai/workers/cloudflare"

	"github.com/tabletopdb/tabletop/worker/edge/object"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
)

// accountsVar is the Worker secret naming the accounts served, in the form of the native
// -accounts flag. Unlike the native flag, empty means no account: a deployment never
// serves the development account unless it is configured explicitly.
const accountsVar = "TABLETOP_ACCOUNTS"

// errNoSuchAccount means the object was started for an account that is not configured.
var errNoSuchAccount = errors.New("account not configured")

func main() {
	binding := js.Global().Get("context").Get("binding")
	obj, err := start(binding)
	if err != nil {
		binding.Set("startError", err.Error())
		workers.Ready()
		return
	}
	binding.Set("serve", js.FuncOf(obj.JSServe))
	binding.Set("call", js.FuncOf(obj.JSCall))
	workers.Ready()
	select {}
}

// start opens the object of the account binding names, from the storage it gives.
func start(binding js.Value) (*object.Object, error) {
	acct, err := account(binding.Get("account").String(), cloudflare.Getenv(accountsVar))
	if err != nil {
		return nil, err
	}
	retention, err := parseRetention(cloudflare.Getenv(retentionVar))
	if err != nil {
		return nil, err
	}
	return object.Open(acct, binding.Get("storage"), retention)
}

// account finds name among the accounts configured (the native -accounts form).
func account(name, configured string) (auth.Account, error) {
	if strings.TrimSpace(configured) == "" {
		return auth.Account{}, fmt.Errorf("start object of %q: %w: %s is not set", name, errNoSuchAccount, accountsVar)
	}
	accts, err := auth.ParseAccounts(configured)
	if err != nil {
		return auth.Account{}, err
	}
	for _, a := range accts {
		if a.Name == name {
			return a, nil
		}
	}
	return auth.Account{}, fmt.Errorf("start object of %q: %w", name, errNoSuchAccount)
}
