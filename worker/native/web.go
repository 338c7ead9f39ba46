//go:build !js

package main

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
)

// withWeb serves the playground from dir, when dir holds an index.html: GET /web/ is its
// index.html, GET /web/{file} its files, and GET / redirects to /web/, so the page finds
// its files beside it, as it does when served as plain static files. Every other request
// goes to api, so the web paths never shadow an Azure request (those name an account
// first, or carry a query).
func withWeb(dir string, api http.Handler) http.Handler {
	if _, err := os.Stat(filepath.Join(dir, "index.html")); err != nil {
		return api
	}
	files := http.StripPrefix("/web/", http.FileServer(http.Dir(dir)))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method != http.MethodGet && r.Method != http.MethodHead:
			api.ServeHTTP(w, r)
		case r.URL.Path == "/" && r.URL.RawQuery == "":
			http.Redirect(w, r, "/web/", http.StatusFound)
		case r.URL.Path == "/web/sw.js":
			// The playground's service worker keeps the page at "/" working offline.
			w.Header().Set("Service-Worker-Allowed", "/")
			files.ServeHTTP(w, r)
		case strings.HasPrefix(r.URL.Path, "/web/"):
			files.ServeHTTP(w, r)
		default:
			api.ServeHTTP(w, r)
		}
	})
}
