// Package uri reads request targets, query strings and IP addresses as Go's net/url and
// net/netip read them, in the few ways the REST layer needs: the edge build links neither
// (nor unique and weak, which net/netip brings), as together they would add much to the
// edge wasm for these few parsers.
// Each function names the standard one it stands for; the fuzz tests compare the two on
// arbitrary input, results and error texts alike (except the detail after "invalid host: "
// when a bracketed host is not an IPv6 address, which net/netip words itself).
package uri
