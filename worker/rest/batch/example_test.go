package batch_test

import (
	"fmt"
	"strings"

	"github.com/tabletopdb/tabletop/worker/rest/batch"
	"github.com/tabletopdb/tabletop/worker/rest/exchange"
)

func Example() {
	body := "--batch_1\r\n" +
		"Content-Type: multipart/mixed; boundary=changeset_2\r\n\r\n" +
		"--changeset_2\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n" +
		"POST http://127.0.0.1:10002/devstoreaccount1/t HTTP/1.1\r\n" +
		"Content-Type: application/json\r\nPrefer: return-no-content\r\n\r\n" +
		`{"PartitionKey":"p","RowKey":"1"}` + "\r\n" +
		"--changeset_2\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n" +
		"DELETE http://127.0.0.1:10002/devstoreaccount1/t(PartitionKey='p',RowKey='2') HTTP/1.1\r\n" +
		"If-Match: *\r\n\r\n\r\n" +
		"--changeset_2--\r\n--batch_1--\r\n"
	subs, err := batch.ReadRequest(strings.NewReader(body), "multipart/mixed; boundary=batch_1")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range subs {
		fmt.Println(strings.TrimSpace(s.Method + " " + s.URL.Path + " " + string(s.Body)))
	}

	// The delete failed: the response holds only its result.
	failed := exchange.Header{"Content-Type": {"application/json;odata=minimalmetadata;streaming=true;charset=utf-8"}}
	rs := []batch.Response{
		{Status: exchange.StatusNoContent, Header: exchange.Header{"ETag": {`W/"datetime'2021-09-08T18%3A58%3A49.9965167Z'"`}}},
		{Status: exchange.StatusNotFound, Header: failed, Body: []byte(`{"odata.error":{"code":"ResourceNotFound"}}`)},
	}
	var out strings.Builder
	if err := batch.WriteResponse(&out, "batchresponse_3", "changesetresponse_4", rs); err != nil {
		fmt.Println(err)
		return
	}
	for _, line := range strings.SplitAfter(strings.TrimSuffix(out.String(), "\r\n"), "\r\n") {
		fmt.Printf("%q\n", line)
	}
	// Output:
	// POST /devstoreaccount1/t {"PartitionKey":"p","RowKey":"1"}
	// DELETE /devstoreaccount1/t(PartitionKey='p',RowKey='2')
	// "--batchresponse_3\r\n"
	// "Content-Type: multipart/mixed; boundary=changesetresponse_4\r\n"
	// "\r\n"
	// "--changesetresponse_4\r\n"
	// "Content-Type: application/http\r\n"
	// "Content-Transfer-Encoding: binary\r\n"
	// "\r\n"
	// "HTTP/1.1 404 Not Found\r\n"
	// "Content-Type: application/json;odata=minimalmetadata;streaming=true;charset=utf-8\r\n"
	// "\r\n"
	// "{\"odata.error\":{\"code\":\"ResourceNotFound\"}}\r\n"
	// "--changesetresponse_4--\r\n"
	// "--batchresponse_3--"
}
