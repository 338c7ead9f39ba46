package batch

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/tabletopdb/tabletop/core/model"
)

const base = "http://127.0.0.1:10002/devstoreaccount1/mytable"

// goSDKOps is what testdata/go_sdk_request.txt (aztables v1.4.1) holds.
var goSDKOps = []wantOp{
	{method: "POST", url: base + "?%24format=application%2Fjson%3Bodata%3Dminimalmetadata",
		header: map[string]string{"Prefer": "return-no-content", "Content-Type": "application/json",
			"Content-Length": "98", "Dataserviceversion": "", "X-Ms-Version": ""},
		body: `{"Big":"9007199254740993","Big@odata.type":"Edm.Int64","Name":"a","PartitionKey":"p","RowKey":"1"}`},
	{method: "PATCH", url: base + "(PartitionKey='p',RowKey='2')",
		header: map[string]string{"If-Match": `W/"datetime'2021-08-31T15%3A40%3A49.6724407Z'"`},
		body:   `{"Name":"b","PartitionKey":"p","RowKey":"2"}`},
	{method: "PUT", url: base + "(PartitionKey='p',RowKey='3')", absent: []string{"If-Match"},
		body: `{"Name":"c","PartitionKey":"p","RowKey":"3"}`},
	{method: "DELETE", url: base + "(PartitionKey='p',RowKey='4')?%24format=application%2Fjson%3Bodata%3Dminimalmetadata",
		header: map[string]string{"If-Match": "*"}},
}

// jsSDKOps is what testdata/js_sdk_request.txt (@azure/data-tables 13.3.2) holds.
var jsSDKOps = []wantOp{
	{method: "POST", url: base,
		header: map[string]string{"Prefer": "return-no-content", "Dataserviceversion": "3.0",
			"Content-Type": "application/json;odata=nometadata"},
		absent: []string{"X-Ms-Version", "Content-Length"},
		body:   `{"PartitionKey":"p","RowKey":"1","Name":"a","Big":"9007199254740993","Big@odata.type":"Edm.Int64"}`},
	{method: "PATCH", url: base + "(PartitionKey='p',RowKey='2')",
		header: map[string]string{"If-Match": `W/"datetime'2021-08-31T15%3A40%3A49.6724407Z'"`},
		body:   `{"PartitionKey":"p","RowKey":"2","Name":"b"}`},
	{method: "PUT", url: base + "(PartitionKey='p',RowKey='3')", absent: []string{"If-Match"},
		body: `{"PartitionKey":"p","RowKey":"3","Name":"c"}`},
	{method: "DELETE", url: base + "(PartitionKey='p',RowKey='4')", header: map[string]string{"If-Match": "*"}},
}

func TestReadRequest(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		for _, tc := range []struct {
			name, file string
			lf         bool
			want       []wantOp
		}{
			{"GoSDK", "go_sdk_request.txt", false, goSDKOps},
			{"JSSDK", "js_sdk_request.txt", false, jsSDKOps},
			{"GoSDKLineFeeds", "go_sdk_request.txt", true, goSDKOps},
			{"JSSDKLineFeeds", "js_sdk_request.txt", true, jsSDKOps},
		} {
			t.Run(tc.name, func(t *testing.T) {
				body, ct := fixture(t, tc.file)
				if tc.lf {
					body = strings.ReplaceAll(body, "\r\n", "\n")
				}
				got, err := ReadRequest(strings.NewReader(body), ct)
				if err != nil {
					t.Fatal(err)
				}
				checkOps(t, got, tc.want)
			})
		}
	})
	t.Run("OKMergeAndOverride", func(t *testing.T) {
		body := batchBody(
			"MERGE /devstoreaccount1/t(PartitionKey='p',RowKey='1') HTTP/1.1\r\nif-match: *\r\n\r\n{}",
			"POST http://h/a/t(PartitionKey='p',RowKey='2') HTTP/1.1\r\nX-HTTP-Method: MERGE\r\n\r\n{}")
		got, err := ReadRequest(strings.NewReader(body), testCT)
		if err != nil {
			t.Fatal(err)
		}
		checkOps(t, got, []wantOp{
			{method: "MERGE", url: "/devstoreaccount1/t(PartitionKey='p',RowKey='1')",
				header: map[string]string{"If-Match": "*"}, body: "{}"},
			{method: "POST", url: "http://h/a/t(PartitionKey='p',RowKey='2')",
				header: map[string]string{"X-Http-Method": "MERGE"}, body: "{}"},
		})
	})
	t.Run("OK100Operations", func(t *testing.T) {
		got, err := ReadRequest(strings.NewReader(batchBody(insertOps(100)...)), testCT)
		if err != nil || len(got) != 100 || got[99].Header.Get("Prefer") != "return-no-content" {
			t.Fatalf("got %d operations, %v", len(got), err)
		}
	})
	t.Run("OKExactly4MiB", func(t *testing.T) {
		n := model.MaxBatchBytes - len(batchBody(insertOp("1", "")))
		body := batchBody(insertOp("1", strings.Repeat("x", n)))
		got, err := ReadRequest(strings.NewReader(body), testCT)
		if err != nil || len(body) != model.MaxBatchBytes || len(got[0].Body) < n {
			t.Fatalf("len %d: %v", len(body), err)
		}
	})
	t.Run("ErrTooLarge", func(t *testing.T) {
		n := model.MaxBatchBytes + 1 - len(batchBody(insertOp("1", "")))
		body := batchBody(insertOp("1", strings.Repeat("x", n)))
		if _, err := ReadRequest(strings.NewReader(body), testCT); !errors.Is(err, ErrTooLarge) {
			t.Fatalf("len %d: got %v, want ErrTooLarge", len(body), err)
		}
	})
	t.Run("ErrTooLargeReadsNoMore", func(t *testing.T) {
		src := &endless{}
		if _, err := ReadRequest(src, testCT); !errors.Is(err, ErrTooLarge) {
			t.Fatalf("got %v, want ErrTooLarge", err)
		}
		if src.n != model.MaxBatchBytes+1 {
			t.Fatalf("read %d bytes, want %d", src.n, model.MaxBatchBytes+1)
		}
	})
}

// endless is a reader that never ends and counts what was read.
type endless struct{ n int }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	e.n += len(p)
	return len(p), nil
}

// queryPart is a batch part holding a Get Entity, outside any changeset.
const queryPart = "--batch_b1\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n" +
	"GET " + base + "(PartitionKey='p',RowKey='1') HTTP/1.1\r\nAccept: application/json;odata=nometadata\r\n\r\n\r\n"

func TestReadRequest_query(t *testing.T) {
	subs, err := ReadRequest(strings.NewReader(queryPart+"--batch_b1--\r\n"), testCT)
	if err != nil || len(subs) != 1 || subs[0].Method != "GET" || subs[0].URL.Path != "/devstoreaccount1/mytable(PartitionKey='p',RowKey='1')" ||
		subs[0].Header.Get("Accept") != "application/json;odata=nometadata" {
		t.Fatalf("ReadRequest = %+v, %v; want the one GET", subs, err)
	}
}

// TestReadRequest_queryInChangeset: a Get Entity alone in a changeset is the batch's query.
func TestReadRequest_queryInChangeset(t *testing.T) {
	subs, err := ReadRequest(strings.NewReader(batchBody("GET "+base+"(PartitionKey='p',RowKey='1') HTTP/1.1\r\n\r\n")), testCT)
	if err != nil || len(subs) != 1 || subs[0].Method != "GET" {
		t.Fatalf("ReadRequest = %+v, %v; want the one GET", subs, err)
	}
}

func TestReadRequest_errors(t *testing.T) {
	op := insertOp("1", "")
	cs := "--batch_b1\r\nContent-Type: multipart/mixed; boundary=changeset_c1\r\n\r\n"
	part := "--changeset_c1\r\nContent-Type: application/http\r\n\r\n"
	end := "\r\n--changeset_c1--\r\n--batch_b1--\r\n"
	for _, tc := range []struct {
		name, ct, body string
		want           error
	}{
		{"ErrTooManyOperations", testCT, batchBody(insertOps(101)...), ErrTooManyOperations},
		{"ErrEmptyChangeset", testCT, cs + "--changeset_c1--\r\n--batch_b1--\r\n", ErrEmpty},
		{"ErrEmptyBatch", testCT, "--batch_b1--\r\n", ErrEmpty},
		{"ErrMultipleChangesets", testCT, strings.TrimSuffix(batchBody(op), "--batch_b1--\r\n") +
			batchBody(op), ErrMultipleChangesets},
		{"ErrMethodGetAfterWrite", testCT, batchBody(op, "GET "+base+"() HTTP/1.1\r\n\r\n"), ErrMethod},
		{"ErrMethodWriteAfterGet", testCT, batchBody("GET "+base+"() HTTP/1.1\r\n\r\n", op), ErrMethod},
		{"ErrMethodLowercase", testCT, batchBody("post " + base + " HTTP/1.1\r\n\r\n{}"), ErrMethod},
		{"ErrMalformedNoContentType", "", batchBody(op), ErrMalformed},
		{"ErrMalformedWrongContentType", "application/json", batchBody(op), ErrMalformed},
		{"ErrMalformedNoBoundary", "multipart/mixed", batchBody(op), ErrMalformed},
		{"ErrMalformedBadContentType", "multipart/mixed; boundary=", batchBody(op), ErrMalformed},
		{"ErrMalformedOtherBoundary", "multipart/mixed; boundary=batch_zz", batchBody(op), ErrMalformed},
		{"ErrMalformedNotMultipart", testCT, "{\"PartitionKey\":\"p\"}", ErrMalformed},
		// A query stands alone in its batch; a write stands only in a changeset.
		{"ErrQueryNotAlone", testCT, queryPart + batchBody(op), ErrQueryNotAlone},
		{"ErrQueryNotAloneTwoQueries", testCT, queryPart + queryPart + "--batch_b1--\r\n", ErrQueryNotAlone},
		{"ErrMethodWriteOutsideChangeset", testCT, "--batch_b1\r\nContent-Type: application/http\r\n\r\n" +
			op + "\r\n--batch_b1--\r\n", ErrMethod},
		{"ErrMalformedNestedChangeset", testCT, cs + "--changeset_c1\r\nContent-Type: multipart/mixed; " +
			"boundary=x\r\n\r\n--x\r\n\r\n--x--" + end, ErrMalformed},
		{"ErrMalformedNoPartType", testCT, cs + "--changeset_c1\r\n\r\n" + op + end, ErrMalformed},
		{"ErrMalformedEncoding", testCT, cs + "--changeset_c1\r\nContent-Type: application/http\r\n" +
			"Content-Transfer-Encoding: base64\r\n\r\n" + op + end, ErrMalformed},
		{"ErrMalformedRequestLine", testCT, batchBody("POST " + base + "\r\n\r\n{}"), ErrMalformed},
		{"ErrMalformedProtocol", testCT, batchBody("POST " + base + " FTP/1\r\n\r\n{}"), ErrMalformed},
		{"ErrMalformedURL", testCT, batchBody("POST %zz HTTP/1.1\r\n\r\n{}"), ErrMalformed},
		{"ErrMalformedRelativeURL", testCT, batchBody("POST t(PartitionKey='p') HTTP/1.1\r\n\r\n{}"), ErrMalformed},
		{"ErrMalformedNoHost", testCT, batchBody("POST http:/t HTTP/1.1\r\n\r\n{}"), ErrMalformed},
		{"ErrMalformedHeader", testCT, batchBody("POST " + base + " HTTP/1.1\r\nno colon\r\n\r\n{}"), ErrMalformed},
		{"ErrMalformedNoBlankLine", testCT, batchBody("POST " + base + " HTTP/1.1\r\nPrefer: x"), ErrMalformed},
		{"ErrMalformedEmptyPart", testCT, cs + part + end, ErrMalformed},
		{"ErrMalformedUnclosedChangeset", testCT, cs + part + op + "\r\n--batch_b1--\r\n", ErrMalformed},
		{"ErrMalformedUnclosedBatch", testCT, strings.TrimSuffix(batchBody(op), "--batch_b1--\r\n"), ErrMalformed},
		{"ErrMalformedTruncated", testCT, batchBody(op)[:60], ErrMalformed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ReadRequest(strings.NewReader(tc.body), tc.ct)
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %d operations, error %v; want %v", len(got), err, tc.want)
			}
		})
	}
}

func TestReadRequest_operationIndex(t *testing.T) {
	body := batchBody(insertOp("0", ""), insertOp("1", ""), "DELETE /a/t HTTP/1.1\r\nbad header\r\n\r\n")
	_, err := ReadRequest(strings.NewReader(body), testCT)
	var opErr *OperationError
	if !errors.As(err, &opErr) || opErr.Index != 2 || !errors.Is(err, ErrMalformed) {
		t.Fatalf("got %v, want an ErrMalformed *OperationError at index 2", err)
	}
	if !strings.Contains(err.Error(), "operation 2: malformed batch request: headers:") {
		t.Fatalf("message %q does not say what is wrong", err)
	}
}

func TestReadRequest_readError(t *testing.T) {
	failing := io.MultiReader(strings.NewReader("--batch_b1\r\n"), errReader{})
	if _, err := ReadRequest(failing, testCT); !errors.Is(err, errBroken) {
		t.Fatalf("got %v, want the reader's error", err)
	}
}

var errBroken = errors.New("connection reset")

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errBroken }
