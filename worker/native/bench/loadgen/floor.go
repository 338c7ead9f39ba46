package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
)

// floorEntity is the body the floor answers a get with: an entity of the size the
// workloads read.
const floorEntity = `{"odata.metadata":"http://127.0.0.1/devstoreaccount1/$metadata#bench/@Element","odata.etag":"W/\"datetime'2026-01-01T00%3A00%3A00.0000000Z'\"","PartitionKey":"p01","RowKey":"000001","Timestamp":"2026-01-01T00:00:00.0000000Z","Name":"entity number 1","Count":1,"Score":1.5,"Active":false}`

// serveFloor serves the trivial handler on addr (port 0: any free port) and prints its
// endpoint, then serves until killed.
func serveFloor(addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Printf("http://%s/devstoreaccount1\n", ln.Addr())
	return http.Serve(ln, floorHandler())
}

// floorHandler reads the request, then answers a POST with 204 and anything else with
// floorEntity.
func floorHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		if r.Method == http.MethodPost {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		w.Header().Set("Content-Type", "application/json;odata=minimalmetadata")
		io.WriteString(w, floorEntity)
	})
}
