package xmldoc_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/tabletopdb/tabletop/worker/rest/xmldoc"
)

// Example stores a partial Set Service Properties body over the defaults and answers a
// preflight request with the CORS rule it sets.
func Example() {
	body := `<StorageServiceProperties><Cors><CorsRule>
		<AllowedOrigins>https://app.example.com</AllowedOrigins><AllowedMethods>GET,POST</AllowedMethods>
		<AllowedHeaders>x-ms-*,content-type</AllowedHeaders><ExposedHeaders>x-ms-request-id</ExposedHeaders>
		<MaxAgeInSeconds>600</MaxAgeInSeconds></CorsRule></Cors></StorageServiceProperties>`
	update, err := xmldoc.ParseProperties(strings.NewReader(body))
	if err != nil {
		panic(err)
	}
	props := xmldoc.Merge(xmldoc.DefaultProperties(), update)

	res, ok := props.Preflight("https://app.example.com", "POST", xmldoc.SplitList("x-ms-version, Content-Type"))
	fmt.Println(ok, res.Header().Get("Access-Control-Allow-Headers"), res.MaxAge)
	_, ok = props.Preflight("https://evil.example.com", "POST", nil)
	fmt.Println(ok)
	// Output:
	// true x-ms-version,Content-Type 600
	// false
}

// ExampleWriteACL writes a Get Table ACL body.
func ExampleWriteACL() {
	acl, err := xmldoc.ParseACL(strings.NewReader(`<SignedIdentifiers><SignedIdentifier>
		<AccessPolicy><Permission>ar</Permission><Expiry>2025-01-01</Expiry></AccessPolicy><Id>readers</Id>
		</SignedIdentifier></SignedIdentifiers>`))
	if err != nil {
		panic(err)
	}
	if err := xmldoc.WriteACL(os.Stdout, acl); err != nil {
		panic(err)
	}
	// Output:
	// <?xml version="1.0" encoding="utf-8"?><SignedIdentifiers><SignedIdentifier><Id>readers</Id><AccessPolicy><Expiry>2025-01-01T00:00:00.0000000Z</Expiry><Permission>ra</Permission></AccessPolicy></SignedIdentifier></SignedIdentifiers>
}
