package exchange_test

import (
	"fmt"

	"github.com/tabletopdb/tabletop/worker/rest/exchange"
)

// ExampleHeader shows that names are canonical however they are written.
func ExampleHeader() {
	h := exchange.Header{}
	h.Set("x-ms-date", "Sun, 22 Nov 2026 10:00:00 GMT")
	h.Add("accept", "application/json;odata=nometadata")
	fmt.Println(h.Get("X-MS-DATE"))
	fmt.Println(h["Accept"])
	// Output:
	// Sun, 22 Nov 2026 10:00:00 GMT
	// [application/json;odata=nometadata]
}

// ExampleParseMediaType reads a batch's boundary.
func ExampleParseMediaType() {
	mt, params, err := exchange.ParseMediaType(`multipart/mixed; boundary="batch_1"`)
	fmt.Println(mt, params["boundary"], err)
	// Output: multipart/mixed batch_1 <nil>
}
