//go:build !js

package rest_test

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// pinClock is a store clock fixed at the Timestamp of Azure's documented examples; the store adds a
// tick per write, so the first entity written gets exactly this time.
func pinClock() time.Time { return time.Date(2021, 8, 31, 15, 40, 49, 672440700, time.UTC) }

// pinEntity holds one property of each type, Double special values and an integral Double.
const pinEntity = `{"PartitionKey":"p","RowKey":"r","Str":"s\"\u00e9","Bin@odata.type":"Edm.Binary","Bin":"AQI=",` +
	`"Bool":true,"When@odata.type":"Edm.DateTime","When":"2020-01-02T03:04:05Z","Dbl":5.0,` +
	`"Guid@odata.type":"Edm.Guid","Guid":"0D391D16-97F1-4B9A-BE68-4CC871F90001","I32":7,` +
	`"I64@odata.type":"Edm.Int64","I64":"9","Nan@odata.type":"Edm.Double","Nan":"NaN","Timestamp":"2000-01-01T00:00:00Z","Null":null}`

const pinETag = `W/"datetime'2021-08-31T15%3A40%3A49.6724407Z'"`

// The bodies of pinEntity in the three metadata levels; {base} is the service URL.
const (
	pinProps   = `"Str":"s\"é","Bin@odata.type":"Edm.Binary","Bin":"AQI=","Bool":true,"When@odata.type":"Edm.DateTime","When":"2020-01-02T03:04:05.0000000Z","Dbl":5.0,"Guid@odata.type":"Edm.Guid","Guid":"0d391d16-97f1-4b9a-be68-4cc871f90001","I32":7,"I64@odata.type":"Edm.Int64","I64":"9","Nan@odata.type":"Edm.Double","Nan":"NaN"`
	pinNone    = `{"PartitionKey":"p","RowKey":"r","Timestamp":"2021-08-31T15:40:49.6724407Z","Str":"s\"é","Bin":"AQI=","Bool":true,"When":"2020-01-02T03:04:05.0000000Z","Dbl":5.0,"Guid":"0d391d16-97f1-4b9a-be68-4cc871f90001","I32":7,"I64":"9","Nan":"NaN"}`
	pinMinimal = `{"odata.metadata":"{base}/$metadata#Pins/@Element","odata.etag":"W/\"datetime'2021-08-31T15%3A40%3A49.6724407Z'\"","PartitionKey":"p","RowKey":"r","Timestamp":"2021-08-31T15:40:49.6724407Z",` + pinProps + `}`
	pinFull    = `{"odata.metadata":"{base}/$metadata#Pins/@Element","odata.type":"devstoreaccount1.Pins","odata.id":"{base}/Pins(PartitionKey='p',RowKey='r')","odata.etag":"W/\"datetime'2021-08-31T15%3A40%3A49.6724407Z'\"","odata.editLink":"Pins(PartitionKey='p',RowKey='r')","PartitionKey":"p","RowKey":"r","Timestamp@odata.type":"Edm.DateTime","Timestamp":"2021-08-31T15:40:49.6724407Z",` + pinProps + `}`
)

// newPinEnv returns an env with table Pins holding pinEntity, written at pinClock.
func newPinEnv(t *testing.T) *env {
	e := newEnvAt(t, pinClock)
	resp := do(t, signedRequest(t, e, http.MethodPost, "/Tables", `{"TableName":"Pins"}`))
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create table: %d %s", resp.StatusCode, body(resp))
	}
	req := signedRequest(t, e, http.MethodPost, "/Pins", pinEntity)
	req.Header.Set("Prefer", "return-no-content")
	if resp := do(t, req); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("insert: %d %s", resp.StatusCode, body(resp))
	}
	return e
}

func TestRaw_MetadataLevels(t *testing.T) {
	e := newPinEnv(t)
	levels := []struct {
		name, accept, format, entity string
	}{
		{"nometadata", "application/json;odata=nometadata", "", pinNone},
		{"minimalmetadata", "application/json;odata=minimalmetadata", "", pinMinimal},
		{"fullmetadata", "application/json;odata=fullmetadata", "", pinFull},
		{"FormatOverAccept", "application/json;odata=nometadata", "application/json;odata=fullmetadata", pinFull},
		{"PlainJSON", "application/json", "", pinMinimal},
	}
	for _, l := range levels {
		t.Run("Get/"+l.name, func(t *testing.T) {
			path := "/Pins(PartitionKey='p',RowKey='r')"
			if l.format != "" {
				path += "?$format=" + strings.ReplaceAll(l.format, ";", "%3B")
			}
			req := signedRequest(t, e, http.MethodGet, path, "")
			req.Header.Set("Accept", l.accept)
			resp := do(t, req)
			want := strings.ReplaceAll(l.entity, "{base}", e.url)
			if resp.StatusCode != http.StatusOK || body(resp) != want {
				t.Fatalf("got %d\n%s\nwant\n%s", resp.StatusCode, body(resp), want)
			}
			level := strings.TrimPrefix(l.name, "FormatOverAccept")
			if level == "" {
				level = "fullmetadata"
			} else if level == "PlainJSON" {
				level = "minimalmetadata"
			}
			if ct := resp.Header.Get("Content-Type"); ct != "application/json; odata="+level+"; streaming=true; charset=utf-8" {
				t.Fatalf("Content-Type = %q", ct)
			}
			if etag := resp.Header.Get("ETag"); etag != pinETag {
				t.Fatalf("ETag = %q", etag)
			}
		})
		t.Run("Query/"+l.name, func(t *testing.T) {
			req := signedRequest(t, e, http.MethodGet, "/Pins()", "")
			req.Header.Set("Accept", l.accept)
			if l.format != "" {
				q := req.URL.Query()
				q.Set("$format", l.format)
				req.URL.RawQuery = q.Encode()
				sign(req)
			}
			resp := do(t, req)
			entity := strings.Replace(strings.ReplaceAll(l.entity, "{base}", e.url), `"odata.metadata":"`+e.url+`/$metadata#Pins/@Element",`, "", 1)
			want := `{"value":[` + entity + `]}`
			if l.entity != pinNone {
				want = `{"odata.metadata":"` + e.url + `/$metadata#Pins","value":[` + entity + `]}`
			}
			if resp.StatusCode != http.StatusOK || body(resp) != want {
				t.Fatalf("got %d\n%s\nwant\n%s", resp.StatusCode, body(resp), want)
			}
		})
	}
}

func TestRaw_Tables(t *testing.T) {
	e := newPinEnv(t)
	for _, l := range []struct{ accept, list, created string }{
		{"application/json;odata=nometadata", `{"value":[{"TableName":"Pins"}]}`, `{"TableName":"New1"}`},
		{"application/json;odata=minimalmetadata", `{"odata.metadata":"{base}/$metadata#Tables","value":[{"TableName":"Pins"}]}`,
			`{"odata.metadata":"{base}/$metadata#Tables/@Element","TableName":"New2"}`},
		{"application/json;odata=fullmetadata", `{"odata.metadata":"{base}/$metadata#Tables","value":[{"odata.type":"devstoreaccount1.Tables","odata.id":"{base}/Tables('Pins')","odata.editLink":"Tables('Pins')","TableName":"Pins"}]}`,
			`{"odata.metadata":"{base}/$metadata#Tables/@Element","odata.type":"devstoreaccount1.Tables","odata.id":"{base}/Tables('New3')","odata.editLink":"Tables('New3')","TableName":"New3"}`},
	} {
		t.Run(l.accept, func(t *testing.T) {
			req := signedRequest(t, e, http.MethodGet, "/Tables?$filter=TableName%20eq%20'Pins'", "")
			req.Header.Set("Accept", l.accept)
			resp := do(t, req)
			if want := strings.ReplaceAll(l.list, "{base}", e.url); body(resp) != want {
				t.Fatalf("list: got\n%s\nwant\n%s", body(resp), want)
			}
			name := l.created[strings.Index(l.created, `"TableName":"`)+13 : len(l.created)-2]
			req = signedRequest(t, e, http.MethodPost, "/Tables", `{"TableName":"`+name+`"}`)
			req.Header.Set("Accept", l.accept)
			resp = do(t, req)
			if want := strings.ReplaceAll(l.created, "{base}", e.url); resp.StatusCode != http.StatusCreated || body(resp) != want {
				t.Fatalf("create: got %d\n%s\nwant\n%s", resp.StatusCode, body(resp), want)
			}
			if loc := resp.Header.Get("Location"); loc != e.url+"/Tables('"+name+"')" {
				t.Fatalf("Location = %q", loc)
			}
			if resp.Header.Get("Preference-Applied") != "" {
				t.Fatal("Preference-Applied without Prefer")
			}
		})
	}
}
