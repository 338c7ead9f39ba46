package wire_test

import (
	"fmt"

	"github.com/tabletopdb/tabletop/core/wire"
)

func Example() {
	e, err := wire.DecodeEntity([]byte(`{"PartitionKey":"p","RowKey":"1","Age":42,"Id@odata.type":"Edm.Int64","Id":"9007199254740993"}`))
	if err != nil {
		panic(err)
	}
	level, _ := wire.ParseFormat("application/json;odata=minimalmetadata")
	c := &wire.Context{Metadata: level, BaseURL: "http://127.0.0.1:10002/devstoreaccount1", Account: "devstoreaccount1", Table: "People"}
	fmt.Printf("%s\n", wire.AppendEntity(nil, e, c))
	// Output:
	// {"odata.metadata":"http://127.0.0.1:10002/devstoreaccount1/$metadata#People/@Element","odata.etag":"W/\"datetime'0001-01-01T00%3A00%3A00.0000000Z'\"","PartitionKey":"p","RowKey":"1","Timestamp":"0001-01-01T00:00:00.0000000Z","Age":42,"Id@odata.type":"Edm.Int64","Id":"9007199254740993"}
}

func ExampleParseFormat() {
	for _, accept := range []string{"application/json;odata=fullmetadata", "application/json", "application/atom+xml"} {
		m, ok := wire.ParseFormat(accept)
		fmt.Println(m, ok)
	}
	// Output:
	// fullmetadata true
	// minimalmetadata true
	// minimalmetadata false
}
