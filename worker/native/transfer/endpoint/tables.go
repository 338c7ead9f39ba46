package endpoint

import (
	"context"
	"errors"
	"net/http"
	"net/url"

	"github.com/goccy/go-json/jsontext"
	"github.com/tabletopdb/tabletop/core/azerr"
	"github.com/tabletopdb/tabletop/worker/native/transfer/typedjson"
)

// Tables returns the names of the account's tables, following continuation headers.
func (c *Client) Tables(ctx context.Context) ([]string, error) {
	var names []string
	next := ""
	for {
		q := url.Values{}
		if next != "" {
			q.Set("NextTableName", next)
		}
		resp, err := c.do(ctx, request{method: http.MethodGet, path: "/Tables", query: q})
		if err != nil {
			return nil, err
		}
		err = readValues(resp, func(o *typedjson.Object) error {
			if name, ok := o.Text("TableName"); ok {
				names = append(names, name)
			}
			return nil
		}, nil)
		if err != nil {
			return nil, err
		}
		if next = resp.Header.Get("x-ms-continuation-NextTableName"); next == "" {
			return names, nil
		}
	}
}

// CreateTable creates a table; a table that exists already is no error.
func (c *Client) CreateTable(ctx context.Context, name string) error {
	body, _ := jsontext.AppendQuote([]byte(`{"TableName":`), name)
	resp, err := c.do(ctx, request{
		method: http.MethodPost, path: "/Tables", body: append(body, '}'),
		header: http.Header{"Content-Type": {"application/json"}, "Prefer": {"return-no-content"}},
	})
	var e *Error
	if errors.As(err, &e) && e.Code == azerr.TableAlreadyExists.Name {
		return nil
	}
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// readValues reads a response body {"value":[...]} and calls each (or entity, when set)
// for every element, then closes the body. Other members are skipped.
func readValues(resp *http.Response, each func(*typedjson.Object) error, entity func(*jsontext.Decoder) error) error {
	defer resp.Body.Close()
	dec := jsontext.NewDecoder(resp.Body)
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	for dec.PeekKind() == '"' {
		tok, err := dec.ReadToken()
		if err != nil {
			return err
		}
		if tok.String() != "value" || dec.PeekKind() != '[' {
			if err := dec.SkipValue(); err != nil {
				return err
			}
			continue
		}
		if err := readArray(dec, each, entity); err != nil {
			return err
		}
	}
	return nil
}

func readArray(dec *jsontext.Decoder, each func(*typedjson.Object) error, entity func(*jsontext.Decoder) error) error {
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	for dec.PeekKind() != ']' {
		var err error
		if entity != nil {
			err = entity(dec)
		} else {
			var o *typedjson.Object
			if o, err = typedjson.ReadObject(dec); err == nil {
				err = each(o)
			}
		}
		if err != nil {
			return err
		}
	}
	_, err := dec.ReadToken()
	return err
}
