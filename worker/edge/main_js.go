//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"strings"
	"syscall/js"

	"github.com/tabletopdb/tabletop/worker/edge/object"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
)

// accountsVar is the Worker secret naming the accounts served, in the form of the native
// -accounts flag. Unlike the native flag, empty means no account: a deployment never
// serves the development account unless it is configured explicitly.
const accountsVar = "TABLETOP_ACCOUNTS"

// errNoSuchAccount means the object was started for an account that is not configured.
var errNoSuchAccount = errors.New("account not configured")

// stopAt, when "main", makes the program tell the glue it is ready as soon as main begins,
// opening no store: bench-start.mjs builds it so (-ldflags=-X main.stopAt=main) to time
// the Go runtime's start and this program's package initialisation apart from the store's
// opening, with the same code linked. Empty in every other build.
var stopAt string

func main() {
	if stopAt == "main" {
		ready()
		select {}
	}
	context := js.Global().Get("context")
	binding := context.Get("binding")
	obj, err := start(binding, context.Get("env"))
	if err != nil {
		binding.Set("startError", err.Error())
		ready()
		return
	}
	served = obj
	binding.Set("call", js.FuncOf(obj.JSCall))
	ready()
	select {}
}

// ready tells the glue that binding is set up: the import the glue's gohost.mjs gives
// the instance, under the name syumai/workers' shim uses for it.
//
//go:wasmimport workers ready
func ready()

// start opens the object of the account binding names, from the storage it gives, with
// the Worker's environment env (its secrets and variables).
func start(binding, env js.Value) (*object.Object, error) {
	acct, err := account(binding.Get("account").String(), getenv(env, accountsVar))
	if err != nil {
		return nil, err
	}
	retention, err := parseRetention(getenv(env, retentionVar))
	if err != nil {
		return nil, err
	}
	return object.Open(acct, binding.Get("storage"), retention)
}

// getenv is the string value of the Worker variable or secret name, "" if it is not set.
func getenv(env js.Value, name string) string {
	if v := env.Get(name); v.Type() == js.TypeString {
		return v.String()
	}
	return ""
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
