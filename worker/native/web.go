//go:build !js

package native

import (
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tabletopdb/tabletop/worker/rest/exchange"
	"github.com/tabletopdb/tabletop/worker/rest/nethttp"
)

// withWeb serves the playground from dir, when dir holds an index.html: GET / is its
// index.html, and its files are served beside it (GET /playground/app.js, /tabletop.js,
// /src/…, /dist/…, /sw.js) and under /web/. Every other request goes to api, so the web
// paths never shadow an Azure request: those name an account first, or carry a query,
// and no table name holds the "." every page file has. Every page file is sent with
// "Cache-Control: no-cache": the browser keeps it and revalidates it on each use (a 304
// when unchanged, with the code it compiled from the wasm kept), as the browser tests'
// and benchmark's server (web/browser/serve.js) sends them.
// The files are served by net/http's file server (ranges, If-Modified-Since, content
// types) through nethttp.FromHandler.
func withWeb(dir string, api exchange.Handler) exchange.Handler {
	if _, err := os.Stat(filepath.Join(dir, "index.html")); err != nil {
		return api
	}
	fileServer := revalidated(http.FileServer(http.Dir(dir)))
	files := nethttp.FromHandler(fileServer)
	web := nethttp.FromHandler(http.StripPrefix("/web", fileServer))
	index := nethttp.FromHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		http.ServeFile(w, r, filepath.Join(dir, "index.html"))
	}))
	return exchange.HandlerFunc(func(w exchange.ResponseWriter, r *exchange.Request) {
		switch {
		case r.Method != exchange.MethodGet && r.Method != exchange.MethodHead:
			api.Serve(w, r)
		case r.URL.Path == "/" && r.URL.RawQuery == "":
			index.Serve(w, r)
		case r.URL.Path == "/web/sw.js":
			// The playground's service worker keeps the page at "/" working offline.
			w.Header().Set("Service-Worker-Allowed", "/")
			web.Serve(w, r)
		case strings.HasPrefix(r.URL.Path, "/web/"):
			web.Serve(w, r)
		case r.URL.RawQuery == "" && pageFile(dir, r.URL.Path):
			files.Serve(w, r)
		default:
			api.Serve(w, r)
		}
	})
}

// pageRoots are where the page's files live, relative to it.
var pageRoots = []string{"/playground/", "/src/", "/dist/", "/tabletop.js", "/sw.js"}

// pageFile reports whether path names a file of the page, beside index.html in dir.
func pageFile(dir, path string) bool {
	if !slices.ContainsFunc(pageRoots, func(root string) bool {
		return path == root || strings.HasSuffix(root, "/") && strings.HasPrefix(path, root)
	}) {
		return false
	}
	fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(filepath.Clean(path))))
	return err == nil && fi.Mode().IsRegular()
}

// revalidated sets "Cache-Control: no-cache" on h's responses: kept by the browser,
// revalidated before each use (http.FileServer answers If-Modified-Since with 304).
// Without it a browser guesses how long a file with a Last-Modified stays fresh, and may
// run a page's old module after it changed.
func revalidated(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		h.ServeHTTP(w, r)
	})
}
