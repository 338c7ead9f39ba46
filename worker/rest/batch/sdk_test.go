//go:build !js

package batch

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
)

const devKey = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="

// batchServer answers $batch requests: it parses them with ReadRequest, hands the
// operations to check, and writes the responses that answer returns.
func batchServer(t *testing.T, answer func([]SubRequest) []Response) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/devstoreaccount1/$batch" {
			t.Errorf("request %s %s", r.Method, r.URL)
		}
		subs, err := ReadRequest(r.Body, r.Header.Get("Content-Type"))
		if err != nil {
			t.Errorf("ReadRequest: %v", err)
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		b, c := NewBoundaries()
		w.Header().Set("Content-Type", ContentType(b))
		w.Header().Set("Date", time.Now().UTC().Format(http.TimeFormat))
		w.Header().Set("x-ms-version", "2019-02-02")
		w.WriteHeader(http.StatusAccepted)
		if err := WriteResponse(w, b, c, answer(subs)); err != nil {
			t.Errorf("WriteResponse: %v", err)
		}
	}))
}

// submit sends an insert, a merge, a replace-upsert and a delete through aztables.
func submit(t *testing.T, srv *httptest.Server) error {
	cred, err := aztables.NewSharedKeyCredential("devstoreaccount1", devKey)
	if err != nil {
		t.Fatal(err)
	}
	opts := &aztables.ClientOptions{ClientOptions: policy.ClientOptions{Retry: policy.RetryOptions{MaxRetries: -1}}}
	client, err := aztables.NewClientWithSharedKey(srv.URL+"/devstoreaccount1/mytable", cred, opts)
	if err != nil {
		t.Fatal(err)
	}
	etag := azcore.ETag(testETag)
	_, err = client.SubmitTransaction(context.Background(), []aztables.TransactionAction{
		{ActionType: aztables.TransactionTypeAdd, Entity: []byte(`{"PartitionKey":"p","RowKey":"1","N":1}`)},
		{ActionType: aztables.TransactionTypeUpdateMerge, Entity: []byte(`{"PartitionKey":"p","RowKey":"2"}`), IfMatch: &etag},
		{ActionType: aztables.TransactionTypeInsertReplace, Entity: []byte(`{"PartitionKey":"p","RowKey":"3"}`)},
		{ActionType: aztables.TransactionTypeDelete, Entity: []byte(`{"PartitionKey":"p","RowKey":"4"}`)},
	}, nil)
	return err
}

// checkSDKOps checks what ReadRequest made of aztables' request.
func checkSDKOps(t *testing.T, subs []SubRequest) {
	var got []string
	for _, s := range subs {
		got = append(got, s.Method+" "+s.URL.Path+" "+s.Header.Get("If-Match")+" "+string(s.Body))
	}
	want := []string{
		`POST /devstoreaccount1/mytable  {"N":1,"PartitionKey":"p","RowKey":"1"}`,
		`PATCH /devstoreaccount1/mytable(PartitionKey='p',RowKey='2') ` + testETag + ` {"PartitionKey":"p","RowKey":"2"}`,
		`PUT /devstoreaccount1/mytable(PartitionKey='p',RowKey='3')  {"PartitionKey":"p","RowKey":"3"}`,
		`DELETE /devstoreaccount1/mytable(PartitionKey='p',RowKey='4') * `,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("operations\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestWriteResponse_goSDK(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		srv := batchServer(t, func(subs []SubRequest) []Response {
			checkSDKOps(t, subs)
			rs := successResponses()
			return append(rs, rs[2])
		})
		defer srv.Close()
		if err := submit(t, srv); err != nil {
			t.Fatalf("SubmitTransaction: %v", err)
		}
	})
	t.Run("ErrEntityAlreadyExists", func(t *testing.T) {
		srv := batchServer(t, func(subs []SubRequest) []Response { return failureResponses() })
		defer srv.Close()
		err := submit(t, srv)
		var respErr *azcore.ResponseError
		if !errors.As(err, &respErr) || respErr.StatusCode != http.StatusAccepted {
			t.Fatalf("SubmitTransaction: got %v, want an *azcore.ResponseError", err)
		}
		for _, want := range []string{`"code":"EntityAlreadyExists"`, `"value":"2:The specified entity already exists.`} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error does not report %s:\n%v", want, err)
			}
		}
	})
}
